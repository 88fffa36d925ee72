// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Why spec 004's query_hybrid misses an answer the BM25 peer finds (issue 25, round 8):
 *   npx tsx bench/retrieval/eval/chunk-diagnose.ts --sets planning-dev,planning-heldout [--store DIR] [--verbose]
 * For each question the peer answers@5 and query_hybrid does not: where the key phrase is among the stored spec 004
 * chunks of the right document (one chunk / straddling two consecutive chunks / in none), that chunk's size and
 * rank, and what filled the top 5. Reads the chunks from the store's SQLite file; asks query_hybrid through MCP.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { corpusFile } from '@lectern/testing';
import { PLANNING_PROJECT, openPlanningLectern, openStoreCollection, spec004Hits } from './lectern.js';
import { answerBearing, normalise, scoreQuestion, type Hit } from './metrics.js';
import { listPdfs, pageWindows, pymupdfPages } from './pdf-text.js';
import { bm25Peer } from './peers.js';
import { loadSet, type SetName } from './sets.js';

const { values } = parseArgs({
  options: {
    sets: { type: 'string', default: 'planning-dev' },
    verbose: { type: 'boolean', default: false },
    system: { type: 'string', default: 'query_hybrid' },
    out: { type: 'string' },
  },
});
const lectern = await openPlanningLectern((m) => process.stderr.write(`${m}\n`));
const { db, cid } = openStoreCollection(lectern.dataDir, 'planning');
interface Chunk {
  doc: string;
  idx: number;
  ps: number;
  pe: number;
  text: string;
  path: string;
}
const rows = db
  .prepare(
    `SELECT json(p.payload) AS payload, c.text AS text FROM vs_points_${cid} p JOIN vs_chunks_${cid} c ON c.rid = p.rid`,
  )
  .all() as Array<{ payload: string; text: string }>;
const keys = lectern.record.docKeys;
const byDoc = new Map<string, Chunk[]>();
for (const r of rows) {
  const p = JSON.parse(r.payload) as Record<string, unknown>;
  const doc = keys[p['document_id'] as string] ?? (p['document_id'] as string);
  const list = byDoc.get(doc) ?? [];
  list.push({
    doc,
    idx: p['chunk_index'] as number,
    ps: p['page_start'] as number,
    pe: p['page_end'] as number,
    text: r.text,
    path: ((p['section_path'] as string[]) ?? []).join(' > '),
  });
  byDoc.set(doc, list);
}
for (const l of byDoc.values()) l.sort((a, b) => a.idx - b.idx);
const lens = rows.map((r) => r.text.length).sort((a, b) => a - b);
process.stdout.write(
  `chunks ${rows.length}; chars median ${lens[lens.length >> 1]}, <100 ${lens.filter((l) => l < 100).length}, <200 ${lens.filter((l) => l < 200).length}, >1500 ${lens.filter((l) => l > 1500).length}, max ${lens[lens.length - 1]}\n`,
);

