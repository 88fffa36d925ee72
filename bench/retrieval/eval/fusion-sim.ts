// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Fuses the candidate lists `fusion-trace.ts` wrote, offline, under several fusion settings, and scores them as the
 * eval does (distinct texts, top 10, `scoreQuestion`): a fast loop for choosing fusion settings, checked against the
 * eval's own runs through the MCP tools (docs/benchmarks/retrieval.md, round 8).
 *   npx tsx bench/retrieval/eval/fusion-sim.ts --sets planning-dev,scifact-train --variants '[{"denseWeight":0.1}]'
 *   npx tsx bench/retrieval/eval/fusion-sim.ts --sets planning-dev --why dev-61,dev-42   (per-question z-scores)
 *   [--project planning] (spec 004's chunks, `query_hybrid`) [--diff] (questions lost / won against keyword only)
 * A variant is a partial FusionParams (`fuse` from libs/vector-store, the code both adapters run) over
 * FUSION_DEFAULTS; `{"keywordOnly":true}` / `{"denseOnly":true}` score one list alone.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FUSION_DEFAULTS, fuse, type FusionParams } from '@lectern/vector-store';
import { meanScores, scoreQuestion, type Hit, type Judgment, type QuestionScore } from './metrics.js';
import type { TraceHit, TraceQuestion } from './fusion-trace.js';

type Variant = Partial<FusionParams> & { keywordOnly?: boolean; denseOnly?: boolean; label?: string };

const load = (set: string, project0?: string): TraceQuestion[] => {
  const project = project0 ?? (set.startsWith('scifact') ? 'scifact' : 'application_docs');
  const f = join(tmpdir(), 'lectern-fusion-trace', `${set}-${project}.json`);
  return (JSON.parse(readFileSync(f, 'utf8')) as { questions: TraceQuestion[] }).questions;
};

/** The ranked list a variant gives for one question (the store's fused order, then `distinctText`, top 10). */
export const rankedFor = (q: TraceQuestion, v: Variant): TraceHit[] => {
  const byId = new Map<string, TraceHit>();
  for (const h of [...q.dense, ...q.keyword]) if (!byId.has(h.id)) byId.set(h.id, h);
  let order: string[];
  if (v.keywordOnly) order = q.keyword.map((h) => h.id);
  else if (v.denseOnly) order = q.dense.map((h) => h.id);
  else {
    const p: FusionParams = { ...FUSION_DEFAULTS, ...v } as FusionParams;
    order = fuse(q.dense, q.keyword, p, 20).map((f) => f.id);
  }
  const seen = new Set<string>();
  const out: TraceHit[] = [];
  for (const id of order.slice(0, 20)) {
    const h = byId.get(id) as TraceHit;
    if (seen.has(h.textKey)) continue;
    seen.add(h.textKey);
    out.push(h);
  }
  return out.slice(0, 10);
};

/** A traced question's judgment, as the eval's metrics read it. */
export const traceJudgment = (q: TraceQuestion): Judgment => ({
  docs: new Set(q.docs),
  ...(q.page !== undefined ? { page: q.page } : {}),
  ...(q.keyPhrase !== undefined ? { keyPhrase: q.keyPhrase } : {}),
});

/** A traced chunk as the metrics read it: the trace marks the answer-bearing chunks, so the key phrase stands for its text. */
export const traceHit = (q: TraceQuestion, h: TraceHit): Hit => ({
  doc: h.doc,
  pageStart: h.pageStart,
  pageEnd: h.pageEnd,
  text: h.answer ? (q.keyPhrase ?? '') : '',
});

/** One traced question's metrics for the order a variant gives its chunks. */
export const scoreTraced = (q: TraceQuestion, v: Variant): QuestionScore =>
  scoreQuestion(
    rankedFor(q, v).map((h) => traceHit(q, h)),
    traceJudgment(q),
  );

const f3 = (x: number): string =>
  x.toFixed(process.env['FUSION_SIM_DIGITS'] ? Number(process.env['FUSION_SIM_DIGITS']) : 3);

