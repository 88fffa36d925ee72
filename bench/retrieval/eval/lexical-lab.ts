// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The keyword side under several settings at once, through the store itself (issue 25, round 10):
 *   npx tsx bench/retrieval/eval/lexical-lab.ts --sets planning-dev,planning-heldout6 \
 *     --configs '[{},{"fieldWeights":{"title":1}},{"header":0}]' [--ids h6-05,...] [--project application_docs]
 * For every question: the store's keyword candidates (100, `searchKeyword`) under each config (FIELD_WEIGHTS,
 * PHRASE_CREDIT, HEADER_CREDIT and SHORT_CHUNK_DAMPING set for the call, then restored), fused with the
 * dense candidates `fusion-trace.ts` recorded (run it first) by `fuse` under FUSION_DEFAULTS, cut to distinct texts
 * and scored as `fusion-sim.ts` does; prints keyword-only and hybrid figures per config, and with `--ids` the first
 * document per config. Query time only: the newest cached store, read-only. Two offline re-scorings of the keyword
 * list (not in the store; round 10, tried and dropped): `docEvidence` (w x the document's other candidates' scores:
 * `docMode` second best, mean or sum of the next three, or a count) and `fieldCredit` (title / section taken out of
 * bm25() and added as w x the summed IDF of the query stems each holds, as the running-header credit is).
 */
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { eng } from 'stopword';
import { stemmer } from 'stemmer';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveProject } from '@lectern/document-store';
import {
  FIELD_WEIGHTS,
  HEADER_CREDIT,
  PHRASE_CREDIT,
  SHORT_CHUNK_DAMPING,
  FUSION_DEFAULTS,
  fuse,
  type FusionParams,
} from '@lectern/vector-store';
import { openPlanningLectern, SPEC000_PROJECT } from './lectern.js';
import { meanScores, scoreQuestion, type Hit, type QuestionScore } from './metrics.js';
import { traceHit, traceJudgment } from './fusion-sim.js';
import type { TraceHit, TraceQuestion } from './fusion-trace.js';

interface Config {
  label?: string;
  fieldWeights?: Partial<Record<'text' | 'title' | 'section' | 'codes', number>>;
  phrase?: number;
  header?: number;
  damping?: number;
  /** Offline: a keyword candidate gains w x its document's evidence from its other candidates (`docMode`). */
  docEvidence?: number;
  docMode?: 'second' | 'mean3' | 'count' | 'sum3' | 'apart';
  /** Offline (round 11): the title and section fields' share capped: score <= (1 + c) x the text-only score. */
  fieldCap?: number;
  /** `docMode: 'apart'`: chunks within this many chunk indexes of the candidate are no evidence (default 1). */
  apart?: number;
  /** Round 11: the candidate depth per side before fusion (at most the traced 100 dense). */
  depth?: number;
  /** Offline: title / section as a credit outside bm25(): + w x the summed IDF of the distinct query stems each holds. */
  fieldCredit?: { title?: number; section?: number };
  fusion?: Partial<FusionParams>;
}

const { values } = parseArgs({
  options: {
    sets: { type: 'string', default: 'planning-dev' },
    configs: { type: 'string', default: '[{}]' },
    ids: { type: 'string' },
    project: { type: 'string', default: SPEC000_PROJECT },
    /** Round 12: per-question scores of every config (keyword and hybrid) as JSON, for `fusion-cells.ts`. */
    out: { type: 'string' },
  },
});
const configs = JSON.parse(values.configs as string) as Config[];
const only = values.ids ? new Set((values.ids as string).split(',')) : null;

const saved = {
  fw: { ...FIELD_WEIGHTS },
  phrase: PHRASE_CREDIT.weight,
  header: HEADER_CREDIT.weight,
  damping: SHORT_CHUNK_DAMPING.exponent,
};
const apply = (c: Config): void => {
  Object.assign(FIELD_WEIGHTS as Record<string, number>, saved.fw, c.fieldWeights ?? {});
  (PHRASE_CREDIT as { weight: number }).weight = c.phrase ?? saved.phrase;
  (HEADER_CREDIT as { weight: number }).weight = c.header ?? saved.header;
  (SHORT_CHUNK_DAMPING as { exponent: number }).exponent = c.damping ?? saved.damping;
};

const lectern = await openPlanningLectern((m) => process.stderr.write(`${m}\n`));
const { deps } = lectern;
const keys = lectern.record.docKeys;
const info = (await resolveProject(deps, values.project as string))?.info;
if (!info) throw new Error(`no project ${values.project}`);

const db = new Database(join(lectern.dataDir, 'vectors', 'vectors.sqlite'), { readonly: true });
const cidOf = (
  db.prepare(`SELECT rowid AS cid FROM vs_collections WHERE name IN (?, ?)`).get(info.name, `lectern_${info.name}`) as {
    cid: number;
  }
).cid;
const STOP = new Set(eng);
const stemSet = (t: string): Set<string> =>
  new Set((t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => stemmer(w)));
