/**
 * Renders bench/vector-store/results/embedded-*.json as a latency-vs-size SVG plot and prints the
 * Markdown table used in docs/benchmarks/vector-store.md.
 *
 *   npx tsx bench/vector-store/render-report.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Stat { p50: number; p99: number; mean: number; qps: number }
interface Result {
  size: number; ingestPointsPerSec: number; fileBytes: number; coldFirstQueryMs: number; rssMiB: number; loadAvg1m?: number;
  dense: Stat; denseFiltered: Stat; keyword: Stat; hybrid: Stat;
  /** Absent in results measured before z-score fusion became the default: their `hybrid` is RRF over 50 candidates. */
  hybridFusion?: string; hybridRrf?: Stat;
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
const hybridLabel = (r: Result): string => (r.hybridFusion ? `hybrid (${r.hybridFusion})` : 'hybrid (RRF, 50 candidates per side; older run)');

// Plot: log10(size) on x, log10(ms) on y; p50 solid, p99 dashed.
const W = 720, H = 440, L = 70, R = 190, T = 30, B = 60;
const xs = results.map((r) => Math.log10(r.size));
const xMin = Math.min(...xs) - 0.15, xMax = Math.max(...xs) + 0.15;
const yMin = -1, yMax = 3; // 0.1 ms .. 1000 ms
const px = (v: number): number => L + ((v - xMin) / (xMax - xMin)) * (W - L - R);
const py = (ms: number): number => T + (1 - (Math.log10(Math.max(ms, 0.1)) - yMin) / (yMax - yMin)) * (H - T - B);
const parts: string[] = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
  `<rect width="${W}" height="${H}" fill="white"/>`,
  `<text x="${L}" y="18" font-size="14">Embedded vector store: query latency vs collection size (384-d, top 10, 2 cores)</text>`,
];
for (let e = yMin; e <= yMax; e++) {
  const y = py(10 ** e);
  parts.push(`<line x1="${L}" x2="${W - R}" y1="${y}" y2="${y}" stroke="#ddd"/>`, `<text x="${L - 8}" y="${y + 4}" text-anchor="end">${10 ** e} ms</text>`);
}
for (const r of results) {
  const x = px(Math.log10(r.size));
  parts.push(`<line x1="${x}" x2="${x}" y1="${T}" y2="${H - B}" stroke="#eee"/>`, `<text x="${x}" y="${H - B + 18}" text-anchor="middle">${r.size.toLocaleString('en')}</text>`);
}
parts.push(`<text x="${(L + W - R) / 2}" y="${H - 15}" text-anchor="middle">points in the collection (log scale)</text>`);
for (const [ms, label] of [[20, 'dense target @100k'], [50, 'hybrid target @100k']] as const) {
  parts.push(`<line x1="${L}" x2="${W - R}" y1="${py(ms)}" y2="${py(ms)}" stroke="#999" stroke-dasharray="2,4"/>`, `<text x="${L + 4}" y="${py(ms) - 4}" fill="#777" font-size="10">${label} (${ms} ms)</text>`);
}
modes.forEach(([key, label, color], i) => {
  for (const [p, dash] of [['p50', ''], ['p99', '6,4']] as const) {
    const withMode = results.filter((r) => r[key] !== undefined);
    const pts = withMode.map((r) => `${px(Math.log10(r.size))},${py((r[key] as Stat)[p])}`).join(' ');
    parts.push(`<polyline points="${pts}" fill="none" stroke="${color}" stroke-width="2" ${dash ? `stroke-dasharray="${dash}"` : ''}/>`);
    for (const r of withMode) parts.push(`<circle cx="${px(Math.log10(r.size))}" cy="${py((r[key] as Stat)[p])}" r="3" fill="${color}"/>`);
  }
  const ly = T + 20 + i * 22;
  parts.push(`<line x1="${W - R + 15}" x2="${W - R + 40}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"/>`, `<text x="${W - R + 46}" y="${ly + 4}">${label}</text>`);
});
const ly = T + 20 + modes.length * 22;
parts.push(`<text x="${W - R + 15}" y="${ly + 4}" fill="#555">solid p50, dashed p99</text>`, '</svg>');
writeFileSync(join(dir, 'latency.svg'), parts.join('\n') + '\n');

const f = (n: number): string => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const rows = [
  '| points | mode | p50 ms | p99 ms | queries/s |',
  '|---:|---|---:|---:|---:|',
  ...results.flatMap((r) =>
    modes.flatMap(([key, label]) => {
      const st = r[key];
      if (!st) return [];
      return [`| ${r.size.toLocaleString('en')} | ${key === 'hybrid' ? hybridLabel(r) : label} | ${f(st.p50)} | ${f(st.p99)} | ${f(st.qps)} |`];
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
