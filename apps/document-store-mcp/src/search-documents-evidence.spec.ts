// SPDX-License-Identifier: AGPL-3.0-or-later
import { SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE } from '@lectern/document-store';
import { testModelEnv } from '@lectern/testing';
import { startDocumentStore, storeAmongFiller, type RunningDocumentStore } from './document-store.testkit.js';

/*
 * Issue 25, round 11: spec 000's search_application_docs (hybrid mode) asks the store for the keyword side's document
 * evidence with a span of one chunk: a keyword candidate gains w x the best score of its document's other candidates
 * more than one chunk_index away, so the overlapping neighbour of a spec 000 chunk (which repeats its words) is no
 * evidence that the document is about the question. Real MCP client, real embedded store; the weight is raised for
 * the test so that the tiny collection shows the order it sets.
 */

const PROJECT = 'evidence_span';
let ds: RunningDocumentStore;

beforeAll(async () => {
  ds = await startDocumentStore(testModelEnv());
  await storeAmongFiller(ds, PROJECT, [
    // Two neighbouring chunks of one document repeating the same words (spec 000's 200-character overlap) ...
    { doc_id: 'doc_neighbours', chunk_index: 4, text: 'River bridge inspection report.' },
    { doc_id: 'doc_neighbours', chunk_index: 5, text: 'River bridge inspection notes.' },
    // ... and a document that matches, and again far from there.
    { doc_id: 'doc_about', chunk_index: 0, text: 'River bridge inspection.' },
    { doc_id: 'doc_about', chunk_index: 9, text: 'Bridge works.' },
  ]);
}, 120_000);

afterAll(async () => {
  await ds?.stop();
});

const first = async (): Promise<{ text: string; rank_score: number }[]> => {
  const r = await ds.call('search_application_docs', {
    project: PROJECT,
    query: 'river bridge inspection',
    max_results: 4,
  });
  expect(r.isError).toBe(false);
  return (r.structured as { results: Array<{ text: string; rank_score: number }> }).results;
};

it('search_application_docs takes no document evidence from a neighbouring chunk', async () => {
  expect(SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE).toEqual({ weight: 0.05, span: 1 });
  const saved = { ...SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE };
  const set = (v: { weight: number; span: number }): void => {
    Object.assign(SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE as { weight: number; span: number }, v);
  };
  try {
    set({ weight: 2, span: 0 });
    // Any other chunk counting: the neighbours lift each other past the document that matches twice.
    expect((await first())[0]?.text).toMatch(/^River bridge inspection (report|notes)\.$/);
    set({ weight: 2, span: 1 });
    const apart = await first();
    expect(['River bridge inspection.', 'Bridge works.']).toContain(apart[0]?.text);
    expect(apart.map((x) => x.rank_score)).toEqual([...apart.map((x) => x.rank_score)].sort((a, b) => b - a));
  } finally {
    set(saved);
  }
});
