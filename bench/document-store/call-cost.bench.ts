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
 *   npx tsx bench/document-store/call-cost.bench.ts [--calls 600] [--warmup 50] [--tool find_chunks] [--trees /tmp/base,.]
 *     [--log-level info] [--profile /tmp/prof] [--perf /tmp/perf] [--repeat-queries] [--write-every N]
 *
 * With `--write-every N` each server also stores 250 of its chunks again (`store_chunks`, the same texts: a new
 * collection version, the contents unchanged) before every N-th measured call, as the load bench's writer does; the
 * write itself is left out of the figures, what it costs the searches after it (caches emptied, catch-up) is in.
 *
 * Queries: SciFact claims outside the train judgments (any tuning used the train split's). Every measured call asks
 * a text the server has not seen (after the ~300 claims, each again with one word appended that names the round and
 * that no chunk holds), so a cache of query vectors never answers one; `--repeat-queries` asks the claims again as
 * they are (what such a cache saves).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  callTool,
  cpuMs,
  heldOutQueries,
  scifactBatches,
  startDocumentStore,
  type ServiceProcess,
} from './service-process.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '600' },
    /** Unmeasured calls per server before the measured ones (V8 still compiles the request path after 50). */
    warmup: { type: 'string', default: '50' },
    tool: { type: 'string', default: 'find_chunks' },
    profile: { type: 'string' },
    docs: { type: 'string', default: '5183' },
    /** Source trees to start the service from, compared side by side (e.g. a checkout of the previous commit). */
    trees: { type: 'string' },
    'log-level': { type: 'string', default: 'info' },
    /** Also record the server with Linux `perf` (on-CPU samples only: syscalls count their CPU, not their waits). */
    perf: { type: 'string' },
    /** Ask the held-out claims again as they are once all were asked (default: each round's texts are new). */
    'repeat-queries': { type: 'boolean', default: false },
    /** Store 250 chunks again (unmeasured) before every N-th measured call (0: no writes). */
    'write-every': { type: 'string', default: '0' },
  },
});
const WRITE_EVERY = Number(values['write-every']);
const CALLS = Number(values.calls);
const WARMUP = Number(values.warmup);
const say = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);

const startServer = (label: string, tree: string): Promise<ServiceProcess> =>
  startDocumentStore({
    label,
    tree,
    logLevel: values['log-level'],
    env: {
      ...(values.perf ? { NODE_OPTIONS: '--perf-basic-prof' } : {}),
      ...(values.profile
        ? {
            NODE_OPTIONS: `--import ${join(import.meta.dirname, 'cpu-profile.preload.mjs')}`,
            LECTERN_CPU_PROFILE: join(values.profile, `${label}.cpuprofile`),
          }
        : {}),
    },
    startTimeoutMs: 60_000,
  });

const call = (server: ServiceProcess, name: string, args: Record<string, unknown>) =>
  callTool(server.client, name, args);

const trees = (values.trees ?? '.').split(',').map((t) => resolve(t));
const servers: ServiceProcess[] = [];
try {
  for (const [i, tree] of trees.entries())
    servers.push(
      await startServer(
        trees.length > 2 ? `${i}:${basename(tree)}` : trees.length > 1 ? (i === 0 ? 'before' : 'after') : 'server',
        tree,
      ),
    );
  const batches = scifactBatches(Number(values.docs));
  const stored = batches.reduce((n, b) => n + b.length, 0);
  for (const server of servers)
    for (const chunks of batches) await call(server, 'store_chunks', { project: 'scifact', chunks });
  say(`stored ${stored} chunks in each of ${servers.length} servers`);
  const claims = heldOutQueries();
  /** The i-th measured query: a new text each time unless --repeat-queries. */
  const query = (i: number): string => {
    const q = claims[i % claims.length] as string;
    const round = Math.floor(i / claims.length);
    return round === 0 || values['repeat-queries'] ? q : `${q} q${round}x`;
  };
  for (const server of servers)
    for (let i = 0; i < WARMUP; i++)
      await call(server, values.tool, { project: 'scifact', query: `warm-up ${claims[i % claims.length]}` });
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
  const rewrite = batches.flat();
  const writes = new Map<string, number>();
  const load0 = loadavg();
  const BLOCK = 50;
  for (let done = 0; done < CALLS; done += BLOCK) {
    for (const server of servers) {
      const t = totals.get(server.label) as { cpu: number; main: number; wall: number; calls: number };
      let c0 = cpuMs(server.pid);
      let m0 = cpuMs(server.pid, server.pid);
      let t0 = performance.now();
      const stop = (): void => {
        t.wall += performance.now() - t0;
        t.cpu += cpuMs(server.pid) - c0;
        t.main += cpuMs(server.pid, server.pid) - m0;
      };
      for (let i = done; i < done + BLOCK; i++) {
        if (WRITE_EVERY > 0 && i % WRITE_EVERY === 0) {
          stop();
          const from = ((i / WRITE_EVERY) * 250) % rewrite.length;
          await call(server, 'store_chunks', { project: 'scifact', chunks: rewrite.slice(from, from + 250) });
          writes.set(server.label, (writes.get(server.label) ?? 0) + 1);
          c0 = cpuMs(server.pid);
          m0 = cpuMs(server.pid, server.pid);
          t0 = performance.now();
        }
        await call(server, values.tool, { project: 'scifact', query: query(i) });
      }
      stop();
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
    `${values.tool}, ${stored} chunks, ${CALLS} calls per server in alternating blocks of ${BLOCK} after ${WARMUP} warm-up calls, LOG_LEVEL=${values['log-level']}, ` +
      `${values['repeat-queries'] ? 'claims asked again as they are' : 'every query text new to the server'}; ` +
      (WRITE_EVERY > 0
        ? `250 chunks stored again before every ${WRITE_EVERY}th call (${[...writes.values()].join('/')} writes; not measured); `
        : '') +
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
