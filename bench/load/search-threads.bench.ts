// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Issue 28 "Load": `SEARCH_THREADS` side by side. One document-store-mcp *process* per setting (as `npm start` runs
 * it, potion-base-2M), each holding a spec 004 project of ~10k SciFact chunks (5,183 abstracts, two chunks each, as
 * bench/document-store/call-cost.bench.ts stores them). For each client count, each server in turn gets N real MCP
 * SDK clients over Streamable HTTP calling `query_hybrid` back to back for D seconds while one more client keeps
 * writing (`store_chunks` of 250 chunks, re-storing the project's own abstracts: embedding + upserts, the size
 * unchanged). Phases alternate between the servers, so the machine's load hits every setting alike. Server CPU is
 * utime + stime of the whole process (every thread) from /proc/<pid>/stat over the phase.
 *
 *   npx tsx bench/load/search-threads.bench.ts [--threads 0,2] [--clients 20,50] [--seconds 30]
 *     [--trees /tmp/base,.] [--log-level warn] [--repeat-queries] [--node-args '|--max-semi-space-size=4']
 *     [--write-every N] [--warmup 40] [--no-writer]
 *
 * With `--trees A,B` a server per setting is started from each source tree (e.g. `git archive <commit>` of the code
 * before a change, node_modules linked): before/after side by side, the phases alternating between all servers.
 *
 * With `--node-args 'A|B'` a server per set of node flags (`|`-separated sets, each space-separated; an empty set is
 * node's defaults) is started for each tree and setting, e.g. `'|--max-semi-space-size=4'`: V8 flags side by side.
 *
 * Queries: SciFact claims outside the train judgments, each search's text new to the server (the claim and one word no chunk
 * holds, naming the phase, the client and its round), so a cache of query vectors answers none; `--repeat-queries` asks the claims as
 * they are (the ~300 claims again and again). docs/benchmarks/load.md records a run.
 */
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { connectMcp } from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  cpuMs,
  heldOutQueries,
  scifactBatches,
  startDocumentStore,
  type ServiceProcess,
} from '../document-store/service-process.js';

const { values } = parseArgs({
  options: {
    threads: { type: 'string', default: '0,2' },
    clients: { type: 'string', default: '20,50' },
    seconds: { type: 'string', default: '30' },
    /** Abstracts stored (default all 5,183: ~10k chunks); fewer for a quick check of the bench itself. */
    docs: { type: 'string', default: '5183' },
    /** Source trees to start the service from, compared side by side (e.g. a checkout of the previous commit). */
    trees: { type: 'string' },
    'log-level': { type: 'string', default: 'warn' },
    /** Ask the claims as they are (repeated) rather than a new text per search. */
    'repeat-queries': { type: 'boolean', default: false },
    /** `|`-separated sets of node flags, a server for each (an empty set: node's defaults). */
    'node-args': { type: 'string', default: '' },
    /**
     * The writer stores its next batch only once N more searches have been answered (0: back to back, the default).
     * Every server then does the same number of writes per search, so their CPU per search compares (with the writer
     * back to back, a server that writes more pays more per search).
     */
    'write-every': { type: 'string', default: '0' },
    /**
     * Searches per server before the phases (default 40). V8 is still optimising the service's code for its first few
     * thousand calls (docs/benchmarks/document-store.md, round 10): e.g. 3000 to measure a warmed-up server.
     */
    warmup: { type: 'string', default: '40' },
    /** No writer during the phases (a collection only read: the keyword index's fast path, round 11). */
    'no-writer': { type: 'boolean', default: false },
  },
});
const WRITE_EVERY = Number(values['write-every']);
const SECONDS = Number(values.seconds);
const say = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface Server extends ServiceProcess {
  /** `SEARCH_THREADS=n`, prefixed with the tree's label when several trees are compared. */
  threads: number;
}

const startServer = async (threads: number, tree: string, treeLabel: string, nodeArgs: string): Promise<Server> => ({
  threads,
  ...(await startDocumentStore({
    label: `${treeLabel}SEARCH_THREADS=${threads}${nodeArgs ? ` ${nodeArgs}` : ''}`,
    nodeArgs: nodeArgs.split(' ').filter(Boolean),
    tree,
    logLevel: values['log-level'],
    env: { SEARCH_THREADS: String(threads) },
    clientName: 'writer',
  })),
});

const call = (client: Client, name: string, args: Record<string, unknown>) => callTool(client, name, args, 120_000);

const batches = scifactBatches(Number(values.docs));
const stored = batches.reduce((n, b) => n + b.length, 0);
const queries = heldOutQueries();

interface Phase {
  label: string;
  threads: number;
  clients: number;
  searches: number;
  errors: number;
  seconds: number;
  cpuPerS: number;
  /** The server's main thread (event loop): CPU-s per second. */
  mainPerS: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  writes: number;
  load: number[];
  firstError?: string;
}

