// SPDX-License-Identifier: AGPL-3.0-or-later
import { jest } from '@jest/globals';
import { SEARCH_DOCUMENTS_DENSE_DEPTH } from '@lectern/document-store';
import { FUSION_DEFAULTS, type HybridOptions } from '@lectern/vector-store';
import { testModelEnv } from '@lectern/testing';
import { startDocumentStore, storeAmongFiller, type RunningDocumentStore } from './document-store.testkit.js';

/*
 * Issue 25, round 12: spec 000's search_application_docs (hybrid mode) asks the store for a dense depth of 7 — only
 * the dense list's first 7 candidates carry dense evidence — while the store's default (and so spec 004's
 * query_hybrid) keeps every dense candidate. Real MCP client, real embedded store; the store's hybrid search is
 * observed (called through) to see the options the tool passes, and its order is checked against the store's own.
 */

const PROJECT = 'dense_depth';
let ds: RunningDocumentStore;

beforeAll(async () => {
  ds = await startDocumentStore(testModelEnv());
  await storeAmongFiller(ds, PROJECT, [
    { doc_id: 'doc_a', chunk_index: 0, text: 'Flood risk assessment for the river corridor.' },
    { doc_id: 'doc_b', chunk_index: 0, text: 'River corridor flood defences and risk.' },
    { doc_id: 'doc_c', chunk_index: 0, text: 'Assessment of heritage assets.' },
  ]);
}, 120_000);

afterAll(async () => {
  await ds?.stop();
});

it('search_application_docs asks for dense depth 7 in hybrid mode only; the store default stays off', async () => {
  expect(SEARCH_DOCUMENTS_DENSE_DEPTH).toEqual({ depth: 7 });
  expect(FUSION_DEFAULTS.denseDepth).toBeNull();
  const spy = jest.spyOn(ds.deps.store, 'searchHybrid');
  try {
    const query = 'river flood risk assessment';
    const r = await ds.call('search_application_docs', { project: PROJECT, query, max_results: 5 });
    expect(r.isError).toBe(false);
    expect(spy).toHaveBeenCalledTimes(1);
    const [name, q, opts] = spy.mock.calls[0] as [string, { vector: number[]; text: string }, HybridOptions];
    expect(opts.denseDepth).toBe(7);
    // the tool's order (distinct texts) is the store's own at that depth, and rank_score orders it
    const results = (r.structured as { results: Array<{ text: string; rank_score: number }> }).results;
    const own = await ds.deps.store.searchHybrid(name, q, { ...opts });
    expect(results.map((x) => x.text)).toEqual(own.slice(0, results.length).map((h) => h.text));
    expect(results.map((x) => x.rank_score)).toEqual([...results.map((x) => x.rank_score)].sort((a, b) => b - a));
    spy.mockClear();
    await ds.call('search_application_docs', { project: PROJECT, query, search_mode: 'keyword' });
    expect(spy).not.toHaveBeenCalled();
  } finally {
    spy.mockRestore();
  }
});