const fieldsOf = new Map<string, { title: Set<string>; section: Set<string> }>();
const df = new Map<string, number>();
for (const r of db
  .prepare(
    `SELECT p.id AS id, c.text AS text, c.title AS title, c.section AS section FROM vs_points_${cidOf} p JOIN vs_chunks_${cidOf} c ON c.rid = p.rid`,
  )
  .all() as Array<{ id: string; text: string; title: string; section: string }>) {
  fieldsOf.set(r.id, { title: stemSet(r.title), section: stemSet(r.section) });
  for (const t of stemSet(`${r.text} ${r.title} ${r.section}`)) df.set(t, (df.get(t) ?? 0) + 1);
}
const N = fieldsOf.size;
const idf = (t: string): number => {
  const n = df.get(t) ?? 0;
  return Math.max(1e-6, Math.log((N - n + 0.5) / (n + 0.5)));
};
/** The store's query words (libs/vector-store `queryTerms`: content words, stopwords only when nothing else is left). */
const queryTerms = (text: string, max: number): string[] => {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  const content = words.filter((w) => !STOP.has(w));
  return (content.length > 0 ? content : words).slice(0, max);
};
const f = (s: QuestionScore): string => [s.ndcg10, s.hit1, s.answer5, s.mrr].map((x) => x.toFixed(3)).join(' / ');
const dump: Record<
  string,
  { ids: string[]; configs: Record<string, { keyword: QuestionScore[]; hybrid: QuestionScore[] }> }