const pdfs = listPdfs(corpusFile('uk-planning-policy'));
const name = new Map(pdfs.map((p) => [p.hash, p.rel.split('/').pop() as string]));
const byRel = new Map(pdfs.map((p) => [p.rel, p.hash]));
const { docs } = await pymupdfPages(pdfs);
const bm25 = bm25Peer(pageWindows(docs, 800));
const causes = new Map<string, string[]>();
const tally = { n: 0, qh: 0, peer: 0 };
const perQuestion: Record<string, number[]> = {};
try {
  for (const setName of (values.sets as string).split(',')) {
    const set = loadSet(setName as SetName);
    for (const q of set.queries) {
      const j = { docs: new Set(q.docs.map((d) => byRel.get(d) as string)), page: q.page, keyPhrase: q.keyPhrase };
      const extra = values.system === 'query_hybrid-keyword' ? { dense_weight: 0, keyword_weight: 1 } : {};
      const qh: Hit[] = spec004Hits(
        await lectern.call('query_hybrid', {
          project: PLANNING_PROJECT,
          query: q.text,
          top_k: 10,
          max_chars: 20_000,
          ...extra,
        }),
        keys,
      );
      const peer = await bm25.search(q.text, 10);
      const a = scoreQuestion(qh, j as never).answer5;
      const b = scoreQuestion(peer, j as never).answer5;
      tally.n++;
      tally.qh += a;
      tally.peer += b;
      const sq = scoreQuestion(qh, j as never);
      perQuestion[q.id] = [sq.answer5, sq.hit1, Math.round(sq.mrr * 100) / 100];
      if (!(b === 1 && a === 0)) continue;
      const doc = [...j.docs][0] as string;
      const kp = normalise(q.keyPhrase ?? '');
      const chunks = byDoc.get(doc) ?? [];
      const holding = chunks.filter((c) => normalise(c.text).includes(kp));
      const onPage = holding.filter((c) => c.ps <= (q.page ?? 0) && (q.page ?? 0) <= c.pe);
      let cause: string;
      let detail = '';
      void 0;
      if (onPage.length > 0) {
        const c = onPage[0] as Chunk;
        const rank = qh.findIndex((h) => h.doc === doc && c.text.startsWith(h.text.replace(/\.\.\.$/, '')));
        const shown = rank >= 0 && normalise((qh[rank] as Hit).text).includes(kp);
        const top5 = qh.slice(0, 5);
        const sameDoc = top5.filter((h) => h.doc === doc).length;
        cause =
          rank < 0
            ? 'chunk holds phrase, not in top 10'
            : `chunk holds phrase, rank ${rank < 5 ? '1-5' : '6-10'}${shown ? '' : ', phrase cut off by the 1,500-character result trim'}`;
        if (rank >= 0) detail += `rank ${rank + 1}, phrase at char ${normalise(c.text).indexOf(kp)}; `;
        detail += `chunk #${c.idx} ${c.text.length}c p${c.ps}-${c.pe} [${c.path.slice(0, 60)}]; top5 right-doc ${sameDoc}/5`;
      } else if (holding.length > 0) {
        cause = 'phrase in a chunk whose page span misses the page';
        const c = holding[0] as Chunk;
        detail += `chunk #${c.idx} p${c.ps}-${c.pe}`;
      } else {
        const straddle = chunks.findIndex((c, i) => {
          const n = chunks[i + 1];
          return n !== undefined && normalise(`${c.text} ${n.text}`).includes(kp);
        });
        if (straddle >= 0) {
          const c = chunks[straddle] as Chunk;
          const n = chunks[straddle + 1] as Chunk;
          cause = 'straddles two chunks';
          detail = `#${c.idx} ${c.text.length}c p${c.ps}-${c.pe} | #${n.idx} ${n.text.length}c p${n.ps}-${n.pe}; same section: ${c.path === n.path}`;
        } else cause = 'phrase in no chunk (text differs / dropped)';
      }
      const list = causes.get(cause) ?? [];
      list.push(q.id);
      causes.set(cause, list);
      process.stdout.write(
        `${q.id} ${cause}: ${detail}\n   q: ${q.text}\n   kp: "${q.keyPhrase}" want ${name.get(doc)} p${q.page}\n`,
      );
      if (values.verbose)
        qh.slice(0, 5).forEach((h, i) => {
          const mark = answerBearing(h, j as never) ? '**' : h.doc === doc ? ' d' : '  ';
          process.stdout.write(
            `     ${mark}${i + 1} ${name.get(h.doc)?.slice(0, 40)} p${h.pageStart}-${h.pageEnd} (${h.text.length}c) ${h.text.slice(0, 80).replace(/\s+/g, ' ')}\n`,
          );
        });
    }
  }
  process.stdout.write(`\nquestions ${tally.n}: ${values.system} answer@5 ${tally.qh}, peer ${tally.peer}\n`);
  if (values.out) writeFileSync(values.out, JSON.stringify(perQuestion));
  for (const [c, ids] of causes) process.stdout.write(`${ids.length}\t${c}: ${ids.join(', ')}\n`);
} finally {
  db.close();
  await lectern.close();
}
