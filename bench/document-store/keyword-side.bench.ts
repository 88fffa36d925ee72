// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The embedded store's keyword side (`keywordCandidates`, what a hybrid search's worker spends most on) in one
 * process, two source trees side by side: a collection of ~10k SciFact chunks (5,183 abstracts, two chunks each, the
 * payload spec 004's `store_chunks` writes) is written once, then the held-out SciFact claims are searched with each
 * tree's `keywordCandidates` in alternating blocks; CPU (user + sys of this process) per search for each, and whether
 * the two answered the same (rids and scores, exactly).
 *
 *   npx tsx bench/document-store/keyword-side.bench.ts --trees /tmp/base,. [--rounds 6] [--candidates 100] [--filter JSON]
 *     [--write-every N]
 *
 * With `--write-every N` a writer (the store, its own connection) re-stores 250 of the chunks (the same texts and
 * payloads: the collection's version moves, its contents do not) after every N searches of the timed rounds, as the
 * load bench's ingest does; each search then runs as the reader runs it (one read transaction, the collection read
 * inside it), and the writes' own CPU is not counted.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { EMBEDDED_DB_FILE, EmbeddedVectorStore } from '../../libs/vector-store/src/embedded/embedded.adapter.js';
import { readCollection } from '../../libs/vector-store/src/embedded/embedded-schema.js';
import type { Filter } from '../../libs/vector-store/src/vector-store.port.js';
import { heldOutQueries, scifactBatches } from './service-process.js';

const { values } = parseArgs({
  options: {
    trees: { type: 'string', default: '.' },
    rounds: { type: 'string', default: '6' },
    candidates: { type: 'string', default: '100' },
    docs: { type: 'string', default: '5183' },
    /** A payload filter (JSON) for every search, e.g. '{"chunk_index":1}': the filtered SQL path. */
    filter: { type: 'string' },
    /** Re-store 250 chunks after every N timed searches (0: no writes). */
    'write-every': { type: 'string', default: '0' },
  },
});
const say = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);
type KeywordCandidates = (
  stmt: (sql: string) => Database.Statement,
  c: NonNullable<ReturnType<typeof readCollection>>,
  text: string,
  filter: Filter | undefined,
  k: number,
) => [number, number][];

const trees = values.trees.split(',').map((t) => resolve(t));
const impls: { tree: string; kc: KeywordCandidates }[] = [];
for (const tree of trees) {
  const m = (await import(join(tree, 'libs/vector-store/src/embedded/embedded-search.ts'))) as {
    keywordCandidates: KeywordCandidates;
  };
  impls.push({ tree, kc: m.keywordCandidates });
}

const dir = mkdtempSync(join(tmpdir(), 'lectern-keyword-side-'));
try {
  const FP = { model_id: 'bench/unit-4', revision: '1', dimension: 4, normalized: true };
  const store = new EmbeddedVectorStore({ dataDir: dir });
  await store.ensureCollection('scifact', { fingerprint: FP, hybrid: true });
  let n = 0;
  const points: Parameters<typeof store.upsert>[1][] = [];
  for (const batch of scifactBatches(Number(values.docs))) {
    points.push(
      batch.map((c) => {
        n++;
        return {
          id: `${String(c['doc_id'])}#${String(c['chunk_index'])}`,
          text: String(c['text']),
          payload: {
            document_id: String(c['doc_id']),
            project: 'bench',
            chunk_index: c['chunk_index'],
            section_heading: '',
            section_path: [],
            tags: c['tags'],
            origin: 'store_chunks',
          },
          vector: [1, (n % 97) / 97, (n % 13) / 13, 0.5],
        };
      }),
    );
    await store.upsert('scifact', points[points.length - 1]!, { fingerprint: FP });
  }
  say(`${n} chunks written`);
  const writeEvery = Number(values['write-every']);
  const rewrite = points.flat();
  let writes = 0;
  /** Re-stores the next 250 chunks (unchanged contents, a new collection version). */
  const write = async (): Promise<void> => {
    const from = (writes++ * 250) % rewrite.length;
    await store.upsert('scifact', rewrite.slice(from, from + 250), { fingerprint: FP });
  };

  const db = new Database(join(dir, EMBEDDED_DB_FILE), { readonly: true });
  const cache = new Map<string, Database.Statement>();
  const stmt = (sql: string): Database.Statement => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = db.prepare(sql)));
    return s;
  };
  const tx = db.transaction((fn: () => unknown) => fn());
  const opened = readCollection(stmt, 'lectern_scifact');
  if (!opened) throw new Error('no collection');
  const c = opened;
  /** One search as the reader runs it when a writer is on: a read transaction, the collection read inside it. */
  const search = (kc: KeywordCandidates, q: string): [number, number][] =>
    writeEvery > 0
      ? (tx.deferred(() => kc(stmt, readCollection(stmt, 'lectern_scifact') ?? c, q, filter, k)) as [number, number][])
      : kc(stmt, c, q, filter, k);
  const queries = heldOutQueries();
  const k = Number(values.candidates);
  const filter = values.filter === undefined ? undefined : (JSON.parse(values.filter) as Filter);
  // Warm-up and the equality check: every tree's answer to every query, compared with the first tree's.
  // The first pass is timed too: each claim asked once, so a cache of per-candidate facts starts cold.
  const first = impls.map(() => 0);
  const answers = impls.map(({ kc }, j) => {
    const c0 = process.cpuUsage();
    const a = queries.map((q) => kc(stmt, c, q, filter, k));
    const d = process.cpuUsage(c0);
    first[j] = (d.user + d.system) / 1000 / queries.length;
    return a;
  });
  const differ = answers
    .slice(1)
    .map((a) => queries.filter((_, i) => JSON.stringify(a[i]) !== JSON.stringify(answers[0]?.[i])).length);
  say(`${queries.length} queries; answers differing from the first tree's: ${differ.join(', ') || '-'}`);

  const cpu = impls.map(() => 0);
  const paused = impls.map(() => 0);
  const wall = impls.map(() => 0);
  const load0 = loadavg()[0] ?? 0;
  const rounds = Number(values.rounds);
  for (let r = 0; r < rounds; r++)
    for (const [j, { kc }] of impls.entries()) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      let t = 0;
      for (const [i, q] of queries.entries()) {
        search(kc, q);
        if (writeEvery > 0 && (i + 1) % writeEvery === 0) {
          // The write's own time and CPU are left out.
          const p0 = process.cpuUsage();
          const w0 = performance.now();
          await write();
          const dp = process.cpuUsage(p0);
          t += performance.now() - w0;
          paused[j]! += (dp.user + dp.system) / 1000;
        }
      }
      const d = process.cpuUsage(c0);
      wall[j]! += performance.now() - t0 - t;
      cpu[j]! += (d.user + d.system) / 1000;
    }
  for (const j of cpu.keys()) cpu[j]! -= paused[j] ?? 0;
  const searches = rounds * queries.length;
  process.stdout.write(
    `load (1 min) ${load0.toFixed(1)} -> ${(loadavg()[0] ?? 0).toFixed(1)}; ${searches} searches per tree, k = ${k}; ${writes} writes of 250 chunks (one per ${writeEvery || '-'} searches)\n` +
      impls
        .map(
          ({ tree }, j) =>
            `${tree}: CPU ${((cpu[j] ?? 0) / searches).toFixed(3)} ms per search, wall ${((wall[j] ?? 0) / searches).toFixed(3)} ms; first pass CPU ${(first[j] ?? 0).toFixed(3)} ms`,
        )
        .join('\n') +
      '\n',
  );
  db.close();
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