> = {};
for (const set of (values.sets as string).split(',')) {
  const qs = (
    JSON.parse(
      readFileSync(join(tmpdir(), 'lectern-fusion-trace', `${set}-${values.project as string}.json`), 'utf8'),
    ) as { questions: TraceQuestion[] }
  ).questions;
  const kw = configs.map(() => [] as QuestionScore[]);
  const hy = configs.map(() => [] as QuestionScore[]);
  let cpu = configs.map(() => 0);
  for (const q of qs) {
    const judgment = traceJudgment(q);
    const byId = new Map<string, TraceHit>(q.dense.map((h) => [h.id, h]));
    const chunkAt = new Map<string, number>();
    const line: string[] = [];
    for (const [i, c] of configs.entries()) {
      apply(c);
      const t0 = process.cpuUsage();
      const depth = c.depth ?? FUSION_DEFAULTS.candidates;
      const found = await deps.store.searchKeyword(info.name, q.text, { limit: depth });
      let textOnly: Map<string, number> | null = null;
      if (c.fieldCap !== undefined) {
        Object.assign(FIELD_WEIGHTS as Record<string, number>, { title: 0, section: 0 });
        const t = await deps.store.searchKeyword(info.name, q.text, { limit: 2 * depth });
        textOnly = new Map(t.map((h) => [h.id, h.score]));
        apply(c);
      }
      const t1 = process.cpuUsage(t0);
      cpu = cpu.map((x, j) => (j === i ? x + (t1.user + t1.system) / 1000 : x));
      let keyword = found.map((h) => {
        const p = h.payload;
        const docId = String(p['document_id'] ?? p['doc_id'] ?? '');
        const pages = String(p['page_numbers'] ?? '')
          .split(',')
          .map(Number)
          .filter((n) => Number.isInteger(n) && n > 0);
        const doc = keys[docId] ?? docId;
        // spec 000 payloads carry `page_numbers`, spec 004's `page_start` / `page_end` (as fusion-trace reads them).
        const ps = typeof p['page_start'] === 'number' ? p['page_start'] : null;
        const pe = typeof p['page_end'] === 'number' ? p['page_end'] : ps;
        const hit: Hit = {
          doc,
          pageStart: pages.length ? Math.min(...pages) : ps,
          pageEnd: pages.length ? Math.max(...pages) : pe,
          text: h.text,
        };
        const key = h.text.toLowerCase().replace(/\s+/g, ' ').trim();
        chunkAt.set(h.id, Number(p['chunk_index'] ?? NaN));
        const floorText = textOnly ? Math.min(...textOnly.values()) : 0;
        const th: TraceHit = {
          id: h.id,
          score: textOnly ? Math.min(h.score, (1 + (c.fieldCap ?? 0)) * (textOnly.get(h.id) ?? floorText)) : h.score,
          doc,
          pageStart: hit.pageStart,
          pageEnd: hit.pageEnd,
          answer: scoreQuestion([hit], judgment).mrr === 1,
          textKey: key,
        };
        if (!byId.has(h.id)) byId.set(h.id, th);
        return th;
      });
      if (textOnly)
        keyword = keyword
          .map((h, j) => ({ h, j }))
          .sort((a, b) => b.h.score - a.h.score || a.j - b.j)
          .map((x) => x.h);
      if (c.fieldCredit) {
        const stems = [...new Set(queryTerms(q.text, 64).map((w) => stemmer(w)))];
        const wt = c.fieldCredit.title ?? 0;
        const ws = c.fieldCredit.section ?? 0;
        keyword = keyword
          .map((h, j) => {
            const fl = fieldsOf.get(h.id);
            const e = fl
              ? wt * stems.filter((t) => fl.title.has(t)).reduce((a, t) => a + idf(t), 0) +
                ws * stems.filter((t) => fl.section.has(t)).reduce((a, t) => a + idf(t), 0)
              : 0;
            return { h: { ...h, score: h.score + e }, j };
          })
          .sort((a, b) => b.h.score - a.h.score || a.j - b.j)
          .map((x) => x.h);
      }
      if (c.docEvidence) {
        const byDoc = new Map<string, number[]>();
        for (const h of keyword) byDoc.set(h.doc, [...(byDoc.get(h.doc) ?? []), h.score]);
        const w = c.docEvidence;
        const top = keyword[0]?.score ?? 1;
        keyword = keyword
          .map((h, j) => {
            const others = [...(byDoc.get(h.doc) ?? [])];
            others.splice(others.indexOf(h.score), 1);
            let e = 0;
            if (c.docMode === 'apart') {
              const at = chunkAt.get(h.id) ?? NaN;
              e = Math.max(
                0,
                ...keyword
                  .filter(
                    (o) =>
                      o.doc === h.doc &&
                      o.id !== h.id &&
                      !(Math.abs((chunkAt.get(o.id) ?? NaN) - at) <= (c.apart ?? 1)),
                  )
                  .map((o) => o.score),
              );
            } else if (c.docMode === 'second' || !c.docMode) e = others[0] ?? 0;
            else if (c.docMode === 'mean3') e = others.slice(0, 3).reduce((a, b) => a + b, 0) / 3;
            else if (c.docMode === 'sum3') e = others.slice(0, 3).reduce((a, b) => a + b, 0);
            else if (c.docMode === 'count') e = (top * Math.log(1 + others.length)) / Math.log(101);
            return { h: { ...h, score: h.score + w * e }, j };
          })
          .sort((a, b) => b.h.score - a.h.score || a.j - b.j)
          .map((x) => x.h);
      }
      const p: FusionParams = { ...FUSION_DEFAULTS, ...(c.fusion ?? {}) } as FusionParams;
      const lists = {
        keyword: keyword.map((h) => h.id),
        hybrid: fuse(q.dense.slice(0, c.depth ?? q.dense.length), keyword, p, 20).map((x) => x.id),
      };
      const kwById = new Map(keyword.map((h) => [h.id, h]));
      for (const [name, order] of Object.entries(lists)) {
        const seen = new Set<string>();
        const hits: Hit[] = [];
        for (const id of order) {
          const h = kwById.get(id) ?? byId.get(id);
          if (!h) continue;
          const k = kwById.get(id)?.textKey ?? h.textKey;
          if (seen.has(k)) continue;
          seen.add(k);
          hits.push(traceHit(q, h));
          if (hits.length === 10) break;
        }
        const s = scoreQuestion(hits, judgment);
        (name === 'keyword' ? kw : hy)[i]?.push(s);
        if (only?.has(q.id) && name === 'hybrid')
          line.push(
            `  ${(c.label ?? JSON.stringify(c)).slice(0, 60).padEnd(60)} hy h1 ${s.hit1} a5 ${s.answer5} | first ${hits[0]?.doc.slice(0, 8)}`,
          );
      }
    }
    if (line.length) process.stdout.write(`${q.id} ${q.text} [right ${q.docs[0]?.slice(0, 8)}]\n${line.join('\n')}\n`);
  }
  process.stdout.write(
    `\n## ${set} (${qs.length}) nDCG@10 / hit@1 / answer@5 / MRR — keyword | hybrid | keyword CPU ms/q\n`,
  );
  dump[set] = {
    ids: qs.map((q) => q.id),
    configs: Object.fromEntries(
      configs.map((c, i) => [c.label ?? JSON.stringify(c), { keyword: kw[i] ?? [], hybrid: hy[i] ?? [] }]),
    ),
  };
  configs.forEach((c, i) =>
    process.stdout.write(
      `${(c.label ?? JSON.stringify(c)).slice(0, 60).padEnd(60)} ${f(meanScores(kw[i] ?? []))} | ${f(meanScores(hy[i] ?? []))} | ${((cpu[i] ?? 0) / qs.length).toFixed(1)}\n`,
    ),
  );
}
apply({});
if (values.out) writeFileSync(values.out as string, JSON.stringify(dump));
await lectern.close();
