// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Offline check of a neighbour credit on the keyword side (issue 25, round 9): a keyword candidate gains `w` times
 * the best keyword score of its document's adjacent chunks (chunk_index ± 1) among the candidates, then the lists
 * are fused as the store does (`fusion-sim.ts`'s `rankedFor`) and scored as the eval does.
 *   npx tsx bench/retrieval/eval/neighbour-sim.ts --sets planning-dev,planning-heldout --weights 0,0.1,0.2
 * Reads the traces `fusion-trace.ts` wrote and the chunk order from the newest cached store's SQLite file.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openPlanningLectern, openStoreCollection } from './lectern.js';
import { meanScores } from './metrics.js';
import { scoreTraced } from './fusion-sim.js';
import type { TraceQuestion } from './fusion-trace.js';

const { values } = parseArgs({
  options: {
    sets: { type: 'string', default: 'planning-dev' },
    weights: { type: 'string', default: '0,0.1,0.2,0.3' },
    mode: { type: 'string', default: 'max' },
  },
});
const lectern = await openPlanningLectern();
const { db, cid } = openStoreCollection(lectern.dataDir, 'application_docs');
const where = new Map<string, { doc: string; idx: number }>();
for (const r of db.prepare(`SELECT id, json(payload) AS payload FROM vs_points_${cid}`).all() as Array<{
  id: string;
  payload: string;
}>) {
  const p = JSON.parse(r.payload) as Record<string, unknown>;
  where.set(r.id, { doc: String(p['document_id']), idx: Number(p['chunk_index'] ?? 0) });
}
db.close();
await lectern.close();

const withCredit = (q: TraceQuestion, w: number): TraceQuestion => {
  if (w === 0) return q;
  const at = new Map<string, number>();
  for (const h of q.keyword) {
    const p = where.get(h.id);
    if (p) at.set(`${p.doc}#${p.idx}`, h.score);
  }
  const keyword = q.keyword
    .map((h, i) => {
      const p = where.get(h.id);
      const a = p ? (at.get(`${p.doc}#${p.idx - 1}`) ?? 0) : 0;
      const b = p ? (at.get(`${p.doc}#${p.idx + 1}`) ?? 0) : 0;
      const n = values.mode === 'mean' ? (a + b) / 2 : Math.max(a, b);
      return { h: { ...h, score: h.score + w * n }, i };
    })
    .sort((x, y) => y.h.score - x.h.score || x.i - y.i)
    .map((x) => x.h);
  if (values.mode !== 'inside') return { ...q, keyword };
  // Inside each document only: its chunks take the document's own scores in the credited order.
  const docOf = (id: string) => where.get(id)?.doc ?? id;
  const scores = new Map<string, number[]>();
  for (const h of q.keyword) scores.set(docOf(h.id), [...(scores.get(docOf(h.id)) ?? []), h.score]);
  const next = new Map<string, number>();
  const inside = keyword.map((h) => {
    const d = docOf(h.id);
    const j = next.get(d) ?? 0;
    next.set(d, j + 1);
    return { ...h, score: (scores.get(d) as number[])[j] as number };
  });
  return { ...q, keyword: inside.sort((x, y) => y.score - x.score) };
};
const f3 = (x: number): string => x.toFixed(3);
for (const set of (values.sets as string).split(',')) {
  const project = set.startsWith('scifact') ? 'scifact' : 'application_docs';
  const qs = (
    JSON.parse(readFileSync(join(tmpdir(), 'lectern-fusion-trace', `${set}-${project}.json`), 'utf8')) as {
      questions: TraceQuestion[];
    }
  ).questions;
  process.stdout.write(`\n${set} (${qs.length}) hybrid | keyword: nDCG@10 / hit@1 / answer@5 / MRR\n`);
  for (const w of (values.weights as string).split(',').map(Number)) {
    const cells = [{}, { keywordOnly: true }].map((v) => {
      const m = meanScores(qs.map((q) => scoreTraced(withCredit(q, w), v)));
      return `${f3(m.ndcg10)} / ${f3(m.hit1)} / ${f3(m.answer5)} / ${f3(m.mrr)}`;
    });
    process.stdout.write(`  w ${w}: ${cells.join(' | ')}\n`);
  }
}
