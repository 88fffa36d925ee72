// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Spec 001 NFR-002 (the policy-kb-mcp container within 2 GB): peak RSS of a policy-kb-mcp **process** (started as
 * `npm start` runs it: node + tsx, `apps/policy-kb-mcp/src/main.ts`, a temporary DATA_DIR) while it ingests every
 * seed PDF present (spec 001's appendix; uploaded through its own admin API, ingested by its `policy-ingest`
 * worker) and then answers searches from concurrent MCP clients (Streamable HTTP, real SDK clients).
 * Peak RSS is the server's VmHWM from /proc/<pid>/status over its whole life.
 *
 *   [EMBEDDING_MODEL=all-MiniLM-L6-v2 EMBEDDING_MODEL_DIR=../shared/models/all-MiniLM-L6-v2] \
 *   npx tsx bench/policy-kb/policy-kb-rss.bench.ts [--seed-dir ../shared/corpora] [--clients 10] [--searches 500]
 *
 * Writes the Markdown table to stdout; docs/benchmarks/policy-kb.md records a run.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SEED_POLICIES } from '@lectern/policy-kb';
import { connectMcp, corporaDir, spawnService } from '@lectern/testing';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string): string =>
  args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback;
const seedDir = resolve(arg('--seed-dir', corporaDir()));
const clients = Number(arg('--clients', '10'));
const searches = Number(arg('--searches', '500'));
const TOKEN = 'bench-token';

const pdfs = (dir: string, depth = 0): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() && depth < 4
      ? pdfs(join(dir, e.name), depth + 1)
      : e.isFile() && /\.pdf$/i.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
const files = pdfs(seedDir);
const present = SEED_POLICIES.flatMap((p) =>
  p.revisions.flatMap((r) => {
    const file = files.find((f) => r.file.test(f.slice(seedDir.length)));
    return file ? [{ policy: p, revision: r, file }] : [];
  }),
);
if (present.length === 0) throw new Error(`no seed PDF under ${seedDir}`);

const dataDir = mkdtempSync(join(tmpdir(), 'lectern-bench-policy-kb-'));
const env: Record<string, string> = { DATA_DIR: dataDir, MCP_API_KEY: TOKEN };
for (const k of ['EMBEDDING_MODEL', 'EMBEDDING_MODEL_DIR']) if (process.env[k]) env[k] = process.env[k] as string;
const load0 = loadavg();
const server = await spawnService('apps/policy-kb-mcp/src/main.ts', 'POLICY_KB_PORT', env);
const mb = (b: number) => (b / 1048576).toFixed(0);
const idleRss = server.peakRssBytes();
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${server.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${TOKEN}`, ...(init.headers ?? {}) },
  });

try {
  const t0 = performance.now();
  const rows: string[] = [];
  for (const { policy, revision, file } of present.sort((a, b) =>
    a.revision.effective_from.localeCompare(b.revision.effective_from),
  )) {
    if ((await api(`/api/policies/${policy.source}`)).status === 404) {
      const { revisions: _r, ...body } = policy;
      await api('/api/policies', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
    }
    const form = new FormData();
    form.append('revision_id', revision.revision_id);
    form.append('version_label', revision.version_label);
    form.append('effective_from', revision.effective_from);
    form.append('file', new Blob([readFileSync(file)]), basename(file));
    const started = performance.now();
    const accepted = await api(`/api/policies/${policy.source}/revisions`, { method: 'POST', body: form });
    if (accepted.status !== 202) throw new Error(`upload of ${file}: ${accepted.status} ${await accepted.text()}`);
    let rev: Record<string, unknown> = {};
    do {
      await new Promise((r) => setTimeout(r, 250));
      rev = (await (await api(`/api/policies/${policy.source}/revisions/${revision.revision_id}`)).json()) as Record<
        string,
        unknown
      >;
    } while (rev['status'] === 'processing');
    if (rev['status'] !== 'active')
      throw new Error(`${revision.revision_id}: ${String(rev['status'])} ${String(rev['error'])}`);
    rows.push(
      `| ${policy.source} ${revision.revision_id} | ${basename(file)} | ${String(rev['page_count'])} | ${String(rev['chunk_count'])} | ` +
        `${((performance.now() - started) / 1000).toFixed(1)} | ${mb(server.peakRssBytes())} |`,
    );
  }
  const ingestSeconds = (performance.now() - t0) / 1000;
  const afterIngest = server.peakRssBytes();

  const queries = [
    'presumption in favour of sustainable development',
    'green belt exceptional circumstances',
    'cycle parking standards',
    'housing land supply',
    'flood risk sequential test',
  ];
  const connected = await Promise.all(
    Array.from({ length: clients }, () => connectMcp(server.baseUrl, 'streamable-http', { token: TOKEN })),
  );
  let next = 0;
  let errors = 0;
  const latencies: number[] = [];
  const s0 = performance.now();
  await Promise.all(
    connected.map(async (client) => {
      while (next < searches) {
        const i = next++;
        const t = performance.now();
        const r = await client.callTool({
          name: 'search_policy',
          arguments: { query: queries[i % queries.length], effective_date: '2025-06-01', n_results: 10 },
        });
        latencies.push(performance.now() - t);
        if (r.isError) errors += 1;
      }
    }),
  );
  const searchSeconds = (performance.now() - s0) / 1000;
  await Promise.all(connected.map((c) => c.close()));
  latencies.sort((a, b) => a - b);
  const p = (q: number) =>
    (latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN).toFixed(0);
  const peak = server.peakRssBytes();

  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; load average before ${load0.map((x) => x.toFixed(2)).join('/')}, after ${loadavg()
      .map((x) => x.toFixed(2))
      .join('/')}`,
  );
  console.log(
    `Embedding: ${env['EMBEDDING_MODEL'] ?? 'auto'}; seed directory ${seedDir}; ${present.length} seed PDFs present.\n`,
  );
  console.log('| revision | file | pages | chunks | upload → active s | server peak RSS so far MB |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const r of rows) console.log(r);
  console.log(`\nIngest total ${ingestSeconds.toFixed(1)} s.\n`);
  console.log(
    '| server RSS after start MB | peak after ingest MB | searches | clients | errors | p50 ms | p95 ms | p99 ms | req/s | server peak RSS (VmHWM) MB | NFR-002 limit MB |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  console.log(
    `| ${mb(idleRss)} | ${mb(afterIngest)} | ${latencies.length} | ${clients} | ${errors} | ${p(0.5)} | ${p(0.95)} | ${p(0.99)} | ${(latencies.length / searchSeconds).toFixed(1)} | ${mb(peak)} | 2048 |`,
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
