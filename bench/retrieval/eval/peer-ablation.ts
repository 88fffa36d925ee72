// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * What the BM25 peer has that spec 000's keyword side lacks (issue 25, round 10):
 *   npx tsx bench/retrieval/eval/peer-ablation.ts --sets planning-dev,planning-heldout6 [--variants a,b] [--ids x,y]
 * The peer's own BM25 (`bench/embedding/bm25.ts`: k1 1.2, b 0.75, unstemmed tokens, one text field) run over other
 * units and fields, offline: PyMuPDF 800-character page windows (the peer itself), spec 000's stored chunks (the
 * newest cached store's SQLite file) as text only, with the title and section path appended, with the running
 * header appended, and the windows with the title appended. Each ranked list is cut to distinct texts (as
 * `search_application_docs` does) and scored with the eval's `scoreQuestion`. Tells the unit (window vs chunk) from
 * the fields (title, section, header) from the tokenizer, on the same questions.
 */
import { parseArgs } from 'node:util';
import { corpusFile } from '@lectern/testing';
import { Bm25 } from '../../embedding/bm25.js';
import { openPlanningLectern, openStoreCollection } from './lectern.js';
import { meanScores, scoreQuestion, type Hit, type Judgment, type QuestionScore } from './metrics.js';
import { listPdfs, pageWindows, pymupdfPages } from './pdf-text.js';
import { loadSet, type SetName } from './sets.js';
import { eng } from 'stopword';
import { stemmer } from 'stemmer';

const { values } = parseArgs({
  options: {
    sets: { type: 'string', default: 'planning-dev' },
    variants: { type: 'string' },
    ids: { type: 'string' },
  },
});

interface Unit {
  hit: Hit;
  text: string;
}

const lectern = await openPlanningLectern((m) => process.stderr.write(`${m}\n`));
const { db, cid } = openStoreCollection(lectern.dataDir, 'application_docs');
const rows = db
  .prepare(
    `SELECT json(p.payload) AS payload, c.text AS text, c.title AS title, c.section AS section
     FROM vs_points_${cid} p JOIN vs_chunks_${cid} c ON c.rid = p.rid ORDER BY p.rid`,
  )
  .all() as Array<{ payload: string; text: string; title: string; section: string }>;
const keys = lectern.record.docKeys;
const chunks = rows.map((r) => {
  const p = JSON.parse(r.payload) as Record<string, unknown>;
  const pages = String(p['page_numbers'] ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const doc = keys[p['document_id'] as string] ?? String(p['document_id']);
  return {
    hit: { doc, pageStart: Math.min(...pages), pageEnd: Math.max(...pages), text: r.text } as Hit,
    title: r.title,
    section: r.section,
    header: typeof p['running_header'] === 'string' ? (p['running_header'] as string) : '',
  };
});
const pdfs = listPdfs(corpusFile('uk-planning-policy'));
const windows = pageWindows((await pymupdfPages(pdfs)).docs, 800);
const titleOfDoc = new Map(chunks.map((c) => [c.hit.doc, c.title]));

const VARIANTS: Record<string, Unit[]> = {
  peer: windows.map((w) => ({ hit: { doc: w.doc, pageStart: w.page, pageEnd: w.page, text: w.text }, text: w.text })),
  'peer+title': windows.map((w) => ({
    hit: { doc: w.doc, pageStart: w.page, pageEnd: w.page, text: w.text },
    text: `${titleOfDoc.get(w.doc) ?? ''} ${w.text}`,
  })),
  chunks: chunks.map((c) => ({ hit: c.hit, text: c.hit.text })),
  'chunks+title': chunks.map((c) => ({ hit: c.hit, text: `${c.title} ${c.hit.text}` })),
  'chunks+section': chunks.map((c) => ({ hit: c.hit, text: `${c.section} ${c.hit.text}` })),
  'chunks+title+section': chunks.map((c) => ({ hit: c.hit, text: `${c.title} ${c.section} ${c.hit.text}` })),
  'chunks+header': chunks.map((c) => ({ hit: c.hit, text: `${c.header} ${c.hit.text}` })),
};
// The store's tokens (Porter stems of unicode words, the eng stopword list on the query side) in the peer's BM25.
const STOP = new Set(eng);
const stemTokens = (t: string): string[] =>
  (t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w)).map((w) => stemmer(w));
const stemmed = (units: Unit[]): Unit[] => units.map((u) => ({ hit: u.hit, text: stemTokens(u.text).join(' ') }));
VARIANTS['chunks-stem'] = stemmed(VARIANTS['chunks'] as Unit[]);
VARIANTS['chunks+title-stem'] = stemmed(VARIANTS['chunks+title'] as Unit[]);
VARIANTS['peer-stem'] = stemmed(VARIANTS['peer'] as Unit[]);
const chosen = values.variants ? (values.variants as string).split(',') : Object.keys(VARIANTS);
const indexes = new Map(
  chosen.map((v) => {
    const units = VARIANTS[v];
    if (!units) throw new Error(`no variant ${v}`);
    return [
      v,
      {
        units,
        bm25: new Bm25(
          units.map((_, i) => String(i)),
          units.map((u) => u.text),
        ),
      },
    ];
  }),
);
const distinct = (hits: Hit[]): Hit[] => {
  const seen = new Set<string>();
  return hits.filter((h) => {
    const k = h.text.toLowerCase().replace(/\s+/g, ' ').trim();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};
const pathKey = new Map(pdfs.map((p) => [p.rel, p.hash]));
const name = new Map(pdfs.map((p) => [p.hash, p.rel.split('/').pop() as string]));
const f = (s: QuestionScore): string => [s.ndcg10, s.hit1, s.answer5, s.mrr].map((x) => x.toFixed(3)).join(' / ');
const only = values.ids ? new Set((values.ids as string).split(',')) : null;
for (const setName of (values.sets as string).split(',')) {
  const set = loadSet(setName as SetName);
  const per = new Map<string, QuestionScore[]>();
  for (const q of set.queries) {
    const j: Judgment = {
      docs: new Set(q.docs.map((d) => pathKey.get(d) ?? d)),
      ...(q.page !== undefined ? { page: q.page } : {}),
      ...(q.keyPhrase !== undefined ? { keyPhrase: q.keyPhrase } : {}),
    };
    const line: string[] = [];
    for (const [v, { units, bm25 }] of indexes) {
      const query = v.endsWith('-stem') ? stemTokens(q.text).join(' ') : q.text;
      const ranked = distinct(bm25.search(query, 40).map((r) => (units[Number(r.id)] as Unit).hit)).slice(0, 10);
      const s = scoreQuestion(ranked, j);
      per.set(v, [...(per.get(v) ?? []), s]);
      if (only?.has(q.id))
        line.push(
          `  ${v.padEnd(22)} h1 ${s.hit1} a5 ${s.answer5} | first ${short(name.get(ranked[0]?.doc ?? '') ?? '-')}`,
        );
    }
    if (line.length) process.stdout.write(`${q.id} ${q.text}\n${line.join('\n')}\n`);
  }
  process.stdout.write(`\n## ${setName} (${set.queries.length}) nDCG@10 / hit@1 / answer@5 / MRR\n`);
  for (const [v, s] of per) process.stdout.write(`${v.padEnd(22)} ${f(meanScores(s))}\n`);
}
function short(s: string): string {
  return s.slice(0, 40);
}
db.close();
await lectern.close();
