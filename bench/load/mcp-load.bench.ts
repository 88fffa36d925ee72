// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Issue 12 load benchmark: N concurrent MCP clients (real SDK clients over Streamable HTTP) search for D seconds
 * against a document-store-mcp *process* (spawned as `npm start` runs it, temporary DATA_DIR, a few corpus
 * documents ingested first), while one more client keeps ingesting. Loopback only, bounded by time.
 * Reports errors, throughput, latency percentiles and the server's peak RSS (VmHWM from /proc/<pid>/status).
 *
 *   EMBEDDING_MODEL=potion-base-2M EMBEDDING_MODEL_DIR=../shared/models/potion-base-2M \
 *     npx tsx bench/load/mcp-load.bench.ts [--clients 50] [--seconds 60]
 *
 * Writes a Markdown report to stdout; docs/benchmarks/load.md records a run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connectMcp, corporaDir, corpusFile, spawnService } from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const CLIENTS = arg('clients', 50);
const SECONDS = arg('seconds', 60);
const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const COVENTRY = [
  'uk-planning-policy',
  'dataset',
  'Coventry',
  '4. Adopted City Centre Area Action Plan (2011 to 2031)',
];
const SEED = [
  corpusFile('uk-planning-policy', 'nppf-2024', 'NPPF_December_2024.pdf'),
  corpusFile(...COVENTRY, 'Coventry_AAP_Final_Report.pdf'),
  corpusFile(...COVENTRY, 'SASEA_Adoption_Statement_Dec_2017.pdf'),
];
const DURING = [
  corpusFile(...COVENTRY, 'Coventry_City_Council_AAP_Adoption_Statement.pdf'),
  corpusFile(...COVENTRY, 'Coventry_City_Council_Local_Plan_Adoption_Statement.pdf'),
  corpusFile(...COVENTRY, 'MOD13_SASEA___CCAAP_Proposed_Modifications_2017.pdf'),
];
const QUERIES = [
  'presumption in favour of sustainable development',
  'flood risk sequential test',
  'green belt boundaries exceptional circumstances',
  'affordable housing contributions',
  'city centre retail frontages',
  'sustainability appraisal monitoring indicators',
  'heritage assets conservation areas',
  'transport and parking standards',
  'design codes and beauty',
  'housing land supply five years',
];

const env: Record<string, string> = { LOG_LEVEL: 'warn' };
for (const name of ['EMBEDDING_MODEL', 'EMBEDDING_MODEL_DIR', 'EMBEDDING_THREADS', 'SEARCH_THREADS']) {
  const value = process.env[name];
  if (value) env[name] = value;
}

const dataDir = mkdtempSync(join(tmpdir(), 'lectern-bench-load-'));
// the listening line is logged at info: the service starts at info, as `npm start` would
const service = await spawnService('apps/document-store-mcp/src/main.ts', 'DOCUMENT_STORE_PORT', {
  ...env,
  LOG_LEVEL: 'info',
  DATA_DIR: dataDir,
  DOCUMENT_ROOTS: corporaDir(),
  INGEST_TIMEOUT_S: '600',
});
try {
  const seeder = await connectMcp(service.baseUrl, 'streamable-http', { name: 'seeder' });
  const seedStart = performance.now();
  for (const [i, file] of SEED.entries()) {
    const r = await seeder.callTool(
      { name: 'ingest_document', arguments: { file_path: file, application_ref: `SEED/${i}` } },
      undefined,
      { timeout: 600_000 },
    );
    if (r.isError) throw new Error(`seed ingest failed: ${JSON.stringify(r.content)}`);
  }
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const load0 = loadavg();

  const clients: Client[] = await Promise.all(
    Array.from({ length: CLIENTS }, (_, i) =>
      connectMcp(service.baseUrl, 'streamable-http', { name: `searcher-${i}` }),
    ),
  );
  const latencies: number[] = [];
  const errors: string[] = [];
  const ingests = { done: 0, failed: 0, ms: [] as number[] };
  const end = performance.now() + SECONDS * 1000;

  const searcher = async (client: Client, i: number): Promise<void> => {
    for (let n = 0; performance.now() < end; n++) {
      const t0 = performance.now();
      try {
        const r = await client.callTool(
          { name: 'search_application_docs', arguments: { query: QUERIES[(i + n) % QUERIES.length], max_results: 10 } },
          undefined,
          { timeout: 30_000 },
        );
        if (r.isError) errors.push(JSON.stringify(r.content).slice(0, 200));
      } catch (e) {
        errors.push(String(e).slice(0, 200));
      }
      latencies.push(performance.now() - t0);
    }
  };
  const ingester = async (): Promise<void> => {
    for (let n = 0; performance.now() < end; n++) {
      const t0 = performance.now();
      const r = await seeder
        .callTool(
          {
            name: 'ingest_document',
            arguments: { file_path: DURING[n % DURING.length], application_ref: `LOAD/${n}` },
          },
          undefined,
          { timeout: 600_000 },
        )
        .catch((e: unknown) => ({ isError: true, content: String(e) }));
      if (r.isError) ingests.failed += 1;
      else ingests.done += 1;
      ingests.ms.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  await Promise.all([...clients.map((c, i) => searcher(c, i)), ingester()]);
  const elapsed = (performance.now() - started) / 1000;
  const load1 = loadavg();
  await Promise.all([...clients.map((c) => c.close()), seeder.close()]);

  const sorted = [...latencies].sort((a, b) => a - b);
  const peakMb = service.peakRssBytes() / 1048576;
  const f = (x: number) => x.toFixed(0);
  const model = env['EMBEDDING_MODEL'] ?? 'auto';
  process.stdout.write(
    [
      `## ${CLIENTS} MCP clients searching for ${SECONDS} s, one ingesting (${new Date().toISOString().slice(0, 10)})`,
      '',
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; EMBEDDING_MODEL=${model}. ` +
        `Load average (1/5/15 min) before ${load0.map((x) => x.toFixed(2)).join('/')}, after ${load1.map((x) => x.toFixed(2)).join('/')}.`,
      `Seeded with ${SEED.length} documents in ${seedSeconds.toFixed(1)} s.`,
      '',
      '| searches | errors | throughput | p50 | p95 | p99 | max | ingests during the run | server peak RSS (VmHWM) |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| ${sorted.length} | ${errors.length} | ${(sorted.length / elapsed).toFixed(1)} req/s | ${f(pct(sorted, 50))} ms | ${f(pct(sorted, 95))} ms | ` +
        `${f(pct(sorted, 99))} ms | ${f(sorted.at(-1) ?? NaN)} ms | ${ingests.done} ok, ${ingests.failed} failed (median ${f(
          pct(
            [...ingests.ms].sort((a, b) => a - b),
            50,
          ),
        )} ms) | ${peakMb.toFixed(0)} MB |`,
      '',
      errors.length ? `First errors: ${errors.slice(0, 3).join(' | ')}` : '',
    ].join('\n') + '\n',
  );
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
