// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Hit } from '@lectern/vector-store';
import { testModelEnv } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

/*
 * Issue 25, "order = score": every search tool of document-store-mcp answers its results ordered by a score each
 * result shows (spec 000/002: `rank_score`, the fused score, beside the cosine `relevance_score`/`score`; spec 004:
 * `score`). And spec 000's search over a project written by spec 002 answers results with derived or null metadata.
 * Real MCP client over Streamable HTTP, real embedded store, the configured embedder.
 */

// Every paragraph but one is near the query in meaning and shares its common words; the odd one out repeats the
// query's one rare word, so the keyword ranking puts it high while its cosine is low: fused order ≠ cosine order.
const PARAGRAPHS = [
  'Secure cycle parking must be provided for every new dwelling in the district.',
  'Cycle parking for visitors should be covered, lit and close to the main entrance.',
  'Cycle parking spaces in flats are provided in a secure communal store at ground level.',
  'Quorum quorum quorum: the committee quorum is three members, and without a quorum it adjourns.',
  'Long stay cycle parking at workplaces is secure, covered and overlooked.',
  'Parking for cargo cycles and adapted cycles needs wider spaces.',
];
const QUERY = 'secure cycle parking quorum';
const PROJECT = 'orderpapers';

let ds: RunningDocumentStore;
let fused: Hit[];

const descending = (xs: number[]): void => expect(xs).toEqual([...xs].sort((a, b) => b - a));

beforeAll(async () => {
  ds = await startDocumentStore(testModelEnv());
  const stored = await ds.call('store_document_chunks', {
    collection: PROJECT,
    chunks: PARAGRAPHS.map((text, i) => ({ text, source_filename: 'papers/cycle.txt', chunk_index: i })),
  });
  expect(stored.structured).toMatchObject({ success: true, chunks_stored: PARAGRAPHS.length });
  // The store's own fused ranking, and the precondition that it differs from the cosine order.
  const info = await ds.deps.store.getCollection(PROJECT);
  const embedder = await ds.deps.embedders.for(info!.fingerprint);
  fused = await ds.deps.store.searchHybrid(
    PROJECT,
    { vector: await embedder.embed(QUERY), text: QUERY },
    { fingerprint: info!.fingerprint, limit: 10 },
  );
  const byCosine = [...fused].sort((a, b) => (b.denseScore ?? 0) - (a.denseScore ?? 0)).map((h) => h.id);
  expect(fused.map((h) => h.id)).not.toEqual(byCosine);
}, 120_000);

afterAll(async () => {
  await ds?.stop();
});

interface DocsResult {
  chunk_id: string;
  text: string;
  relevance_score: number;
  rank_score: number;
  metadata: Record<string, unknown>;
}

describe('search_application_docs: ordered by rank_score, on a project spec 002 wrote', () => {
  it('hybrid (default): the fused order, each result with its fused rank_score and its cosine relevance_score', async () => {
    const r = await ds.call('search_application_docs', { query: QUERY, project: PROJECT, max_results: 10 });
    expect(r.isError).toBe(false);
    const results = (r.structured as { results: DocsResult[] }).results;
    expect(results.map((x) => x.chunk_id)).toEqual(fused.map((h) => h.id));
    descending(results.map((x) => x.rank_score));
    fused.forEach((h, i) => {
      expect(results[i]!.rank_score).toBeCloseTo(h.score, 3);
      expect(results[i]!.relevance_score).toBeCloseTo(h.denseScore ?? -1, 3);
    });
    // The cosine alone is not in order here: rank_score is what decides it.
    const cosines = results.map((x) => x.relevance_score);
    expect(cosines).not.toEqual([...cosines].sort((a, b) => b - a));
  });

  it.each([['semantic'], ['keyword']])('%s: rank_score equals relevance_score, both descending', async (mode) => {
    const r = await ds.call('search_application_docs', {
      query: QUERY,
      project: PROJECT,
      max_results: 10,
      search_mode: mode,
    });
    expect(r.isError).toBe(false);
    const results = (r.structured as { results: DocsResult[] }).results;
    expect(results.length).toBeGreaterThan(0);
    descending(results.map((x) => x.rank_score));
    for (const x of results) expect(x.rank_score).toBe(x.relevance_score);
  });

  it('a spec 002 chunk answers with derived metadata and null for what it lacks, never internal_error', async () => {
    const r = await ds.call('search_application_docs', { query: 'committee quorum', project: PROJECT, max_results: 3 });
    expect(r.isError).toBe(false);
    const top = (r.structured as { results: DocsResult[] }).results[0]!;
    expect(top.text).toMatch(/Quorum/);
    expect(top.metadata).toEqual({
      application_ref: null,
      document_id: 'papers/cycle.txt',
      source_file: 'cycle.txt',
      document_type: null,
      page_numbers: '',
      chunk_index: 3,
      total_chunks: null,
      extraction_method: null,
      char_count: PARAGRAPHS[3]!.length,
      word_count: PARAGRAPHS[3]!.split(/\s+/).length,
    });
  });

  it('filters a spec 002 project cannot satisfy answer no results, not an error', async () => {
    const r = await ds.call('search_application_docs', { query: QUERY, project: PROJECT, application_ref: 'X/1' });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({ results_count: 0 });
  });
});