let phases = 0;
const phase = async (server: Server, clients: Client[]): Promise<Phase> => {
  const tag = ++phases; // the phase's queries are its own (a word no chunk holds: q<phase>x<client>x<round>)
  const latencies: number[] = [];
  const errors: string[] = [];
  let writes = 0;
  const c0 = cpuMs(server.pid);
  const m0 = cpuMs(server.pid, server.pid);
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  const searcher = async (client: Client, i: number): Promise<void> => {
    for (let n = 0; performance.now() < end; n++) {
      const s = performance.now();
      try {
        const claim = queries[(i * 7 + n) % queries.length] as string;
        const query = values['repeat-queries'] ? claim : `${claim} q${tag}x${i}x${n}`;
        await call(client, 'query_hybrid', { project: 'scifact', query });
      } catch (e) {
        errors.push(String(e).slice(0, 200));
      }
      latencies.push(performance.now() - s);
    }
  };
  const writer = async (): Promise<void> => {
    if (values['no-writer']) return;
    for (let n = 0; performance.now() < end; n++) {
      while (WRITE_EVERY > 0 && latencies.length < n * WRITE_EVERY && performance.now() < end)
        await new Promise((r) => setTimeout(r, 5));
      if (performance.now() >= end) break;
      try {
        await call(server.client, 'store_chunks', { project: 'scifact', chunks: batches[n % batches.length] });
        writes += 1;
      } catch (e) {
        errors.push(`write: ${String(e).slice(0, 200)}`);
      }
    }
  };
  await Promise.all([...clients.map((c, i) => searcher(c, i)), writer()]);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuMs(server.pid) - c0;
  const mainMs = cpuMs(server.pid, server.pid) - m0;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    label: server.label,
    threads: server.threads,
    clients: clients.length,
    searches: sorted.length,
    errors: errors.length,
    seconds,
    cpuPerS: cpu / 1000 / seconds,
    mainPerS: mainMs / 1000 / seconds,
    p50: pct(sorted, 50),
    p95: pct(sorted, 95),
    p99: pct(sorted, 99),
    max: sorted.at(-1) ?? NaN,
    writes,
    load: loadavg(),
    ...(errors[0] ? { firstError: errors[0] } : {}),
  };
};

const servers: Server[] = [];
try {
  const trees = (values.trees ?? '.').split(',').map((t) => resolve(t));
  for (const [i, tree] of trees.entries())
    for (const t of values.threads.split(',').map(Number))
      for (const args of values['node-args'].split('|').map((a) => a.trim()))
        servers.push(await startServer(t, tree, trees.length > 1 ? `${i === 0 ? 'before' : 'after'}, ` : '', args));
  for (const server of servers) {
    const s0 = performance.now();
    for (const b of batches) await call(server.client, 'store_chunks', { project: 'scifact', chunks: b });
    say(`${server.label}: stored ${stored} chunks in ${((performance.now() - s0) / 1000).toFixed(1)} s`);
    // warm-up: claims with a word of their own (new texts, as in the phases), one after another (concurrent calls on
    // one SDK client each leave an abort listener behind: a warning past 1,500)
    for (let i = 0; i < Number(values.warmup); i++)
      await call(server.client, 'query_hybrid', {
        project: 'scifact',
        query: `${queries[i % queries.length] as string} w${i}`,
      });
  }
  const load0 = loadavg();
  const results: Phase[] = [];
  for (const n of values.clients.split(',').map(Number)) {
    const connected = await Promise.all(
      servers.map((s) =>
        Promise.all(
          Array.from({ length: n }, (_, i) => connectMcp(s.baseUrl, 'streamable-http', { name: `searcher-${i}` })),
        ),
      ),
    );
    for (const [i, server] of servers.entries()) {
      say(`${server.label}, ${n} clients: ${SECONDS} s`);
      const r = await phase(server, connected[i] as Client[]);
      say(JSON.stringify(r));
      results.push(r);
    }
    await Promise.all(connected.flat().map((c) => c.close()));
  }
  const f = (x: number) => x.toFixed(0);
  process.stdout.write(
    [
      `## SEARCH_THREADS side by side: \`query_hybrid\` over ${stored} SciFact chunks, one writer (${new Date().toISOString()})`,
      '',
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; potion-base-2M. ` +
        `${SECONDS} s per phase, phases alternating between the servers, LOG_LEVEL=${values['log-level']}, ${values.warmup} warm-up searches per server` +
        `${values['no-writer'] ? ', no writer' : WRITE_EVERY > 0 ? `, a write once ${WRITE_EVERY} more searches were answered` : ', the writer back to back'}. Load average (1/5/15 min) before ${load0.map((x) => x.toFixed(2)).join('/')}.`,
      '',
      '| server | clients | searches | errors | throughput | p50 | p95 | p99 | max | server CPU-s per s | of which main thread | server CPU ms per search | writes (250 chunks) | load after (1 min) |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...results.map(
        (r) =>
          `| ${r.label} | ${r.clients} | ${r.searches} | ${r.errors} | ${(r.searches / r.seconds).toFixed(1)} q/s | ${f(r.p50)} ms | ` +
          `${f(r.p95)} ms | ${f(r.p99)} ms | ${f(r.max)} ms | ${r.cpuPerS.toFixed(2)} | ${r.mainPerS.toFixed(2)} | ${((r.cpuPerS * r.seconds * 1000) / r.searches).toFixed(1)} | ${r.writes} | ${r.load[0]?.toFixed(1)} |`,
      ),
      '',
      ...results.filter((r) => r.firstError).map((r) => `First error (${r.label}, ${r.clients}): ${r.firstError}`),
    ].join('\n') + '\n',
  );
} finally {
  for (const server of servers) await server.stop();
}
