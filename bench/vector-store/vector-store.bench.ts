// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Embedded vector store at 10k / 100k / 1M 384-d chunks: ingest rate, file size, cold matrix load,
 * query latency (p50/p99, excluding query embedding) and single-process queries/second for dense,
 * filtered dense, BM25 and hybrid search (the default z-score fusion, and RRF).
 *
 *   npx tsx bench/vector-store/vector-store.bench.ts [--sizes 10000,100000,1000000] [--queries 300]
 *
 * Results: bench/vector-store/results/embedded-<size>.json; render with render-report.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createVectorStore, EMBEDDED_DB_FILE, FUSION_DEFAULTS, type VectorStore } from '@lectern/vector-store';
import { Corpus, DIM } from './synthetic-corpus.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    queries: { type: 'string', default: '300' },
    keep: { type: 'boolean', default: false },
  },
});
const sizes = values.sizes.split(',').map(Number);
const Q = Number(values.queries);
const fingerprint = { model_id: 'bench/random-384', revision: '1', dimension: DIM, normalized: true };
const resultsDir = join(import.meta.dirname, 'results');
mkdirSync(resultsDir, { recursive: true });

const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const fileSize = (dir: string): number =>
  ['', '-wal', '-shm']
    .map((s) => join(dir, EMBEDDED_DB_FILE + s))
    .filter(existsSync)
    .reduce((a, f) => a + statSync(f).size, 0);

async function measure(label: string, run: (i: number) => Promise<unknown>): Promise<Record<string, number>> {
  for (let i = 0; i < 10; i++) await run(i); // warm-up (statement cache, page cache)
  const lat: number[] = [];
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < Q; i++) {
    const t = process.hrtime.bigint();
    await run(i);
    lat.push(ms(t));
  }
  const total = ms(t0);
  const r = { p50: pct(lat, 50), p99: pct(lat, 99), mean: total / Q, qps: (Q * 1000) / total };
  console.log(`  ${label.padEnd(14)} p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  ${r.qps.toFixed(0)} q/s`);
  return r;
}

for (const size of sizes) {
  const dir = mkdtempSync(join(tmpdir(), `lectern-vs-bench-${size}-`));
  const corpus = new Corpus(size);
  let store: VectorStore = createVectorStore({ dataDir: dir });
  await store.ensureCollection('bench', { fingerprint, hybrid: true });
  console.log(`# ${size} points (${dir})`);
  let ingestMs = 0;
  const batch = 1000;
  for (let i = 0; i < size; i += batch) {
    const points = Array.from({ length: Math.min(batch, size - i) }, (_, j) => corpus.point(i + j));
    const t = process.hrtime.bigint();
    await store.upsert('bench', points, { fingerprint });
    ingestMs += ms(t);
    if ((i / batch) % 100 === 99)
      console.log(`  ingested ${i + batch} (${(((i + batch) * 1000) / ingestMs).toFixed(0)} points/s)`);
  }
  await store.close(); // the last connection checkpoints the WAL into the main file
  const bytes = fileSize(dir);
  store = createVectorStore({ dataDir: dir });
  const queries = Array.from({ length: Q + 10 }, () => corpus.query());
  const t = process.hrtime.bigint();
  await store.searchDense('bench', queries[0]!.vector, { fingerprint, limit: 10 });
  const coldMs = ms(t);
  console.log(
    `  ingest ${((size * 1000) / ingestMs).toFixed(0)} points/s, file ${(bytes / 2 ** 20).toFixed(1)} MiB, cold first query ${coldMs.toFixed(0)} ms`,
  );
  const q = (i: number) => queries[i % queries.length]!;
  const result = {
    size,
    dimension: DIM,
    queries: Q,
    ingestPointsPerSec: (size * 1000) / ingestMs,
    fileBytes: bytes,
    coldFirstQueryMs: coldMs,
    dense: await measure('dense', (i) => store.searchDense('bench', q(i).vector, { fingerprint, limit: 10 })),
    denseFiltered: await measure('dense+filter', (i) =>
      store.searchDense('bench', q(i).vector, {
        fingerprint,
        limit: 10,
        filter: { document_type: { $in: ['policy', 'report'] } },
      }),
    ),
    keyword: await measure('bm25', (i) => store.searchKeyword('bench', q(i).text, { limit: 10 })),
    // The default fusion (FUSION_DEFAULTS: z-score, 100 candidates per side), and RRF over the same candidates.
    hybridFusion: `${FUSION_DEFAULTS.method}, ${FUSION_DEFAULTS.candidates} candidates per side`,
    hybrid: await measure('hybrid', (i) => store.searchHybrid('bench', q(i), { fingerprint, limit: 10 })),
    hybridRrf: await measure('hybrid rrf', (i) =>
      store.searchHybrid('bench', q(i), { fingerprint, limit: 10, fusion: 'rrf' }),
    ),
    rssMiB: process.memoryUsage().rss / 2 ** 20,
    cpus: cpus().length,
    loadAvg1m: loadavg()[0],
    node: process.version,
    date: new Date().toISOString(),
  };
  console.log(`  rss ${result.rssMiB.toFixed(0)} MiB`);
  writeFileSync(join(resultsDir, `embedded-${size}.json`), JSON.stringify(result, null, 2) + '\n');
  await store.close();
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
