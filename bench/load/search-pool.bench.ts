// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Issue 28 "Load", the store alone: does `SEARCH_THREADS` let the embedded store's searches use more than one core?
 * One process, no MCP: two EmbeddedVectorStores on two copies of the same data (~10k SciFact chunks: 5,183 abstracts,
 * two chunks each; vectors are deterministic pseudo-random 64-d, the size of potion-base-2M's, since this measures the
 * store, not retrieval quality), one searching in-process (`SEARCH_THREADS=0`), one with N worker threads. For each
 * concurrency C, each store in turn answers C `searchHybrid` calls kept in flight for D seconds (SciFact claims outside
 * the train judgments, limit 10) while a writer upserts 250 of the chunks again every 200 ms. Phases alternate between
 * the stores. CPU is this process's (every thread: process.cpuUsage) over the phase, so CPU-s per second above 1.0
 * means more than one core was used.
 *
 *   npx tsx bench/load/search-pool.bench.ts [--threads 2] [--concurrency 20,50] [--seconds 20]
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { EmbeddedVectorStore } from '@lectern/vector-store';
import { abstractHalves, loadCorpus, loadQrels, loadQueries } from '../embedding/corpus.js';

const { values } = parseArgs({
  options: {
    threads: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '20,50' },
    seconds: { type: 'string', default: '20' },
    /** Each (setting, concurrency) phase this many times, alternating (the table sums them). */
    rounds: { type: 'string', default: '1' },
  },
});
const SECONDS = Number(values.seconds);
const say = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const DIM = 64;
const fingerprint = { model_id: 'bench/random-64', revision: '1', dimension: DIM, normalized: true };
let seed = 11;
const vector = (): number[] => {
  const v = Array.from({ length: DIM }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const points = loadCorpus().flatMap((d) =>
  abstractHalves(d).map(({ k, text }) => ({
    id: `${d.id}:${k}`,
    vector: vector(),
    text,
    payload: { document_id: d.id, chunk_index: k, title: d.title },
  })),
);
const train = loadQrels('train');
const queries = loadQueries()
  .filter((q) => !train.has(q.id))
  .map((q) => ({ text: q.text, vector: vector() }));

const base = mkdtempSync(join(tmpdir(), 'lectern-search-pool-'));
const seedStore = new EmbeddedVectorStore({ dataDir: join(base, 'seed') });
await seedStore.ensureCollection('scifact', { fingerprint, hybrid: true });
await seedStore.upsert('scifact', points, { fingerprint });
await seedStore.close();
say(`stored ${points.length} points`);
const settings = [0, Number(values.threads)];
const stores = settings.map((t) => {
  cpSync(join(base, 'seed'), join(base, `t${t}`), { recursive: true });
  return { threads: t, store: new EmbeddedVectorStore({ dataDir: join(base, `t${t}`), searchThreads: t }) };
});

interface Phase {
  threads: number;
  concurrency: number;
  searches: number;
  errors: number;
  seconds: number;
  cpuPerS: number;
  p50: number;
  p99: number;
  writes: number;
  load: number;
  /** CPU ms of the main thread (the event loop) over the phase. */
  mainMs: number;
}

/** utime + stime of this process's main thread (the event loop), in ms (clock ticks of 10 ms). */
const mainThreadMs = (): number => {
  const fields = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const phase = async (threads: number, store: EmbeddedVectorStore, concurrency: number): Promise<Phase> => {
  const latencies: number[] = [];
  let errors = 0;
  let writes = 0;
  const c0 = process.cpuUsage();
  const m0 = mainThreadMs();
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  const searcher = async (i: number): Promise<void> => {
    for (let n = 0; performance.now() < end; n++) {
      const q = queries[(i * 7 + n) % queries.length]!;
      const s = performance.now();
      // each request comes through the event loop, as a server's does (else in-process searches, which finish within
      // microtasks, would starve the writer's timer); its wait for the loop is part of its latency
      await new Promise((r) => setImmediate(r));
      await store.searchHybrid('scifact', q, { fingerprint, limit: 10 }).catch(() => (errors += 1));
      latencies.push(performance.now() - s);
    }
  };
  const writer = async (): Promise<void> => {
    for (let n = 0; performance.now() < end; n++) {
      const at = (n * 250) % points.length;
      await store.upsert('scifact', points.slice(at, at + 250), { fingerprint });
      writes += 1;
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  await Promise.all([...Array.from({ length: concurrency }, (_, i) => searcher(i)), writer()]);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  const mainMs = mainThreadMs() - m0;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    threads,
    concurrency,
    searches: sorted.length,
    errors,
    seconds,
    cpuPerS: (cpu.user + cpu.system) / 1e6 / seconds,
    p50: pct(sorted, 50),
    p99: pct(sorted, 99),
    writes,
    load: loadavg()[0] ?? NaN,
    mainMs,
  };
};

try {
  for (const s of stores)
    for (let i = 0; i < 40; i++) await s.store.searchHybrid('scifact', queries[i]!, { fingerprint, limit: 10 });
  const load0 = loadavg();
  const results: Phase[] = [];
  for (const c of values.concurrency.split(',').map(Number)) {
    const sums = new Map<number, Phase>();
    for (let round = 0; round < Number(values.rounds); round++)
      for (const s of stores) {
        const r = await phase(s.threads, s.store, c);
        say(JSON.stringify(r));
        const sum = sums.get(s.threads);
        if (!sum) sums.set(s.threads, r);
        else {
          // percentiles of the rounds: the worse one is kept
          const cpu = sum.cpuPerS * sum.seconds + r.cpuPerS * r.seconds;
          Object.assign(sum, {
            searches: sum.searches + r.searches,
            errors: sum.errors + r.errors,
            seconds: sum.seconds + r.seconds,
            writes: sum.writes + r.writes,
            mainMs: sum.mainMs + r.mainMs,
            p50: Math.max(sum.p50, r.p50),
            p99: Math.max(sum.p99, r.p99),
            load: r.load,
          });
          sum.cpuPerS = cpu / sum.seconds;
        }
      }
    results.push(...sums.values());
  }
  const f = (x: number) => x.toFixed(0);
  process.stdout.write(
    [
      `## The store alone: \`searchHybrid\` over ${points.length} chunks, SEARCH_THREADS side by side (${new Date().toISOString()})`,
      '',
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. ${SECONDS} s per phase, ${values.rounds} round(s), alternating (p50/p99: the worse round). ` +
        `Load average (1/5/15 min) before ${load0.map((x) => x.toFixed(2)).join('/')}.`,
      '',
      '| SEARCH_THREADS | in flight | searches | errors | throughput | p50 | p99 | CPU-s per s (all threads) | CPU ms per search | of which main thread | writes (250 points) | load after (1 min) |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...results.map(
        (r) =>
          `| ${r.threads} | ${r.concurrency} | ${r.searches} | ${r.errors} | ${(r.searches / r.seconds).toFixed(1)} q/s | ${f(r.p50)} ms | ` +
          `${f(r.p99)} ms | ${r.cpuPerS.toFixed(2)} | ${((r.cpuPerS * r.seconds * 1000) / r.searches).toFixed(1)} | ${(r.mainMs / r.searches).toFixed(1)} | ${r.writes} | ${r.load.toFixed(1)} |`,
      ),
    ].join('\n') + '\n',
  );
} finally {
  for (const s of stores) await s.store.close();
  rmSync(base, { recursive: true, force: true });
}
