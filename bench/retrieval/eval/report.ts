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
    ...byKind(r),
    ...losses(r),
  ].join('\n');
};

/** answer@5 per question kind (planning and manuals sets), one column per system. */
const byKind = (r: EvalReport): string[] => {
  const kinds = [...new Set(r.results.flatMap((s) => s.per_query.map((q) => q.kind)))].filter(
    (k): k is string => k !== undefined,
  );
  if (kinds.length === 0) return [];
  const cell = (s: EvalReport['results'][number], k: string) => {
    const qs = s.per_query.filter((q) => q.kind === k);
    return f3(qs.reduce((a, q) => a + q.answer5, 0) / Math.max(1, qs.length));
  };
  return [
    'answer@5 by question kind:',
    '',
    `| kind (n) | ${r.results.map((s) => s.system).join(' | ')} |`,
    `|---|${r.results.map(() => '---:').join('|')}|`,
    ...kinds.map(
      (k) =>
        `| ${k} (${r.results[0]?.per_query.filter((q) => q.kind === k).length ?? 0}) | ${r.results.map((s) => cell(s, k)).join(' | ')} |`,
    ),
    '',
  ];
};

/**
 * Where a default hybrid system misses what the better peer finds: questions with answer@5 (planning) or hit@1
 * 1 for the peer and 0 for the system, named for planning sets and counted for SciFact.
 */
const losses = (r: EvalReport): string[] => {
  const planning = r.corpus !== 'beir-scifact';
  const metric = planning ? 'answer5' : 'hit1';
  const out: string[] = [];
  for (const system of ['sad-hybrid', 'query_hybrid'] as const) {
    const mine = r.results.find((s) => s.system === system);
    if (!mine) continue;
    for (const peer of ['bm25-peer', 'dense-peer'] as const) {
      const theirs = r.results.find((s) => s.system === peer);
      if (!theirs) continue;
      const score = new Map(mine.per_query.map((q) => [q.id, q[metric]]));
      const lost = theirs.per_query.filter((q) => q[metric] === 1 && score.get(q.id) === 0).map((q) => q.id);
      const won = mine.per_query.filter(
        (q) => q[metric] === 1 && theirs.per_query.find((t) => t.id === q.id)?.[metric] === 0,
      ).length;
      out.push(
        `- ${system} vs ${peer} (${planning ? 'answer@5' : 'hit@1'}): ${peer} only ${lost.length}, ${system} only ${won}` +
          (planning && lost.length ? ` — ${peer} only: ${lost.join(', ')}` : ''),
      );
    }
  }
  return out.length ? [...out, ''] : [];
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
