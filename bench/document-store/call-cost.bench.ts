// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * What one MCP tool call costs the server: document-store-mcp *processes* (as `npm start` runs it, potion-base-2M)
 * holding a spec 004 project of ~10k SciFact chunks (5,183 abstracts, two chunks each), called back to back by one
 * real MCP client over Streamable HTTP. The server's CPU comes from /proc/<pid>/stat (user + system) across the
 * calls, so the client's own work is not counted; `--profile DIR` also writes a V8 CPU profile of the server
 * (`--cpu-prof`) and prints its self time grouped by where it is spent.
 *
 * With `--trees A,B` a server is started from each source tree (e.g. `git archive <commit>` of the code before a
 * change, node_modules linked) and the calls alternate between them in blocks: a side-by-side before/after.
 *
 *   npx tsx bench/document-store/call-cost.bench.ts [--calls 600] [--tool find_chunks] [--trees /tmp/base,.]
 *     [--log-level info] [--profile /tmp/prof]
 *
 * Queries: SciFact claims outside the train judgments (any tuning used the train split's).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createProject } from '@lectern/document-store';
import { connectMcp, sharedModelDir, silentLogger, toolText } from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { composeDocumentStore } from '../../apps/document-store-mcp/src/compose.js';
import { loadConfig } from '../../apps/document-store-mcp/src/config.js';
import { loadCorpus, loadQrels, loadQueries } from '../embedding/corpus.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '600' },
    tool: { type: 'string', default: 'find_chunks' },
    profile: { type: 'string' },
    docs: { type: 'string', default: '5183' },
    /** Source trees to start the service from, compared side by side (e.g. a checkout of the previous commit). */
    trees: { type: 'string' },
    'log-level': { type: 'string', default: 'info' },
    /** Also record the server with Linux `perf` (on-CPU samples only: syscalls count their CPU, not their waits). */
    perf: { type: 'string' },
  },
});
const CALLS = Number(values.calls);
const say = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);

