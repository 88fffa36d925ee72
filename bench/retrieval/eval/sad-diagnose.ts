// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Why spec 000's search_application_docs misses what the BM25 peer finds (issue 25, round 9):
 *   npx tsx bench/retrieval/eval/sad-diagnose.ts --sets planning-heldout,planning-heldout4 [--ids h4-01,...] [--k 5]
 * For each question where the peer beats `sad-hybrid` on hit@1 or answer@5 (read from `results/<set>.json`, or the
 * listed ids): the right document's spec 000 chunks on the answer page (length, title, section, whether they hold the
 * key phrase, or the phrase straddles two consecutive chunks), the answer chunk's rank in the keyword and dense
 * candidate lists and in the fused order, and the keyword top k with each candidate's document, length and the
 * weighted bm25() of each field alone. Reads the newest cached store's SQLite file and the traces `fusion-trace.ts`
 * wrote (run it first for each set).
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { corpusFile } from '@lectern/testing';
import { openPlanningLectern, openStoreCollection } from './lectern.js';
import { normalise } from './metrics.js';
import { listPdfs, pageWindows, pymupdfPages } from './pdf-text.js';
import { bm25Peer } from './peers.js';
import { eng } from 'stopword';
import { stemmer } from 'stemmer';
import { rankedFor } from './fusion-sim.js';
import type { TraceQuestion } from './fusion-trace.js';

const { values } = parseArgs({
  options: {
    sets: { type: 'string', default: 'planning-heldout' },
    ids: { type: 'string' },
    k: { type: 'string', default: '5' },
  },
});
const k = Number(values.k);
const lectern = await openPlanningLectern((m) => process.stderr.write(`${m}\n`));
const { db, cid } = openStoreCollection(lectern.dataDir, 'application_docs');
interface Chunk {
  id: string;
  rid: number;
  doc: string;
  idx: number;
  pages: number[];
  text: string;
  title: string;
  section: string;
}
const rows = db
  .prepare(
    `SELECT p.id AS id, p.rid AS rid, json(p.payload) AS payload, c.text AS text, c.title AS title, c.section AS section
     FROM vs_points_${cid} p JOIN vs_chunks_${cid} c ON c.rid = p.rid`,
  )
  .all() as Array<{ id: string; rid: number; payload: string; text: string; title: string; section: string }>;
const keys = lectern.record.docKeys;
const byDoc = new Map<string, Chunk[]>();
const byId = new Map<string, Chunk>();
for (const r of rows) {
  const p = JSON.parse(r.payload) as Record<string, unknown>;
  const doc = keys[p['document_id'] as string] ?? (p['document_id'] as string);
  const pages = String(p['page_numbers'] ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const c: Chunk = {
    id: r.id,
    rid: r.rid,
    doc,
    idx: Number(p['chunk_index'] ?? 0),
    pages,
    text: r.text,
    title: r.title,
    section: r.section,
  };
  byId.set(r.id, c);
  const list = byDoc.get(doc) ?? [];
  list.push(c);
  byDoc.set(doc, list);
}
for (const l of byDoc.values()) l.sort((a, b) => a.idx - b.idx);
const lens = rows.map((r) => r.text.length).sort((a, b) => a - b);
const mean = lens.reduce((a, b) => a + b, 0) / lens.length;
process.stdout.write(
  `spec 000 chunks ${rows.length}; chars mean ${mean.toFixed(0)}, median ${lens[lens.length >> 1]}, <100 ${lens.filter((l) => l < 100).length}, <200 ${lens.filter((l) => l < 200).length}, max ${lens[lens.length - 1]}\n`,
);
const pdfs = listPdfs(corpusFile('uk-planning-policy'));
const name = new Map(pdfs.map((p) => [p.hash, p.rel.split('/').pop() as string]));
const peer = bm25Peer(pageWindows((await pymupdfPages(pdfs)).docs, 800));
const STOP = new Set(eng);
/** The query's content words as Porter stems. */
const stems = (s: string): Set<string> =>
  new Set((s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w)).map((w) => stemmer(w)));
/** Which of the query's stems a text holds. */
const held = (q: Set<string>, text: string): string[] => {
  const t = stems(text);
  return [...q].filter((w) => t.has(w));
};

/** bm25() with every column weight 0 but one: what one field contributes to a candidate (FTS5 MATCH of the words). */
const fieldScore = (rid: number, match: string, w: number[]): number => {
  try {
    const r = db
      .prepare(
        `SELECT bm25(vs_fts_${cid}, ${w.join(',')}) AS s FROM vs_fts_${cid} WHERE vs_fts_${cid} MATCH ? AND rowid + 0 = ?`,
      )
      .get(match, rid) as { s: number } | undefined;
    return r ? -r.s : 0;
  } catch {
    return NaN;
  }
};
const words = (q: string): string =>
  [...new Set(q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])]
    .filter((t) => t.length > 2)
    .map((t) => `"${t}"`)
    .join(' OR ');

