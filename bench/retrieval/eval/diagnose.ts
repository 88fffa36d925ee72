// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * What each system returned for chosen questions (the tuning loop's microscope):
 *   npx tsx bench/retrieval/eval/diagnose.ts --set planning-dev --ids dev-03,dev-12 [--systems sad-hybrid,bm25-peer]
 * Uses the newest cached store (like --reuse-index). Prints, per question and system, the top 5: document file,
 * page span, whether answer-bearing, and the start of the text.
 */
import { parseArgs } from 'node:util';
import { corpusFile } from '@lectern/testing';
import { PLANNING_PROJECT, SPEC000_PROJECT, openPlanningLectern, spec000Hits, spec004Hits } from './lectern.js';
import { answerBearing, type Hit } from './metrics.js';
import { listPdfs, pageWindows, pymupdfPages } from './pdf-text.js';
import { bm25Peer } from './peers.js';
import { loadSet, type SetName } from './sets.js';

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'planning-dev' },
    ids: { type: 'string' },
    systems: { type: 'string', default: 'sad-hybrid,sad-keyword,bm25-peer' },
    k: { type: 'string', default: '5' },
  },
});
const set = loadSet(values.set as SetName);
const ids = values.ids ? new Set(values.ids.split(',')) : null;
const k = Number(values.k);
const lectern = await openPlanningLectern();
const pdfs = listPdfs(corpusFile('uk-planning-policy'));
const name = new Map(pdfs.map((p) => [p.hash, p.rel.split('/').pop() as string]));
const keys = lectern.record.docKeys;
const { docs } = await pymupdfPages(pdfs);
const bm25 = bm25Peer(pageWindows(docs, 800));
const systems = (values.systems as string).split(',');
const ask = async (s: string, q: string): Promise<Hit[]> => {
  const sad = s.startsWith('sad-');
  if (sad)
    return spec000Hits(
      await lectern.call('search_application_docs', {
        query: q,
        max_results: 10,
        search_mode: s.slice(4),
        project: SPEC000_PROJECT,
      }),
      keys,
    );
  if (s === 'bm25-peer') return bm25.search(q, 10);
  const extra = s === 'query_hybrid-keyword' ? { dense_weight: 0, keyword_weight: 1 } : {};
  const tool = s === 'find_chunks' ? 'find_chunks' : 'query_hybrid';
  return spec004Hits(
    await lectern.call(tool, { project: PLANNING_PROJECT, query: q, top_k: 10, max_chars: 20_000, ...extra }),
    keys,
  );
};
try {
  const byRel = new Map(pdfs.map((p) => [p.rel, p.hash]));
  for (const q of set.queries) {
    if (ids && !ids.has(q.id)) continue;
    const j = { docs: new Set(q.docs.map((d) => byRel.get(d) as string)), page: q.page, keyPhrase: q.keyPhrase };
    process.stdout.write(
      `\n## ${q.id} ${q.text}\n   want ${q.docs[0]?.split('/').pop()} p${q.page} "${q.keyPhrase}"\n`,
    );
    for (const s of systems) {
      const hits = await ask(s, q.text);
      process.stdout.write(`  ${s}\n`);
      hits.slice(0, k).forEach((h, i) => {
        const mark = answerBearing(h, j as never) ? '**' : j.docs.has(h.doc) ? ' d' : '  ';
        process.stdout.write(
          `   ${mark}${i + 1} ${name.get(h.doc)?.slice(0, 40)} p${h.pageStart}-${h.pageEnd} (${h.text.length}c) ${h.text.slice(0, 90).replace(/\s+/g, ' ')}\n`,
        );
      });
    }
  }
} finally {
  await lectern.close();
}