describe('retrieve_document_chunks (spec 002): ordered by rank_score', () => {
  it.each([
    ['one collection', { collection: PROJECT }],
    ['every collection', {}],
  ])('%s: the fused order, rank_score descending, score the cosine', async (_what, extra) => {
    const r = await ds.call('retrieve_document_chunks', { query: QUERY, top_k: 6, ...extra });
    expect(r.isError).toBe(false);
    const list = (r.structured as { result: Array<{ text: string; score: number; rank_score: number }> }).result;
    descending(list.map((x) => x.rank_score));
    expect(list.map((x) => x.text)).toEqual(fused.slice(0, 6).map((h) => h.text));
    list.forEach((x, i) => expect(x.score).toBeCloseTo(fused[i]!.denseScore ?? -1, 3));
  });
});

describe('spec 004 find_chunks and query_hybrid: ordered by score', () => {
  it('find_chunks: cosine score, descending', async () => {
    const r = await ds.call('find_chunks', { project: PROJECT, query: QUERY, top_k: 6 });
    expect(r.isError).toBe(false);
    const results = (r.structured as { results: Array<{ score: number }> }).results;
    expect(results).toHaveLength(6);
    descending(results.map((x) => x.score));
  });

  it('query_hybrid: fused score, descending, the store order', async () => {
    const r = await ds.call('query_hybrid', { project: PROJECT, query: QUERY, top_k: 6 });
    expect(r.isError).toBe(false);
    const results = (r.structured as { results: Array<{ chunk_id: string; score: number }> }).results;
    descending(results.map((x) => x.score));
    expect(results.map((x) => x.chunk_id)).toEqual(fused.slice(0, 6).map((h) => h.id));
  });
});

// Last: its collection would join the cross-collection searches above.
describe('search_application_docs: one copy of a text that sibling documents repeat', () => {
  const BOILERPLATE =
    'Any person with sufficient interest in the decision to adopt the SPD can apply to the High Court.';
  const SIBLINGS = 'siblings';

  it.each([['hybrid'], ['semantic'], ['keyword']])(
    '%s: the best-ranked copy stays, the others give way to the next distinct texts',
    async (mode) => {
      if (!(await ds.deps.store.getCollection(SIBLINGS))) {
        const files = ['energy', 'open-space', 'householder', 'affordable'];
        for (const f of files) {
          const stored = await ds.call('store_document_chunks', {
            collection: SIBLINGS,
            chunks: [
              { text: BOILERPLATE, source_filename: `${f}.txt`, chunk_index: 0 },
              // Same words, other case and spacing: still the same text.
              ...(f === 'affordable'
                ? [{ text: `  ${BOILERPLATE.toUpperCase()} `, source_filename: `${f}.txt`, chunk_index: 2 }]
                : []),
              {
                text: `The ${f} SPD was adopted by the Council; a High Court challenge may follow.`,
                source_filename: `${f}.txt`,
                chunk_index: 1,
              },
            ],
          });
          expect(stored.structured).toMatchObject({ success: true });
        }
      }
      const query = 'who can apply to the High Court about the decision to adopt the SPD';
      const r = await ds.call('search_application_docs', {
        query,
        project: SIBLINGS,
        max_results: 4,
        search_mode: mode,
      });
      expect(r.isError).toBe(false);
      const results = (r.structured as { results: DocsResult[] }).results;
      const norm = (t: string) => t.toLowerCase().replace(/\s+/g, ' ').trim();
      // Nine chunks, six distinct texts: four results, all distinct, one of them the boilerplate.
      expect(results).toHaveLength(4);
      expect(new Set(results.map((x) => norm(x.text))).size).toBe(4);
      expect(results.filter((x) => norm(x.text) === norm(BOILERPLATE))).toHaveLength(1);
      descending(results.map((x) => x.rank_score));
    },
  );

  it('query_hybrid (spec 004) on the same chunks: one copy too, top_k distinct texts by descending score', async () => {
    // The collection the cases above wrote (they run first).
    expect(await ds.deps.store.getCollection(SIBLINGS)).toBeTruthy();
    const r = await ds.call('query_hybrid', {
      project: SIBLINGS,
      query: 'who can apply to the High Court about the decision to adopt the SPD',
      top_k: 4,
    });
    expect(r.isError).toBe(false);
    const results = (r.structured as { results: Array<{ text: string; score: number }> }).results;
    const norm = (t: string) => t.toLowerCase().replace(/\s+/g, ' ').trim();
    expect(results).toHaveLength(4);
    expect(new Set(results.map((x) => norm(x.text))).size).toBe(4);
    expect(results.filter((x) => norm(x.text) === norm(BOILERPLATE))).toHaveLength(1);
    descending(results.map((x) => x.score));
  });
});
