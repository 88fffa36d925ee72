// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * What the load bench's writer costs the server: one `store_chunks` call of 250 SciFact abstracts (500 chunks:
 * embedding + upserts), as search-threads.bench.ts' writer makes it, on document-store-mcp *processes* (as `npm start`
 * runs it, potion-base-2M) started from each source tree, each holding the same ~10k-chunk project. The calls
 * alternate between the servers (one call each in turn, no searches); the server's CPU (user + sys of the whole
 * process, /proc) is read around each call, after a pause that lets the previous call's work settle.
 *
 *   npx tsx bench/load/write-cost.bench.ts --trees /tmp/base,. [--writes 20]
 *
 * With the writer back to back, the load bench's "server CPU ms per search" holds this cost once per write:
 * (write CPU) / (searches per write) of it is the writer's.
 */
import { cpus, loadavg } from 'node:os';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  callTool,
  cpuMs,
  scifactBatches,
  startDocumentStore,
  type ServiceProcess,
} from '../document-store/service-process.js';

const { values } = parseArgs({
  options: {
    trees: { type: 'string', default: '.' },
    writes: { type: 'string', default: '20' },
    docs: { type: 'string', default: '5183' },
  },
});
const say = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const trees = values.trees.split(',').map((t) => resolve(t));
const servers: ServiceProcess[] = [];
try {
  for (const [i, tree] of trees.entries())
    servers.push(
      await startDocumentStore({
        label: `${trees.length === 2 ? (i === 0 ? 'before' : 'after') : i} (${basename(tree)})`,
        tree,
        logLevel: 'warn',
        env: { SEARCH_THREADS: '2' },
        startTimeoutMs: 60_000,
      }),
    );
  const batches = scifactBatches(Number(values.docs));
  for (const server of servers)
    for (const chunks of batches) await callTool(server.client, 'store_chunks', { project: 'scifact', chunks });
  say(`stored ${batches.reduce((n, b) => n + b.length, 0)} chunks in each server`);
  const load0 = loadavg();
  const cpu = servers.map(() => [] as number[]);
  const wall = servers.map(() => [] as number[]);
  for (let n = 0; n < Number(values.writes); n++)
    for (const [i, server] of servers.entries()) {
      await pause(300);
      const c0 = cpuMs(server.pid);
      const t0 = performance.now();
      await callTool(server.client, 'store_chunks', { project: 'scifact', chunks: batches[n % batches.length] });
      wall[i]?.push(performance.now() - t0);
      await pause(300); // the call's answer is sent before its last work (audit, logs) is done
      cpu[i]?.push(cpuMs(server.pid) - c0);
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  process.stdout.write(
    [
      `## store_chunks of 250 SciFact abstracts (500 chunks), server CPU per call (${new Date().toISOString()})`,
      '',
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; potion-base-2M; ${values.writes} calls per server, alternating. Load average before ${load0.map((x) => x.toFixed(2)).join('/')}, after ${loadavg()
        .map((x) => x.toFixed(2))
        .join('/')}.`,
      '',
      '| server | server CPU ms per call (mean) | median | wall ms per call (median) |',
      '|---|---:|---:|---:|',
      ...servers.map(
        (s, i) =>
          `| ${s.label} | ${mean(cpu[i] ?? []).toFixed(0)} | ${median(cpu[i] ?? []).toFixed(0)} | ${median(wall[i] ?? []).toFixed(0)} |`,
      ),
      '',
    ].join('\n'),
  );
} finally {
  for (const server of servers) await server.stop();
}
