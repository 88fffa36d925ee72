/**
 * What one MCP tool call costs the server: a document-store-mcp *process* (as `npm start` runs it, potion-base-2M)
 * holding a spec 004 project of ~10k SciFact chunks (5,183 abstracts, two chunks each), called back to back by one
 * real MCP client over Streamable HTTP. The server's CPU comes from /proc/<pid>/stat (user + system) across the
 * calls, so the client's own work is not counted; `--profile DIR` also writes a V8 CPU profile of the server
 * (`--cpu-prof`) and prints its self time grouped by where it is spent.
 *
 *   npx tsx bench/document-store/call-cost.bench.ts [--calls 600] [--tool find_chunks] [--profile /tmp/prof]
 *
 * Queries: SciFact claims outside the train judgments (any tuning used the train split's).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createProject } from '@lectern/document-store';
import { connectMcp, sharedModelDir, silentLogger, spawnService, toolText } from '@lectern/testing';
import { composeDocumentStore } from '../../apps/document-store-mcp/src/compose.js';
import { loadConfig } from '../../apps/document-store-mcp/src/config.js';
import { loadCorpus, loadQrels, loadQueries } from '../embedding/corpus.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '600' },
    tool: { type: 'string', default: 'find_chunks' },
    profile: { type: 'string' },
    docs: { type: 'string', default: '5183' },
  },
});
const CALLS = Number(values.calls);
const say = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);

/** utime + stime of a process, in ms (clock ticks of 10 ms). */
const cpuMs = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const dataDir = mkdtempSync(join(tmpdir(), 'lectern-call-cost-'));
const env = {
  DATA_DIR: dataDir,
  EMBEDDING_MODEL: 'potion-base-2M',
  EMBEDDING_MODEL_DIR: sharedModelDir('potion-base-2M'),
  DOCUMENT_ROOTS: dataDir,
  // info: spawnService waits for fastify's "Server listening at" line
  LOG_LEVEL: 'info',
};
// The project is created on the same DATA_DIR before the service starts (spec 004 has no create tool).
{
  const { documentStore, platform } = composeDocumentStore(loadConfig(env), silentLogger());
  await createProject(documentStore.deps, { project: 'scifact', chunking: { kind: 'client' } });
  await platform.close();
}
const service = await spawnService('apps/document-store-mcp/src/main.ts', 'DOCUMENT_STORE_PORT', {
  ...env,
  ...(values.profile
    ? {
        NODE_OPTIONS: `--import ${join(import.meta.dirname, 'cpu-profile.preload.mjs')}`,
        LECTERN_CPU_PROFILE: join(values.profile, 'server.cpuprofile'),
      }
    : {}),
});
const pid = service.child.pid as number;
const client = await connectMcp(service.baseUrl, 'streamable-http');
const call = async (name: string, args: Record<string, unknown>) => {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  if (r.isError) throw new Error(JSON.stringify(toolText(r)));
  return r;
};
try {
  const docs = loadCorpus().slice(0, Number(values.docs));
  let stored = 0;
  for (let i = 0; i < docs.length; i += 250) {
    const chunks = docs.slice(i, i + 250).flatMap((d) => {
      const sentences = d.text.split(/(?<=\.)\s+/);
      const half = Math.max(1, Math.ceil(sentences.length / 2));
      return [sentences.slice(0, half).join(' '), sentences.slice(half).join(' ')]
        .filter((p) => p.trim() !== '')
        .map((text, k) => ({ doc_id: d.id, chunk_index: k, text: `${d.title}. ${text}`, tags: ['scifact'] }));
    });
    stored += chunks.length;
    await call('store_chunks', { project: 'scifact', chunks });
  }
  say(`stored ${stored} chunks`);
  const train = loadQrels('train');
  const queries = loadQueries()
    .filter((q) => !train.has(q.id))
    .map((q) => q.text);
  for (let i = 0; i < 50; i++) await call(values.tool, { project: 'scifact', query: queries[i % queries.length] }); // warm-up
  const load0 = loadavg()[0] ?? NaN;
  if (values.profile) {
    mkdirSync(values.profile, { recursive: true });
    service.child.kill('SIGUSR2'); // starts the profiler (the preload)
    await new Promise((r) => setTimeout(r, 300));
  }
  const c0 = cpuMs(pid);
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await call(values.tool, { project: 'scifact', query: queries[i % queries.length] });
  const wall = performance.now() - t0;
  const cpu = cpuMs(pid) - c0;
  const load1 = loadavg()[0] ?? NaN;
  if (values.profile) {
    service.child.kill('SIGUSR2');
    await new Promise((r) => setTimeout(r, 2000));
  }
  process.stdout.write(
    `${JSON.stringify({
      tool: values.tool,
      chunks: stored,
      calls: CALLS,
      server_cpu_ms_per_call: Number((cpu / CALLS).toFixed(2)),
      wall_ms_per_call: Number((wall / CALLS).toFixed(2)),
      load_before: load0,
      load_after: load1,
      machine: `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`,
      date: new Date().toISOString(),
    })}\n`,
  );
} finally {
  await client.close();
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

if (values.profile) {
  // Self time by function: the server's main thread over the measured calls.
  const main = join(values.profile, 'server.cpuprofile');
  interface Node {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }
  const prof = JSON.parse(readFileSync(main, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
  const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  prof.samples.forEach((id, i) => {
    const f = nodes.get(id)?.callFrame;
    const key = f
      ? `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/.*?\/(libs|apps)\//, '$1/')}:${f.lineNumber + 1}`
      : '?';
    self.set(key, (self.get(key) ?? 0) + (prof.timeDeltas[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(`profile ${main}: ${total.toFixed(0)} ms sampled\n`);
  for (const [k, ms] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40))
    process.stdout.write(`${ms.toFixed(0).padStart(7)} ms  ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${k}\n`);
}
