// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The offline fallback, measured side by side in one run: what each bundled option costs to index the same SciFact
 * abstracts (CPU beside wall, load recorded), against potion-base-2M (what a fresh install fetches).
 *
 *   - USE-lite on TensorFlow.js' WASM backend (the bundled model; SIMD on, 2 single-threaded worker lanes — the
 *     multithreaded WASM build is not available to Node workers, see the flags printed);
 *   - BM25 only: the embedded store's FTS5 index over the same texts (better-sqlite3), no vectors at all;
 *   - potion-base-2M (../shared's offline copy), for scale.
 *
 * Quality is not re-measured here (a full SciFact run of USE-lite costs minutes of CPU on the shared machine): the
 * nDCG@10 figures are the store-level ones of docs/benchmarks/embedding.md ("Decision revised", same store, same
 * fusion default), measured on the train and check halves.
 *
 *   npx tsx bench/embedding/fallback.bench.ts [--docs 256] [--rounds 3]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { resolveEmbedder, type Embedder } from '@lectern/embedding';
import { sharedModelDir } from '@lectern/testing';
import { loadCorpus, shuffled } from './corpus.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: number): number =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const DOCS = opt('--docs', 256);
const ROUNDS = opt('--rounds', 3);

const measure = async (run: () => Promise<void> | void): Promise<{ wall: number; cpu: number; load: number }> => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1e6, load: loadavg()[0] ?? NaN };
};

const fts5Index = (texts: string[]): void => {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'porter unicode61')");
  const insert = db.prepare('INSERT INTO t(text) VALUES (?)');
  db.transaction(() => texts.forEach((x) => insert.run(x)))();
  db.close();
};

const main = async (): Promise<void> => {
  const root = await mkdtemp(join(tmpdir(), 'lectern-bench-fallback-'));
  const log = { info: () => undefined, warn: () => undefined };
  const threads = availableParallelism();
  const use = await resolveEmbedder({ model: 'universal-sentence-encoder-lite', cacheDir: root, threads, log });
  const potion = await resolveEmbedder({
    model: 'potion-base-2M',
    modelDir: sharedModelDir('potion-base-2M'),
    cacheDir: root,
    log,
  });
  const texts = shuffled(loadCorpus())
    .slice(0, DOCS)
    .map((d) => `${d.title}. ${d.text}`);
  const engines: [string, (t: string[]) => Promise<void> | void][] = [
    ['USE-lite, WASM SIMD, 2 worker lanes (bundled)', async (t) => void (await use.embedBatch(t))],
    ['BM25 only (FTS5 index, no vectors)', (t) => fts5Index(t)],
    ['potion-base-2M (fetched on a fresh install)', async (t) => void (await (potion as Embedder).embedBatch(t))],
  ];
  for (const [, run] of engines) await run(texts.slice(0, 16)); // warm-up: model loads, JIT
  console.log(
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ${DOCS} SciFact abstracts (title + text, ~${Math.round(texts.join(' ').split(/\s+/).length / DOCS)} words each), best of ${ROUNDS} alternating rounds`,
  );
  const best = new Map<string, { wall: number; cpu: number; load: number }>();
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, run] of engines) {
      const m = await measure(() => run(texts));
      const prev = best.get(name);
      if (!prev || m.cpu < prev.cpu) best.set(name, m);
    }
  }
  console.log('| option | wall s | CPU s | CPU ms per abstract | CPU/wall | load (1 min) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name] of engines) {
    const m = best.get(name) as { wall: number; cpu: number; load: number };
    console.log(
      `| ${name} | ${m.wall.toFixed(2)} | ${m.cpu.toFixed(2)} | ${((m.cpu * 1000) / DOCS).toFixed(2)} | ${(m.cpu / m.wall).toFixed(2)} | ${m.load.toFixed(1)} |`,
    );
  }
  await use.close();
  await potion.close();
  await rm(root, { recursive: true, force: true });
};

await main();
