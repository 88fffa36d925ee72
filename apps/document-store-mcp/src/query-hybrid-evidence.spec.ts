// SPDX-License-Identifier: AGPL-3.0-or-later
import { QUERY_HYBRID_DOCUMENT_EVIDENCE } from '@lectern/document-store';
import { testModelEnv } from '@lectern/testing';
import { startDocumentStore, storeAmongFiller, type RunningDocumentStore } from './document-store.testkit.js';

/*
 * Issue 25, round 10: spec 004's query_hybrid asks the store for the keyword side's document evidence (a keyword
 * candidate gains w x the best score of its document's other candidates), so a lone section of a document about
 * something else gives way to a document that matches in more than one section. Real MCP client, real embedded
 * store; keyword weight only, so the order is the keyword side's.
 */

const PROJECT = 'evidence';
let ds: RunningDocumentStore;

beforeAll(async () => {
  ds = await startDocumentStore(testModelEnv());
  await storeAmongFiller(ds, PROJECT, [
    { doc_id: 'doc_lone', chunk_index: 0, text: 'River bridge, river bridge inspection.' },
    { doc_id: 'doc_about', chunk_index: 0, text: 'River bridge inspection report.' },
    { doc_id: 'doc_about', chunk_index: 1, text: 'Bridge maintenance programme.' },
  ]);
}, 120_000);

afterAll(async () => {
  await ds?.stop();
});

const first = async (): Promise<{ doc_id: string; score: number }[]> => {
  const r = await ds.call('query_hybrid', { project: PROJECT, query: 'river bridge', top_k: 3, dense_weight: 0 });
  expect(r.isError).toBe(false);
  return (r.structured as { results: Array<{ doc_id: string; score: number }> }).results;
};

it('query_hybrid puts the document that matches in two chunks first once document evidence is on', async () => {
  expect(QUERY_HYBRID_DOCUMENT_EVIDENCE.weight).toBeGreaterThan(0);
  const saved = QUERY_HYBRID_DOCUMENT_EVIDENCE.weight;
  try {
    (QUERY_HYBRID_DOCUMENT_EVIDENCE as { weight: number }).weight = 0;
    expect((await first())[0]?.doc_id).toBe('doc_lone');
    (QUERY_HYBRID_DOCUMENT_EVIDENCE as { weight: number }).weight = 1;
    const on = await first();
    expect(on[0]?.doc_id).toBe('doc_about');
    expect(on.map((x) => x.score)).toEqual([...on.map((x) => x.score)].sort((a, b) => b - a));
  } finally {
    (QUERY_HYBRID_DOCUMENT_EVIDENCE as { weight: number }).weight = saved;
  }
});
