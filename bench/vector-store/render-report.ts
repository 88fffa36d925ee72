// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Renders bench/vector-store/results/embedded-*.json as a latency-vs-size SVG plot and prints the
 * Markdown table used in docs/benchmarks/vector-store.md.
 *
 *   npx tsx bench/vector-store/render-report.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { linePlot } from '../plot/svg-plot.js';

interface Stat {
  p50: number;
  p99: number;
  mean: number;
  qps: number;
}
interface Result {
  size: number;
  ingestPointsPerSec: number;
  fileBytes: number;
  coldFirstQueryMs: number;
  rssMiB: number;
  loadAvg1m?: number;
  dense: Stat;
  denseFiltered: Stat;
  keyword: Stat;
  hybrid: Stat;
  /** Absent in results measured before z-score fusion became the default: their `hybrid` is RRF over 50 candidates. */
  hybridFusion?: string;
  hybridRrf?: Stat;
}
const dir = join(import.meta.dirname, 'results');
const results = readdirSync(dir)
  .filter((f) => /^embedded-\d+\.json$/.test(f))
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Result)
  .sort((a, b) => a.size - b.size);

const modes = [
  ['dense', 'dense', '#1f77b4'],
  ['denseFiltered', 'dense + filter', '#9467bd'],
  ['keyword', 'BM25', '#2ca02c'],
  ['hybrid', 'hybrid (default fusion)', '#d62728'],
  ['hybridRrf', 'hybrid (RRF)', '#ff7f0e'],
] as const;
const hybridLabel = (r: Result): string =>
  r.hybridFusion ? `hybrid (${r.hybridFusion})` : 'hybrid (RRF, 50 candidates per side; older run)';

// Plot: size on x, latency on y, both logarithmic; p50 solid, p99 dashed.
const svg = linePlot({
  title: 'Embedded vector store: query latency vs collection size (384-d, top 10, 2 cores)',
  x: {
    label: 'points in the collection (log scale)',
    log: true,
    ticks: results.map((r) => r.size),
    format: (v) => v.toLocaleString('en'),
  },
  y: {
    label: 'query latency',
    log: true,
    min: 0.1,
    max: 1000,
    ticks: [0.1, 1, 10, 100, 1000],
    format: (v) => `${v} ms`,
  },
  references: [
    { y: 20, label: 'dense target @100k (20 ms)' },
    { y: 50, label: 'hybrid target @100k (50 ms)' },
  ],
  series: modes.flatMap(([key, label, color]) =>
    (['p50', 'p99'] as const).map((p) => ({
      label,
      color,
      dashed: p === 'p99',
      points: results
        .filter((r) => r[key] !== undefined)
        .map((r): [number, number] => [r.size, Math.max((r[key] as Stat)[p], 0.1)]),
    })),
  ),
  note: 'solid p50, dashed p99',
});
writeFileSync(join(dir, 'latency.svg'), svg);

const f = (n: number): string => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const rows = [
  '| points | mode | p50 ms | p99 ms | queries/s |',
  '|---:|---|---:|---:|---:|',
  ...results.flatMap((r) =>
    modes.flatMap(([key, label]) => {
      const st = r[key];
      if (!st) return [];
      return [
        `| ${r.size.toLocaleString('en')} | ${key === 'hybrid' ? hybridLabel(r) : label} | ${f(st.p50)} | ${f(st.p99)} | ${f(st.qps)} |`,
      ];
    }),
  ),
  '',
  '| points | ingest points/s | file size | cold first query (matrix load) | process RSS | load avg (1 min) |',
  '|---:|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${r.size.toLocaleString('en')} | ${r.ingestPointsPerSec.toFixed(0)} | ${(r.fileBytes / 2 ** 20).toFixed(0)} MiB | ${(r.coldFirstQueryMs / 1000).toFixed(2)} s | ${r.rssMiB.toFixed(0)} MiB | ${r.loadAvg1m?.toFixed(1) ?? '?'} |`,
  ),
];
console.log(rows.join('\n'));
