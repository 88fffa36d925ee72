// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * What the search workers' memory bounds cost (docs/benchmarks/load.md, "Memory", round 2): two `SearchPool`s of 2
 * threads over two copies of the same store file (a DATA_DIR seeded by memory-100k.bench.ts `--keep DIR`: 100k
 * SciFact chunks, potion-base-2M's 64-d vectors), one as before (each worker maps up to 1 GiB of the file, V8's default
 * young generation), one with this branch's defaults (no map, an 8 MiB young generation). Phases alternate between
 * them: C hybrid searches kept in flight for S seconds (SciFact claims as text, pseudo-random unit vectors). CPU is
 * the whole process's (every worker thread), per search.
 *
 *   npx tsx bench/load/search-memory.bench.ts --seeded DIR [--concurrency 20] [--seconds 15] [--rounds 2]
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { EMBEDDED_DB_FILE, SearchPool } from '@lectern/vector-store';
import { loadQueries } from '../embedding/corpus.js';

const { values } = parseArgs({
  options: {
    seeded: { type: 'string' },
    collection: { type: 'string', default: 'bench' },
    concurrency: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '15' },
    rounds: { type: 'string', default: '2' },
  },
});
if (!values.seeded) throw new Error('--seeded DIR: a DATA_DIR kept by memory-100k.bench.ts --keep');
const C = Number(values.concurrency);
const S = Number(values.seconds);
const dir = mkdtempSync(join(tmpdir(), 'lectern-search-memory-'));
// the seeded collection's model (potion-base-2M as memory-100k.bench.ts stores it)
const fingerprint = {
  model_id: 'potion-base-2M',
  revision: 'sha256:f0624e0a6a252b92',
  dimension: 64,
  normalized: true,
};
const queries = loadQueries().map((q) => q.text);
let seed = 7;
const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
const vector = (): number[] => {
  const v = Array.from({ length: 64 }, rand);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

const settings = [
  { name: 'before: 1 GiB map, V8 young generation', mmapBytes: 1 << 30, youngGenerationMb: 0 },
  { name: 'after: no map, 8 MiB young generation', mmapBytes: 0, youngGenerationMb: 8 },
].map((s, i) => {
  const file = join(dir, `s${i}.sqlite`);
  copyFileSync(join(values.seeded as string, 'vectors', EMBEDDED_DB_FILE), file);
  const pool = new SearchPool({ file, prefix: 'lectern_', fusion: {}, threads: 2, ...s });
  return { ...s, pool };
});

const phase = async (pool: SearchPool): Promise<{ n: number; cpuMs: number; p50: number; p99: number }> => {
  const lat: number[] = [];
  const cpu0 = process.cpuUsage();
  const end = performance.now() + S * 1000;
  let q = 0;
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const text = queries[q++ % queries.length] ?? 'protein';
        await pool.searchHybrid(values.collection as string, { vector: vector(), text }, { fingerprint, limit: 10 });
        lat.push(performance.now() - t);
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  lat.sort((a, b) => a - b);
  const at = (p: number): number => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? NaN;
  return { n: lat.length, cpuMs: (cpu.user + cpu.system) / 1000, p50: at(0.5), p99: at(0.99) };
};

try {
  // warm both: workers started, matrices built
  for (const s of settings) await phase(s.pool);
  const rows: string[] = [];
  const load0 = loadavg();
  for (let r = 0; r < Number(values.rounds); r++)
    for (const s of settings) {
      const p = await phase(s.pool);
      rows.push(
        `| ${s.name} (round ${r + 1}) | ${p.n} | ${(p.n / S).toFixed(1)} | ${(p.cpuMs / p.n).toFixed(2)} ms | ` +
          `${p.p50.toFixed(0)} ms | ${p.p99.toFixed(0)} ms |`,
      );
    }
  const load1 = loadavg();
  process.stdout.write(
    [
      `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ${C} searches in flight, ${S} s a phase; ` +
        `load average ${load0.map((x) => x.toFixed(1)).join('/')} → ${load1.map((x) => x.toFixed(1)).join('/')}`,
      '',
      '| setting | searches | per s | CPU per search (all threads) | p50 | p99 |',
      '|---|---:|---:|---:|---:|---:|',
      ...rows,
    ].join('\n') + '\n',
  );
} finally {
  await Promise.all(settings.map((s) => s.pool.close()));
  rmSync(dir, { recursive: true, force: true });
}