const short = (s: string, n = 70): string => s.replace(/\s+/g, ' ').slice(0, n);
for (const set of (values.sets as string).split(',')) {
  const qs = (
    JSON.parse(readFileSync(join(tmpdir(), 'lectern-fusion-trace', `${set}-application_docs.json`), 'utf8')) as {
      questions: TraceQuestion[];
    }
  ).questions;
  let ids: Set<string>;
  if (values.ids) ids = new Set((values.ids as string).split(','));
  else {
    const res = JSON.parse(readFileSync(new URL(`./results/${set}.json`, import.meta.url), 'utf8')) as {
      results: Array<{ system: string; per_query: Array<{ id: string; hit1: number; answer5: number }> }>;
    };
    const per = (s: string) => new Map(res.results.find((r) => r.system === s)?.per_query.map((q) => [q.id, q]));
    const sh = per('sad-hybrid');
    const pe = per('bm25-peer');
    ids = new Set(
      [...sh.keys()].filter((i) => {
        const a = sh.get(i) as { hit1: number; answer5: number };
        const b = pe.get(i) as { hit1: number; answer5: number };
        return b.hit1 > a.hit1 || b.answer5 > a.answer5;
      }),
    );
  }
  process.stdout.write(`\n## ${set}: ${ids.size} questions\n`);
  for (const q of qs.filter((x) => ids.has(x.id))) {
    const doc = q.docs[0] as string;
    const kp = normalise(q.keyPhrase ?? '');
    const chunks = byDoc.get(doc) ?? [];
    const onPage = chunks.filter((c) => c.pages.includes(q.page ?? -1));
    const holding = chunks.filter((c) => normalise(c.text).includes(kp));
    let straddle = '';
    if (!holding.length)
      for (let i = 0; i + 1 < chunks.length; i++) {
        const a = chunks[i] as Chunk;
        const b = chunks[i + 1] as Chunk;
        if (normalise(`${a.text} ${b.text}`).includes(kp)) straddle = ` straddles #${a.idx}/#${b.idx}`;
      }
    const fused = rankedFor(q, {});
    const rank = (l: Array<{ id: string; answer: boolean }>) => l.findIndex((h) => h.answer) + 1 || '-';
    const docRank = (l: Array<{ doc: string }>) => l.findIndex((h) => h.doc === doc) + 1 || '-';
    process.stdout.write(
      `\n${q.id} [${name.get(doc) ?? doc} p${q.page}] ${q.text}\n  key "${q.keyPhrase}"; doc chunks ${chunks.length}, on page ${onPage.length}, holding phrase anywhere ${holding.length} (${holding
        .map((c) => `#${c.idx} p${c.pages.join('-')} ${c.text.length}ch`)
        .join(
          ', ',
        )})${straddle}\n  answer rank: keyword ${rank(q.keyword)}, dense ${rank(q.dense)}, fused ${rank(fused)}; right doc first at keyword ${docRank(q.keyword)}, fused ${docRank(fused)}\n`,
    );
    const qs0 = stems(q.text);
    const ph = await peer.search(q.text, 10);
    const pa = ph.findIndex((h) => h.doc === doc && h.pageStart === q.page && normalise(h.text).includes(kp));
    const ans = holding.find((c) => c.pages.includes(q.page ?? -1)) ?? holding[0];
    const nb = ans
      ? chunks
          .filter((c) => Math.abs(c.idx - ans.idx) <= 1)
          .map((c) => c.text)
          .join(' ')
      : '';
    process.stdout.write(
      `  query stems ${qs0.size} [${[...qs0].join(' ')}]; held by: peer answer window (rank ${pa + 1 || '-'}) ${pa >= 0 ? held(qs0, (ph[pa] as { text: string }).text).length : '-'}, answer chunk ${ans ? `${held(qs0, ans.text).length} [${held(qs0, ans.text).join(' ')}]` : '-'}, with its neighbours ${ans ? held(qs0, nb).length : '-'}, its title+section ${ans ? held(qs0, `${ans.title} ${ans.section}`).length : '-'}\n`,
    );
    const m = words(q.text);
    const show = (id: string, tag: string) => {
      const c = byId.get(id);
      if (!c) return;
      const f = [
        fieldScore(c.rid, m, [1, 0, 0, 0]),
        fieldScore(c.rid, m, [0, 2, 0, 0]),
        fieldScore(c.rid, m, [0, 0, 1.5, 0]),
        fieldScore(c.rid, m, [0, 0, 0, 1.5]),
      ].map((x) => x.toFixed(2));
      const ans = q.keyword.find((h) => h.id === id)?.answer || q.dense.find((h) => h.id === id)?.answer;
      process.stdout.write(
        `   ${tag} ${c.doc === doc ? (ans ? '**' : 'd ') : '  '} ${short(name.get(c.doc) ?? c.doc, 28)} p${c.pages.join('-')} ${c.text.length}ch text/title/sec/codes ${f.join('/')} | ${short(c.text)}\n`,
      );
    };
    q.keyword.slice(0, k).forEach((h, i) => show(h.id, `k${i + 1} ${h.score.toFixed(2)}`));
    const ak = q.keyword.findIndex((h) => h.answer);
    if (ak >= k)
      show((q.keyword[ak] as { id: string }).id, `k${ak + 1} ${(q.keyword[ak] as { score: number }).score.toFixed(2)}`);
    if (ak < 0)
      for (const c of holding.filter((c) => c.pages.includes(q.page ?? -1)).slice(0, 2)) show(c.id, 'ans(not kw)');
  }
}
db.close();
await lectern.close();
