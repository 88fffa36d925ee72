// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Issue 17: peak memory per process in distributed mode. A real redis-server and every app as its own process (two
 * converter workers, document-store-mcp, policy-kb-mcp, extraction-api — `node --import tsx apps/<app>/src/main.ts`,
 * as `npm start`, compose and Kubernetes run them), 20 corpus PDFs ingested through document-store-mcp's MCP
 * endpoint by one MCP SDK client (4 at a time). Reports each process's peak RSS (VmHWM from /proc/<pid>/status,
 * over its whole life) and the ingest wall time.
 *
 *   EMBEDDING_MODEL=potion-base-2M EMBEDDING_MODEL_DIR=../shared/models/potion-base-2M \
 *     npx tsx bench/distributed/distributed-rss.bench.ts [--documents 20]
 *
 * Writes a Markdown report to stdout; docs/benchmarks/distributed.md records a run.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connectMcp, corporaDir, spawnService, startRedis, toolText, type SpawnedService } from '@lectern/testing';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const DOCUMENTS = arg('documents', 20);
const mb = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MB`;
const CONCURRENCY = 4;

/** PDFs of the planning corpus under 15 MB (real, mixed documents), N of them spread evenly over their sizes. */
const pdfs = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((d) =>
      d.isDirectory() ? pdfs(join(dir, d.name)) : d.name.toLowerCase().endsWith('.pdf') ? [join(dir, d.name)] : [],
    );
const candidates = pdfs(join(corporaDir(), 'uk-planning-policy'))
  .filter((f) => statSync(f).size < 15 * 1024 * 1024)
  .sort((a, b) => statSync(a).size - statSync(b).size);
const files = Array.from(
  { length: Math.min(DOCUMENTS, candidates.length) },
  (_, i) => candidates[Math.floor((i * (candidates.length - 1)) / Math.max(1, DOCUMENTS - 1))]!,
);
if (files.length < DOCUMENTS)
  throw new Error(`only ${files.length} PDFs found under ${corporaDir()}/uk-planning-policy`);

const redis = await startRedis();
const dataDir = mkdtempSync(join(tmpdir(), 'lectern-bench-distributed-'));
const token = 'bench-key';
const env: Record<string, string> = {
  REDIS_URL: redis.url,
  DATA_DIR: dataDir,
  DOCUMENT_ROOTS: corporaDir(),
  MCP_API_KEY: token,
};
for (const name of ['EMBEDDING_MODEL', 'EMBEDDING_MODEL_DIR', 'EMBEDDING_THREADS'])
  if (process.env[name]) env[name] = process.env[name]!;

const before = loadavg();
const services: Array<[string, SpawnedService]> = [
  ['converter #1', await spawnService('apps/converter/src/main.ts', 'CONVERTER_PORT', env)],
  ['converter #2', await spawnService('apps/converter/src/main.ts', 'CONVERTER_PORT', env)],
  [
    'document-store-mcp',
    await spawnService('apps/document-store-mcp/src/main.ts', 'DOCUMENT_STORE_PORT', {
      ...env,
      INGEST_TIMEOUT_S: '1800',
    }),
  ],
  ['policy-kb-mcp', await spawnService('apps/policy-kb-mcp/src/main.ts', 'POLICY_KB_PORT', env)],
  ['extraction-api', await spawnService('apps/extraction-api/src/main.ts', 'EXTRACTION_API_PORT', env)],
];
const client = await connectMcp(services[2]![1].baseUrl, 'streamable-http', { token });
const started = performance.now();
const outcomes: string[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const result = await client.callTool(
        { name: 'ingest_document', arguments: { file_path: file, application_ref: `BENCH/${next}` } },
        undefined,
        { timeout: 1_800_000 },
      );
      const body = toolText(result) as { status: string; error_type?: string };
      outcomes.push(body.status === 'error' ? `error:${body.error_type}` : body.status);
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
// the test helper does not expose redis-server's pid: found by its listen address
const redisPid = execSync(`pgrep -f "redis-server 127.0.0.1:${redis.port}"`).toString().trim().split('\n')[0];
const redisHwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${redisPid}/status`, 'utf8'));
await client.close();

const counts = outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o]: (acc[o] ?? 0) + 1 }), {});
const lines = [
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; EMBEDDING_MODEL=${env['EMBEDDING_MODEL'] ?? 'auto'}. ` +
    `Load average before ${before.map((l) => l.toFixed(2)).join('/')}, after ${loadavg()
      .map((l) => l.toFixed(2))
      .join('/')}.`,
  '',
  `${files.length} PDFs (${mb(files.reduce((n, f) => n + statSync(f).size, 0))}) ingested through MCP, ${CONCURRENCY} at a time, in ${seconds.toFixed(1)} s: ${JSON.stringify(counts)}.`,
  '',
  '| process | peak RSS (VmHWM) |',
  '|---|---:|',
  ...services.map(([name, s]) => `| ${name} | ${mb(s.peakRssBytes())} |`),
  `| redis-server | ${redisHwm ? mb(Number(redisHwm[1]) * 1024) : 'n/a'} |`,
];
process.stdout.write(`${lines.join('\n')}\n`);
for (const [, s] of services) await s.stop();
await redis.stop();
rmSync(dataDir, { recursive: true, force: true });
