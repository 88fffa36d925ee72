// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The candidate lists fusion sees, per question (issue 25, round 8: which signal moved the right chunk down):
 *   npx tsx bench/retrieval/eval/fusion-trace.ts --set planning-dev [--project application_docs|planning] [--out f]
 * Opens the newest cached store (like --reuse-index), and for every question of the set asks the store itself (not
 * the MCP tool) for the dense and the keyword candidates the hybrid search fuses (100 each: `FUSION_DEFAULTS`'s
 * pool), with each candidate's document, page span and whether it holds the key phrase. Writes them as JSON
 * (default `$TMPDIR/lectern-fusion-trace/<set>-<project>.json`) for `fusion-sim.ts`, which fuses them offline.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { corpusFile, sharedModelDir } from '@lectern/testing';
import { resolveProject } from '@lectern/document-store';
import { FUSION_DEFAULTS } from '@lectern/vector-store';
import { SCIFACT_PROJECT, SPEC000_PROJECT, openLectern } from './lectern.js';
import { answerBearing, normalise, type Hit, type Judgment } from './metrics.js';
import { listPdfs } from './pdf-text.js';
import { loadSet, type SetName } from './sets.js';

/** One candidate: its id, the engine's score, and what the metrics need of it (the text only as "holds the phrase"). */
export interface TraceHit {
  id: string;
  score: number;
  doc: string;
  pageStart: number | null;
  pageEnd: number | null;
  /** Holds the key phrase on the answer page of the right document (planning) — `answerBearing`. */
  answer: boolean;
  /** `distinctText`'s key, hashed to its length and a prefix (copies of one text share it). */
  textKey: string;
}

export interface TraceQuestion {
  id: string;
  text: string;
  docs: string[];
  page?: number;
  keyPhrase?: string;
  dense: TraceHit[];
  keyword: TraceHit[];
}

if (process.argv[1]?.endsWith('fusion-trace.ts')) {
  const { values } = parseArgs({
    options: { set: { type: 'string', default: 'planning-dev' }, project: { type: 'string' }, out: { type: 'string' } },
  });
  const set = loadSet(values.set as SetName);
  const planning = set.corpus === 'uk-planning-policy';
  const project = values.project ?? (planning ? SPEC000_PROJECT : SCIFACT_PROJECT);
  const lectern = await openLectern({
    corpus: set.corpus,
    model: 'potion-base-2M',
    modelDir: sharedModelDir('potion-base-2M'),
    reuseIndex: true,
    log: (m) => process.stderr.write(`${m}\n`),
  });
  try {
    const { deps } = lectern;
    const keys = lectern.record.docKeys;
    const pathKey = planning
      ? new Map(listPdfs(corpusFile('uk-planning-policy')).map((p) => [p.rel, p.hash]))
      : new Map<string, string>();
    const info = (await resolveProject(deps, project))?.info;
    if (!info) throw new Error(`no project ${project}`);
    const embedder = await deps.embedders.for(info.fingerprint);
    const k = FUSION_DEFAULTS.candidates;
    const out: TraceQuestion[] = [];
    for (const q of set.queries) {
      const docs = q.docs.map((d) => pathKey.get(d) ?? d);
      const j: Judgment = {
        docs: new Set(docs),
        ...(q.page !== undefined ? { page: q.page } : {}),
        ...(q.keyPhrase !== undefined ? { keyPhrase: q.keyPhrase } : {}),
      };
      const vector = await embedder.embed(q.text);
      const toTrace = (h: { id: string; score: number; text: string; payload: Record<string, unknown> }): TraceHit => {
        const p = h.payload;
        const docId = String(p['document_id'] ?? p['doc_id'] ?? '');
        const pages = String(p['page_numbers'] ?? '')
          .split(',')
          .map(Number)
          .filter((n) => Number.isInteger(n) && n > 0);
        const ps = typeof p['page_start'] === 'number' ? p['page_start'] : null;
        const pe = typeof p['page_end'] === 'number' ? p['page_end'] : ps;
        const hit: Hit = {
          doc: keys[docId] ?? docId,
          pageStart: pages.length ? Math.min(...pages) : ps,
          pageEnd: pages.length ? Math.max(...pages) : pe,
          text: h.text,
        };
        const key = h.text.toLowerCase().replace(/\s+/g, ' ').trim();
        return {
          id: h.id,
          score: h.score,
          doc: hit.doc,
          pageStart: hit.pageStart,
          pageEnd: hit.pageEnd,
          answer: planning ? answerBearing(hit, j) : j.docs.has(hit.doc),
          textKey: `${key.length}:${normalise(key).slice(0, 120)}`,
        };
      };
      const dense = await deps.store.searchDense(info.name, vector, { fingerprint: info.fingerprint, limit: k });
      const keyword = await deps.store.searchKeyword(info.name, q.text, { limit: k });
      out.push({
        id: q.id,
        text: q.text,
        docs,
        ...(q.page !== undefined ? { page: q.page } : {}),
        ...(q.keyPhrase !== undefined ? { keyPhrase: q.keyPhrase } : {}),
        dense: dense.map((h) => toTrace(h as never)),
        keyword: keyword.map((h) => toTrace(h as never)),
      });
    }
    const file = values.out ?? join(tmpdir(), 'lectern-fusion-trace', `${values.set}-${project}.json`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ set: values.set, project, questions: out }));
    process.stderr.write(`wrote ${file} (${out.length} questions)\n`);
  } finally {
    await lectern.close();
  }
}
