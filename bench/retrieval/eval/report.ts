// SPDX-License-Identifier: AGPL-3.0-or-later
/** An EvalReport as a Markdown table and a bar chart (bench/plot/svg-plot.ts). */
import { barChart } from '../../plot/svg-plot.js';
import type { EvalReport } from './harness.js';

const f3 = (v: number): string => v.toFixed(3);
const f1 = (v: number): string => v.toFixed(1);

export const markdownTable = (r: EvalReport): string => {
  const rows = r.results.map(
    (s) =>
      `| ${s.system} | ${f3(s.metrics.ndcg10)} | ${f3(s.metrics.hit1)} | ${f3(s.metrics.answer5)} | ${f3(s.metrics.mrr)} | ${f1(s.wall_ms_per_query)} | ${f1(s.cpu_ms_per_query)} |`,
  );
  return [
    `**${r.set}** (${r.queries} questions, ${r.corpus}, ${r.model}; ${r.date.slice(0, 16)}Z; loadavg ${r.loadavg_before.join(' ')} → ${r.loadavg_after.join(' ')})`,
    '',
    '| system | nDCG@10 | hit@1 | answer@5 | MRR | wall ms/query | CPU ms/query |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
};

const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728'];

export const plot = (r: EvalReport): string =>
  barChart({
    title: `Retrieval on ${r.set} (${r.queries} questions)`,
    categories: r.results.map((s) => s.system),
    series: (['ndcg10', 'hit1', 'answer5', 'mrr'] as const).map((m, i) => ({
      label: { ndcg10: 'nDCG@10', hit1: 'hit@1', answer5: 'answer@5', mrr: 'MRR' }[m],
      color: COLORS[i] as string,
      values: r.results.map((s) => s.metrics[m]),
    })),
    value: { label: 'score (higher is better)', min: 0, max: 1 },
    note: `${r.model}, ${r.date.slice(0, 10)}`,
  });