/** utime + stime of a process (or, with `tid`, of one of its threads), in ms (clock ticks of 10 ms). */
const cpuMs = (pid: number, tid?: number): number => {
  const path = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
  const fields = readFileSync(path, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

interface Server {
  label: string;
  dataDir: string;
  pid: number;
  client: Client;
  stop(): Promise<void>;
}

/** The service started from `tree` (its own sources; node + tsx as `npm start`), ready when /health answers. */
const startServer = async (label: string, tree: string): Promise<Server> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-call-cost-'));
  const env = {
    DATA_DIR: dataDir,
    EMBEDDING_MODEL: 'potion-base-2M',
    EMBEDDING_MODEL_DIR: sharedModelDir('potion-base-2M'),
    DOCUMENT_ROOTS: dataDir,
    LOG_LEVEL: values['log-level'],
  };
  // The project is created on the DATA_DIR before the service starts (spec 004 has no create tool).
  const { documentStore, platform } = composeDocumentStore(loadConfig(env), silentLogger());
  await createProject(documentStore.deps, { project: 'scifact', chunking: { kind: 'client' } });
  await platform.close();
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/document-store-mcp/src/main.ts'], {
    cwd: tree,
    env: {
      ...process.env,
      ...env,
      DOCUMENT_STORE_PORT: String(port),
      HOST: '127.0.0.1',
      ...(values.perf ? { NODE_OPTIONS: '--perf-basic-prof' } : {}),
      ...(values.profile
        ? {
            NODE_OPTIONS: `--import ${join(import.meta.dirname, 'cpu-profile.preload.mjs')}`,
            LECTERN_CPU_PROFILE: join(values.profile, `${label}.cpuprofile`),
          }
        : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode})`);
    if (
      await fetch(`${baseUrl}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 600) throw new Error(`${label} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const client = await connectMcp(baseUrl, 'streamable-http');
  return {
    label,
    dataDir,
    pid: child.pid as number,
    client,
    stop: async () => {
      await client.close();
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

const call = async (server: Server, name: string, args: Record<string, unknown>) => {
  const r = await server.client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  if (r.isError) throw new Error(JSON.stringify(toolText(r)));
  return r;
};

const trees = (values.trees ?? '.').split(',').map((t) => resolve(t));
const servers: Server[] = [];
try {
  for (const [i, tree] of trees.entries())
    servers.push(await startServer(trees.length > 1 ? `${i === 0 ? 'before' : 'after'}` : 'server', tree));
  const docs = loadCorpus().slice(0, Number(values.docs));
  let stored = 0;
  for (const server of servers) {
    stored = 0;
    for (let i = 0; i < docs.length; i += 250) {
      const chunks = docs.slice(i, i + 250).flatMap((d) => {
        const sentences = d.text.split(/(?<=\.)\s+/);
        const half = Math.max(1, Math.ceil(sentences.length / 2));
        return [sentences.slice(0, half).join(' '), sentences.slice(half).join(' ')]
          .filter((p) => p.trim() !== '')
          .map((text, k) => ({ doc_id: d.id, chunk_index: k, text: `${d.title}. ${text}`, tags: ['scifact'] }));
      });
      stored += chunks.length;
      await call(server, 'store_chunks', { project: 'scifact', chunks });
    }
  }
  say(`stored ${stored} chunks in each of ${servers.length} servers`);
  const train = loadQrels('train');
  const queries = loadQueries()
    .filter((q) => !train.has(q.id))
    .map((q) => q.text);
  for (const server of servers)
    for (let i = 0; i < 50; i++)
      await call(server, values.tool, { project: 'scifact', query: queries[i % queries.length] }); // warm-up
  if (values.profile) {
    mkdirSync(values.profile, { recursive: true });
    for (const server of servers) process.kill(server.pid, 'SIGUSR2'); // starts the profiler (the preload)
    await new Promise((r) => setTimeout(r, 300));
  }
  const perfs = values.perf
    ? servers.map((server) => {
        mkdirSync(values.perf as string, { recursive: true });
        const out = join(values.perf as string, `${server.label}.perf.data`);
        const p = spawn(
          'perf',
          ['record', '-q', '-e', 'task-clock', '-F', '1999', '-g', '-p', String(server.pid), '-o', out],
          {
            stdio: 'inherit',
          },
        );
        return { p, exited: new Promise((r) => p.once('exit', r)) };
      })
    : [];
  if (perfs.length > 0) await new Promise((r) => setTimeout(r, 1000));
  // Alternating blocks, so that the machine's load hits every server alike.
  const totals = new Map(servers.map((s) => [s.label, { cpu: 0, main: 0, wall: 0, calls: 0 }]));
  const load0 = loadavg();
  const BLOCK = 50;
  for (let done = 0; done < CALLS; done += BLOCK) {
    for (const server of servers) {
      const c0 = cpuMs(server.pid);
      const m0 = cpuMs(server.pid, server.pid);
      const t0 = performance.now();
      for (let i = done; i < done + BLOCK; i++)
        await call(server, values.tool, { project: 'scifact', query: queries[i % queries.length] });
      const t = totals.get(server.label) as { cpu: number; main: number; wall: number; calls: number };
      t.wall += performance.now() - t0;
      t.cpu += cpuMs(server.pid) - c0;
      t.main += cpuMs(server.pid, server.pid) - m0;
      t.calls += BLOCK;
    }
  }
  const load1 = loadavg();
  for (const { p, exited } of perfs) {
    p.kill('SIGINT');
    await exited;
  }
  if (values.profile) {
    for (const server of servers) process.kill(server.pid, 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 2000));
  }
  process.stdout.write(
    `${values.tool}, ${stored} chunks, ${CALLS} calls per server in alternating blocks of ${BLOCK}, LOG_LEVEL=${values['log-level']}; ` +
      `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; load average before ${load0.map((x) => x.toFixed(1)).join('/')}, after ${load1.map((x) => x.toFixed(1)).join('/')} (${new Date().toISOString()})\n\n` +
      '| server | server CPU ms per call | of which main thread | wall ms per call (client) | CPU/wall |\n|---|---:|---:|---:|---:|\n' +
      [...totals]
        .map(
          ([label, t]) =>
            `| ${label} | ${(t.cpu / t.calls).toFixed(2)} | ${(t.main / t.calls).toFixed(2)} | ${(t.wall / t.calls).toFixed(2)} | ${(t.cpu / t.wall).toFixed(2)} |`,
        )
        .join('\n') +
      '\n',
  );
} finally {
  for (const server of servers) await server.stop();
}

for (const server of values.profile ? servers : []) {
  // Self time by function: each server's main thread over the measured calls.
  const main = join(values.profile as string, `${server.label}.cpuprofile`);
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
