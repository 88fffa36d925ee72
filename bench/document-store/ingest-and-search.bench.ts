// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Issue 6 benchmark: end-to-end ingestion split by stage (convert, chunk, embed, store) for the NPPF (82 p)
 * and the gnuplot manual (311 p); search latency through MCP (Streamable HTTP, real SDK clients) with 1, 10
 * and 50 concurrent clients; peak RSS (VmHWM) of this process, which hosts the whole service.
 *
 *   [EMBEDDING_MODEL=potion-base-2M EMBEDDING_MODEL_DIR=../shared/models/potion-base-2M] \
 *   npx tsx bench/document-store/ingest-and-search.bench.ts [--queries 200]
 *
 * Writes the Markdown table to stdout; docs/benchmarks/document-store.md records a run.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chunkPages } from '@lectern/chunking';
import { buildChunkRecords, documentId, readDocumentFile } from '@lectern/documents';
import { connectMcp, corpusFile, listenOnFreePort, silentLogger } from '@lectern/testing';
import { buildApp } from '../../apps/document-store-mcp/src/app.js';
import { composeDocumentStore } from '../../apps/document-store-mcp/src/compose.js';
import { loadConfig } from '../../apps/document-store-mcp/src/config.js';

const args = process.argv.slice(2);
const queriesPerLevel = Number(args[args.indexOf('--queries') + 1] || 200);
const peakRssMb = () => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : process.memoryUsage().rss / 1048576;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

const dataDir = mkdtempSync(join(tmpdir(), 'lectern-bench-docstore-'));
// The model as a user picks it: EMBEDDING_MODEL / EMBEDDING_MODEL_DIR from this process's environment
// (e.g. EMBEDDING_MODEL=potion-base-2M EMBEDDING_MODEL_DIR=../shared/models/potion-base-2M), else auto.
const config = loadConfig({
  DATA_DIR: dataDir,
  DOCUMENT_ROOTS: dataDir,
  EMBEDDING_MODEL: process.env['EMBEDDING_MODEL'],
  EMBEDDING_MODEL_DIR: process.env['EMBEDDING_MODEL_DIR'],
});
const log = silentLogger();
const {
  documentStore: { deps },
  platform,
} = composeDocumentStore(config, log);
const docs = [
  { name: 'NPPF 2024', file: corpusFile('uk-planning-policy', 'nppf-2024', 'NPPF_December_2024.pdf') },
  { name: 'gnuplot manual', file: corpusFile('long-manuals', 'gnuplot.pdf') },
];

const rows: string[] = [];
const embedder = await deps.embedders.configured();
await embedder.embed('warm up'); // model load is not an ingestion cost
const collection = await deps.store.ensureCollection('application_docs', {
  fingerprint: embedder.fingerprint,
  hybrid: true,
});
for (const doc of docs) {
  const t0 = performance.now();
  // The ingest's conversion stage: read and hash once, then the conversion job (in-process here).
  const { bytes, sha256 } = await readDocumentFile(doc.file, [dirname(doc.file)], 1e9);
  const converted = await deps.conversion.convert({
    kind: 'read',
    path: doc.file,
    filename: basename(doc.file),
    bytes,
    sha256,
  });
  const t1 = performance.now();
  const chunks = chunkPages(converted.pages.map((p) => ({ page_number: p.page_number, text: p.text })));
  const t2 = performance.now();
  const vectors = await embedder.embedBatch(chunks.map((c) => c.text));
  const t3 = performance.now();
  const docId = documentId('BENCH/1', converted.fingerprint);
  const records = buildChunkRecords(
    {
      document_id: docId,
      application_ref: 'BENCH/1',
      source_file: basename(doc.file),
      document_type: 'other',
      extraction_method: converted.method,
    },
    chunks,
  );
  await deps.store.upsert(
    'application_docs',
    records.map((r, i) => ({
      id: r.id,
      vector: vectors[i]!,
      text: r.text,
      payload: { ...r.metadata, start_offset: r.start_offset, end_offset: r.end_offset },
    })),
    { fingerprint: collection.fingerprint },
  );
  const t4 = performance.now();
  const s = (ms: number) => (ms / 1000).toFixed(2);
  rows.push(
    `| ${doc.name} | ${converted.page_count} | ${chunks.length} | ${s(t1 - t0)} | ${s(t2 - t1)} | ${s(t3 - t2)} | ${s(t4 - t3)} | ${s(t4 - t0)} | ${peakRssMb().toFixed(0)} |`,
  );
}

console.log(
  `Machine: ${cpus().length} cores, Node ${process.version}; embedding model ${embedder.modelId} (${embedder.dimension}-d)\n`,
);
console.log('| document | pages | chunks | convert s | chunk s | embed s | store s | total s | peak RSS MB |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);

const app = buildApp({ config, logger: log, documentStore: deps });
const baseUrl = await listenOnFreePort(app);
const queries = [
  'Green Belt boundaries',
  'plot style linespoints',
  'affordable housing on major sites',
  'set logscale',
  'sustainable transport',
  'presumption in favour of sustainable development',
];
console.log('\n| concurrent clients | queries | p50 ms | p99 ms | queries/s |');
console.log('|---|---|---|---|---|');
for (const concurrency of [1, 10, 50]) {
  const clients = await Promise.all(Array.from({ length: concurrency }, () => connectMcp(baseUrl, 'streamable-http')));
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      while (next < queriesPerLevel) {
        const q = queries[next++ % queries.length]!;
        const t = performance.now();
        await client.callTool({ name: 'search_application_docs', arguments: { query: q, max_results: 10 } });
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `| ${concurrency} | ${latencies.length} | ${pct(latencies, 50).toFixed(1)} | ${pct(latencies, 99).toFixed(1)} | ${(latencies.length / seconds).toFixed(1)} |`,
  );
  await Promise.all(clients.map((c) => c.close()));
}
console.log(`\nPeak RSS of the whole service process: ${peakRssMb().toFixed(0)} MB`);
await app.close();
await platform.close();
rmSync(dataDir, { recursive: true, force: true });
