// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Round 12 (issue 25): what the dense list looks like where hybrid falls below its keyword input, against where it
 * helps. Over the traces `fusion-trace.ts` wrote (run it first), per question: hybrid (FUSION_DEFAULTS, or
 * `--variant`) against keyword only, scored as `fusion-sim.ts` does; for each group (hybrid worse / equal / better
 * on the question's nDCG@10) the dense list's top z, the gap between its 1st and 10th cosine, and how many of the
 * dense top 10 are in the keyword top 10 (agreement), plus the keyword list's top z and its margin over its 2nd.
 *   npx tsx bench/retrieval/eval/fusion-confidence.ts --sets planning-dev,planning-heldout [--variant JSON] [--list]
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { rankedFor, scoreTraced } from './fusion-sim.js';
import type { TraceHit, TraceQuestion } from './fusion-trace.js';

const { values } = parseArgs({
  options: {
    sets: { type: 'string', default: 'planning-dev' },
    variant: { type: 'string', default: '{}' },
    list: { type: 'boolean', default: false },
  },
});
const variant = JSON.parse(values.variant as string) as Record<string, unknown>;
const zOf = (l: TraceHit[], pool: number) => {
  const n = Math.max(1, pool);
  const mean = l.reduce((a, h) => a + h.score, 0) / n;
  const zeros = pool - l.length;
  const sd = Math.sqrt((l.reduce((a, h) => a + (h.score - mean) ** 2, 0) + zeros * mean ** 2) / n) || 1;
  return (h: TraceHit | undefined) => (h ? (h.score - mean) / sd : 0);
};
interface Row {
  id: string;
  group: 'worse' | 'equal' | 'better';
  dTopZ: number;
  dGap: number;
  agree: number;
  kTopZ: number;
  kMargin: number;
  d: number;
  /** Dense ranks of the chunks hybrid puts above the first answer-bearing (or right-document) chunk that keyword put below it. */
  passers: number[];
}
const f3 = (x: number) => x.toFixed(3);
const passers = (q: TraceQuestion): number[] => {
  const good = (h: TraceHit) => h.answer;
  const kw = rankedFor(q, { keywordOnly: true });
  const hy = rankedFor(q, variant);
  const at = hy.findIndex(good);
  if (at < 0) return [];
  const kwAt = new Map(kw.map((h, i) => [h.id, i]));
  const target = kwAt.get((hy[at] as TraceHit).id) ?? Infinity;
  return hy
    .slice(0, at)
    .filter((h) => (kwAt.get(h.id) ?? Infinity) > target)
    .map((h) => q.dense.findIndex((x) => x.id === h.id) + 1);
};
for (const set of (values.sets as string).split(',')) {
  const project = set.startsWith('scifact') ? 'scifact' : 'application_docs';
  const qs = (
    JSON.parse(readFileSync(join(tmpdir(), 'lectern-fusion-trace', `${set}-${project}.json`), 'utf8')) as {
      questions: TraceQuestion[];
    }
  ).questions;
  const rows: Row[] = qs.map((q) => {
    const k = scoreTraced(q, { keywordOnly: true });
    const h = scoreTraced(q, variant);
    const d = h.ndcg10 - k.ndcg10;
    const zd = zOf(q.dense, q.dense.length);
    const zk = zOf(q.keyword, Math.max(q.keyword.length, q.dense.length));
    const kTop = new Set(q.keyword.slice(0, 10).map((x) => x.id));
    return {
      id: q.id,
      group: d < -1e-9 ? 'worse' : d > 1e-9 ? 'better' : 'equal',
      dTopZ: zd(q.dense[0]),
      dGap: (q.dense[0]?.score ?? 0) - (q.dense[9]?.score ?? 0),
      agree: q.dense.slice(0, 10).filter((x) => kTop.has(x.id)).length,
      kTopZ: zk(q.keyword[0]),
      kMargin: zk(q.keyword[0]) - zk(q.keyword[1]),
      d,
      passers: passers(q),
    };
  });
  process.stdout.write(
    `\n${set} (${qs.length}): group n | dense top z | dense gap 1st-10th | agreement (of 10) | keyword top z | keyword margin\n`,
  );
  for (const g of ['worse', 'equal', 'better'] as const) {
    const r = rows.filter((x) => x.group === g);
    if (r.length === 0) continue;
    const m = (f: (x: Row) => number) => f3(r.reduce((a, x) => a + f(x), 0) / r.length);
    process.stdout.write(
      `  ${g.padEnd(6)} ${String(r.length).padStart(3)} | ${m((x) => x.dTopZ)} | ${m((x) => x.dGap)} | ${m((x) => x.agree)} | ${m((x) => x.kTopZ)} | ${m((x) => x.kMargin)}\n`,
    );
    if (values.list && g !== 'equal')
      for (const x of r)
        process.stdout.write(
          `      ${x.id} dnDCG ${f3(x.d)} dz ${f3(x.dTopZ)} gap ${f3(x.dGap)} agree ${x.agree} kz ${f3(x.kTopZ)} km ${f3(x.kMargin)} passed by dense ranks ${x.passers.join(',') || '-'}\n`,
        );
  }
}