if (process.argv[1]?.endsWith('fusion-sim.ts')) {
  const { values } = parseArgs({
    options: {
      sets: { type: 'string', default: 'planning-dev' },
      variants: { type: 'string', default: '[{}]' },
      why: { type: 'string' },
      diff: { type: 'boolean', default: false },
      /** Per listed question: rank of the first answer-bearing chunk and right-document-first, per variant. */
      ranks: { type: 'string' },
      /** `planning`: spec 004's chunks (query_hybrid), traced with `fusion-trace.ts --project planning`. */
      project: { type: 'string' },
    },
  });
  const variants = JSON.parse(values.variants as string) as Variant[];
  const all: Variant[] = [{ label: 'keyword', keywordOnly: true }, { label: 'default' }, ...variants];
  for (const set of (values.sets as string).split(',')) {
    const qs = load(set, values.project);
    process.stdout.write(`\n${set} (${qs.length}) nDCG@10 / hit@1 / answer@5 / MRR\n`);
    const base = qs.map((q) => scoreTraced(q, { keywordOnly: true }));
    for (const v of all) {
      const s = qs.map((q) => scoreTraced(q, v));
      const m = meanScores(s);
      const lost = qs
        .filter((_q, i) => (s[i] as QuestionScore).hit1 < (base[i] as QuestionScore).hit1)
        .map((q) => q.id);
      const won = qs.filter((_q, i) => (s[i] as QuestionScore).hit1 > (base[i] as QuestionScore).hit1).map((q) => q.id);
      const lostA = qs
        .filter((_q, i) => (s[i] as QuestionScore).answer5 < (base[i] as QuestionScore).answer5)
        .map((q) => q.id);
      const wonA = qs
        .filter((_q, i) => (s[i] as QuestionScore).answer5 > (base[i] as QuestionScore).answer5)
        .map((q) => q.id);
      const label = v.label ?? JSON.stringify(v);
      process.stdout.write(
        `  ${f3(m.ndcg10)} / ${f3(m.hit1)} / ${f3(m.answer5)} / ${f3(m.mrr)}  ${label}` +
          (values.diff && !v.keywordOnly
            ? `\n      vs keyword hit@1 -${lost.length} +${won.length}, answer@5 -${lostA.length} +${wonA.length}` +
              (set.startsWith('scifact')
                ? ''
                : ` (lost ${[...lost, ...lostA].join(' ')}; won ${[...won, ...wonA].join(' ')})`)
            : '') +
          '\n',
      );
    }
    if (values.ranks) {
      const ids = new Set((values.ranks as string).split(','));
      const denseRank = (q: TraceQuestion) => q.dense.findIndex((h) => h.answer) + 1 || '-';
      for (const q of qs.filter((x) => ids.has(x.id))) {
        const cells = all.map((v) => {
          const r = rankedFor(q, v);
          const a = r.findIndex((h) => h.answer) + 1;
          return `${v.label ?? JSON.stringify(v)} ${a || '-'}${q.docs.includes(r[0]?.doc ?? '') ? ' d1' : ''}`;
        });
        process.stdout.write(`  ${q.id}: dense ${denseRank(q)} | ${cells.join(' | ')}\n`);
      }
    }
    if (values.why) {
      const ids = new Set((values.why as string).split(','));
      for (const q of qs.filter((x) => ids.has(x.id))) why(q);
    }
  }
}

/** z-scores of both lists as fusion computes them, and where the answer and the right document sit. */
function why(q: TraceQuestion): void {
  const z = (l: TraceHit[], pool: number) => {
    const n = Math.max(1, pool);
    const mean = l.reduce((a, h) => a + h.score, 0) / n;
    const zeros = pool - l.length;
    const sd = Math.sqrt((l.reduce((a, h) => a + (h.score - mean) ** 2, 0) + zeros * mean ** 2) / n) || 1;
    return new Map(l.map((h) => [h.id, (h.score - mean) / sd]));
  };
  const zd = z(q.dense, q.dense.length);
  const zk = z(q.keyword, Math.max(q.keyword.length, q.dense.length));
  const at = (l: TraceHit[], m: Map<string, number>, i: number) =>
    l[i] ? `${f3(m.get(l[i].id) ?? 0)}${l[i].answer ? '*' : q.docs.includes(l[i].doc) ? 'd' : ''}` : '-';
  process.stdout.write(`\n## ${q.id} ${q.text}\n`);
  process.stdout.write(`  keyword z top5: ${[0, 1, 2, 3, 4].map((i) => at(q.keyword, zk, i)).join(' ')}\n`);
  process.stdout.write(`  dense   z top5: ${[0, 1, 2, 3, 4].map((i) => at(q.dense, zd, i)).join(' ')}\n`);
  const kr = (id: string) => q.keyword.findIndex((h) => h.id === id) + 1;
  const dr = (id: string) => q.dense.findIndex((h) => h.id === id) + 1;
  for (const [label, v] of [
    ['keyword', { keywordOnly: true }],
    ['default', {}],
  ] as const) {
    const r = rankedFor(q, v).slice(0, 5);
    process.stdout.write(
      `  ${label}: ${r
        .map(
          (h) =>
            `${h.answer ? '**' : q.docs.includes(h.doc) ? 'd' : ''}k${kr(h.id)}(${f3(zk.get(h.id) ?? NaN)})/d${dr(h.id)}(${f3(zd.get(h.id) ?? NaN)})`,
        )
        .join('  ')}\n`,
    );
  }
}
