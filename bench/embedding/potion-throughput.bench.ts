// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * potion-base-2M (Model2Vec, on the caller's thread) beside the bundled USE-lite and the MiniLM-shaped fp32 model
 * (random weights, real cost), through @lectern/embedding: texts/s by wall time AND by CPU time (process-wide, so
 * worker threads count), the load average around each measurement, and the event loop's longest stall while
 * potion embeds a large batch on the caller's thread (the reason it needs no worker).
 *
 *   npx tsx bench/embedding/potion-throughput.bench.ts [--rounds 3] [--model-dir ../shared/models/potion-base-2M]
 *
 * Engines alternate, `rounds` times, best round kept (the machine is shared). Prints Markdown.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { resolveEmbedder, type Embedder } from '@lectern/embedding';
import { sharedModelDir } from '@lectern/testing';
import { makeMiniLmFixture } from '../../libs/embedding/src/test-model/minilm-fixture.js';
import { chunkByTokens, loadCorpus, loadQueries, shuffled } from './corpus.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, 'model-dir': { type: 'string' } },
});
const rounds = Number(values.rounds);
const potionDir = values['model-dir'] ?? sharedModelDir('potion-base-2M');
const fmt = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '–');

interface Measure {
  wall: number;
  cpu: number;
  load: number;
}

/** One run: wall ms, process CPU ms (all threads), 1-min load average after. */
const measure = async (fn: () => Promise<unknown>): Promise<Measure> => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000, load: loadavg()[0] ?? NaN };
};

const main = async (): Promise<void> => {
  const root = await mkdtemp(join(tmpdir(), 'lectern-bench-potion-'));
  const minilmDir = join(root, 'all-MiniLM-L6-v2');
  await mkdir(minilmDir, { recursive: true });
  await makeMiniLmFixture(sharedModelDir(), { root: minilmDir });
  const log = { info: () => undefined, warn: () => undefined };
  const threads = availableParallelism();
  const engines: [string, Embedder][] = [
    [
      'potion-base-2M (caller thread)',
      await resolveEmbedder({ model: 'potion-base-2M', modelDir: potionDir, cacheDir: root, log }),
    ],
    [
      'USE-lite (bundled, 2 workers)',
      await resolveEmbedder({ model: 'universal-sentence-encoder-lite', cacheDir: root, threads, log }),
    ],
    [
      'MiniLM-shaped fp32 (2 workers)',
      await resolveEmbedder({ model: 'all-MiniLM-L6-v2', modelDir: minilmDir, cacheDir: root, threads, log }),
    ],
  ];
  const potion = engines[0]?.[1] as Embedder;
  const corpus = shuffled(loadCorpus());
  const count = (t: string) => potion.countTokens(t);
  const queries = shuffled(loadQueries())
    .map((q) => q.text)
    .slice(0, 256);
  const chunks = corpus
    .map((d) => chunkByTokens(d.text, 200, count)[0] as string)
    .filter((t) => count(t) >= 150)
    .slice(0, 128);
  const abstracts = corpus.map((d) => `${d.title}. ${d.text}`);
  for (const [, e] of engines) await e.embedBatch(queries.slice(0, 16)); // warm-up: load models, JIT

  console.log(
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; load average at start ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')}; best of ${rounds} alternating rounds.`,
  );
  console.log(
    `Texts: ${queries.length} SciFact claims, ${chunks.length} abstract pieces of 150-200 potion tokens; batch 32.`,
  );
  console.log('');
  console.log('| texts | engine | texts/s (wall) | texts/s per CPU-second | CPU/wall | load avg (1 min) |');
  console.log('|---|---|---|---|---|---|');
  for (const [label, texts] of [
    ['claims', queries],
    ['~200-token pieces', chunks],
  ] as const) {
    const best = engines.map(() => ({ wall: Infinity, cpu: Infinity, load: NaN }));
    for (let r = 0; r < rounds; r++) {
      for (const [i, [, e]] of engines.entries()) {
        const m = await measure(() => e.embedBatch([...texts], { batchSize: 32 }));
        if (m.wall < (best[i] as Measure).wall) best[i] = m;
      }
    }
    for (const [i, [name]] of engines.entries()) {
      const m = best[i] as Measure;
      console.log(
        `| ${label} | ${name} | ${fmt(texts.length / (m.wall / 1000))} | ${fmt(texts.length / (m.cpu / 1000))} | ${fmt(m.cpu / m.wall, 2)} | ${fmt(m.load, 1)} |`,
      );
    }
  }

  // The whole corpus through potion on the caller's thread, with the event loop watched.
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const whole = await measure(() => potion.embedBatch(abstracts, { batchSize: 32 }));
  delay.disable();
  const tokens = abstracts.reduce((s, t) => s + Math.min(count(t), potion.maxTokens), 0);
  console.log('');
  console.log(
    `All ${abstracts.length} SciFact abstracts (${tokens} tokens after the 512 cap) through potion-base-2M: ${fmt(whole.wall)} ms wall, ` +
      `${fmt(whole.cpu)} ms CPU (${fmt(abstracts.length / (whole.wall / 1000))} texts/s, ${fmt(tokens / (whole.cpu / 1000) / 1000)}k tokens per CPU-second), load ${fmt(whole.load, 1)}; ` +
      `event loop delay during the batch: p50 ${fmt(delay.percentile(50) / 1e6, 1)} ms, p99 ${fmt(delay.percentile(99) / 1e6, 1)} ms, max ${fmt(delay.max / 1e6, 1)} ms.`,
  );
  const m0 = performance.now();
  const pieces = abstracts.slice(0, 2000);
  await potion.embedBatch(pieces, { batchSize: 32 });
  const tokenizeOnly = await measure(async () => {
    for (const t of pieces) potion.countTokens(t);
  });
  console.log(
    `Of which tokenisation (@huggingface/tokenizers): ${fmt((tokenizeOnly.wall / (performance.now() - m0 - tokenizeOnly.wall)) * 100)}% of the embedding time for 2000 abstracts.`,
  );
  for (const [, e] of engines) await e.close();
  await rm(root, { recursive: true, force: true });
};

await main();
