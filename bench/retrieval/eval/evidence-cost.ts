// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The CPU cost of the keyword side's document evidence (issue 25, round 11), through the store itself:
 *   npx tsx bench/retrieval/eval/evidence-cost.ts --sets planning-dev,planning-heldout6 [--rounds 5]
 * Every question's hybrid search of spec 000's project (the cached store, newest; query time only), with the
 * evidence off and with `search_application_docs`' setting (SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE), alternating by
 * question and round (which goes first rotates); prints this process's CPU time (user + sys) per search for each.
 * The query vectors are embedded once, before timing.
 */
import { parseArgs } from 'node:util';
import { SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE, resolveProject } from '@lectern/document-store';
import { openPlanningLectern, SPEC000_PROJECT } from './lectern.js';
import { loadSet } from './sets.js';

const { values } = parseArgs({
  options: { sets: { type: 'string', default: 'planning-dev' }, rounds: { type: 'string', default: '5' } },
});
const lectern = await openPlanningLectern((m) => process.stderr.write(`${m}\n`));
const { deps } = lectern;
const info = (await resolveProject(deps, SPEC000_PROJECT))?.info;
if (!info) throw new Error(`no project ${SPEC000_PROJECT}`);
const embedder = await deps.embedders.for(info.fingerprint);
const settings = [
  { label: 'off', documentEvidence: 0, documentEvidenceSpan: 0 },
  {
    label: `w ${SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE.weight} span ${SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE.span}`,
    documentEvidence: SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE.weight,
    documentEvidenceSpan: SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE.span,
  },
];
for (const name of (values.sets as string).split(',')) {
  const set = loadSet(name as Parameters<typeof loadSet>[0]);
  const qs = await Promise.all(set.queries.map(async (q) => ({ text: q.text, vector: await embedder.embed(q.text) })));
  const cpu = settings.map(() => 0);
  let n = 0;
  for (let r = 0; r < Number(values.rounds); r++) {
    for (const [i, q] of qs.entries()) {
      for (let j = 0; j < settings.length; j++) {
        const k = (i + r + j) % settings.length;
        const s = settings[k] as (typeof settings)[number];
        const t0 = process.cpuUsage();
        await deps.store.searchHybrid(
          info.name,
          { vector: q.vector, text: q.text },
          {
            fingerprint: info.fingerprint,
            limit: 20,
            documentEvidence: s.documentEvidence,
            documentEvidenceSpan: s.documentEvidenceSpan,
          },
        );
        const t = process.cpuUsage(t0);
        cpu[k] = (cpu[k] ?? 0) + (t.user + t.system) / 1000;
      }
      n++;
    }
  }
  process.stdout.write(
    `${name} (${qs.length} questions x ${values.rounds as string} rounds): ${settings
      .map((s, k) => `${s.label} ${((cpu[k] ?? 0) / n).toFixed(2)} ms CPU/search`)
      .join(' | ')}\n`,
  );
}
await lectern.close();
