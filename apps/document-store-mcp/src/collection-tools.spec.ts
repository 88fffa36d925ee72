// SPDX-License-Identifier: AGPL-3.0-or-later
import { testModelEnv } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

type Json = Record<string, unknown>;

describe('spec 002 collection tools through a real MCP client (legacy SSE, as spec 002 connects)', () => {
  let ds: RunningDocumentStore;
  beforeAll(async () => {
    ds = await startDocumentStore(testModelEnv(), 'sse');
  });
  afterAll(async () => {
    await ds.stop();
  });

  const chunks = [
    {
      text: 'Enzyme activity rises with temperature until the protein denatures.',
      source_filename: 'enzymes.pdf',
      chunk_index: 0,
      metadata: { page_count: 5, author: 'Smith et al.' },
    },
    {
      text: 'The optimum pH of pepsin is about 2, far more acidic than that of trypsin.',
      source_filename: 'enzymes.pdf',
      chunk_index: 1,
      metadata: { page_count: 5, author: 'Smith et al.' },
    },
    {
      text: 'Cycle lanes should be at least 2 metres wide where flows are high.',
      source_filename: 'cycling.pdf',
      chunk_index: 0,
    },
  ];

  describe('tool store_document_chunks', () => {
    it('stores chunks, creating the collection on first use', async () => {
      const { body } = await ds.call('store_document_chunks', { chunks, collection: 'research-papers' });
      expect(body).toEqual({
        success: true,
        chunks_stored: 3,
        collection: 'research-papers',
        message: 'Successfully stored 3 chunks',
      });
    });

    it('is idempotent by source file and chunk index', async () => {
      await ds.call('store_document_chunks', { chunks, collection: 'research-papers' });
      expect((await ds.deps.store.getCollection('research-papers'))?.pointsCount).toBe(3);
    });

    it('stores into "DocumentChunks" by default', async () => {
      const { body } = await ds.call('store_document_chunks', { chunks: [chunks[2]] });
      expect(body).toMatchObject({ success: true, collection: 'DocumentChunks' });
    });

    it.each([
      [
        [chunks[0], chunks[1], chunks[2], { source_filename: 'x.pdf', chunk_index: 3 }],
        "Validation error: Chunk 3 missing required field 'text'",
      ],
      [[{ text: 'a', chunk_index: 0 }], "Validation error: Chunk 0 missing required field 'source_filename'"],
      [[{ text: 'a', source_filename: 'a.pdf' }], "Validation error: Chunk 0 missing required field 'chunk_index'"],
      [
        [{ text: 'a', source_filename: 'a.pdf', chunk_index: 1.5 }],
        "Validation error: Chunk 0 field 'chunk_index' must be a non-negative integer",
      ],
    ])('answers invalid chunks with success:false and stores nothing (%#)', async (bad, message) => {
      const before = (await ds.deps.store.getCollection('research-papers'))?.pointsCount;
      const { body, isError } = await ds.call('store_document_chunks', { chunks: bad, collection: 'research-papers' });
      expect(isError).toBe(false);
      expect(body).toEqual({ success: false, chunks_stored: 0, collection: 'research-papers', message });
      expect((await ds.deps.store.getCollection('research-papers'))?.pointsCount).toBe(before);
    });
  });

  describe('tool retrieve_document_chunks', () => {
    it('returns a list of chunks, best first, with the spec fields', async () => {
      const { body, structured } = await ds.call('retrieve_document_chunks', {
        query: 'How does enzyme activity change with pH?',
        top_k: 2,
        collection: 'research-papers',
      });
      const list = body as Json[];
      expect(Array.isArray(list)).toBe(true);
      expect(structured).toEqual({ result: list });
      expect(list).toHaveLength(2);
      expect(list[0]).toMatchObject({
        source_filename: 'enzymes.pdf',
        chunk_index: expect.any(Number),
        score: expect.any(Number),
      });
      expect((list[0]!['metadata'] as Json)['author']).toBe('Smith et al.');
      expect(typeof (list[0]!['metadata'] as Json)['ingestion_date']).toBe('number');
      expect(list[0]!['score'] as number).toBeGreaterThanOrEqual(list[1]!['score'] as number);
    });

    it('searches every collection when collection is null', async () => {
      const { body } = await ds.call('retrieve_document_chunks', { query: 'cycle lane width', top_k: 5 });
      const files = (body as Json[]).map((r) => r['source_filename']);
      expect(files).toContain('cycling.pdf');
    });

    it('raises on an unknown collection', async () => {
      const { body, isError } = await ds.call('retrieve_document_chunks', { query: 'x', collection: 'nope' });
      expect(isError).toBe(true);
      expect(body).toMatchObject({ status: 'error', error_type: 'collection_not_found' });
    });
  });

  it('tool list_collections lists the collections (registries hidden)', async () => {
    const { body } = await ds.call('list_collections', {});
    expect(body).toEqual(['DocumentChunks', 'research-papers']);
  });
});
