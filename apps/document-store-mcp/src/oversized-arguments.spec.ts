// SPDX-License-Identifier: AGPL-3.0-or-later
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

/**
 * Issue 12, defect 1: a 5 MB query once aborted the process (V8 heap out of memory) while the embedder
 * tokenised it whole. Every string argument is bounded in the contracts now; the server refuses first.
 */
describe('document-store-mcp: oversized arguments', () => {
  let ds: RunningDocumentStore;
  beforeAll(async () => {
    ds = await startDocumentStore();
  });
  afterAll(async () => {
    await ds.stop();
  });

  it('answers a 5 MB search_application_docs query with invalid_arguments, then serves a normal search', async () => {
    const rssBefore = process.memoryUsage().rss;
    const huge = await ds.call('search_application_docs', {
      query: 'planning '.repeat(Math.ceil((5 * 1024 * 1024) / 9)),
    });
    expect(huge.isError).toBe(true);
    expect(huge.body).toEqual({
      status: 'error',
      error_type: 'invalid_arguments',
      message: expect.stringContaining('query'),
    });
    expect((huge.body as { message: string }).message.length).toBeLessThan(300);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(512 * 1024 * 1024);

    const normal = await ds.call('search_application_docs', { query: 'transport assessment' });
    expect(normal.isError).toBe(false);
    expect(normal.body).toMatchObject({ status: 'success', query: 'transport assessment' });
  });

  it.each([
    ['ingest_document', { file_path: `/${'a'.repeat(5000)}`, application_ref: 'X/1' }, 'file_path'],
    ['get_document_text', { document_id: 'd'.repeat(10_000) }, 'document_id'],
    [
      'search_application_docs',
      { query: 'q', document_types: Array.from({ length: 1000 }, () => 'other') },
      'document_types',
    ],
    ['retrieve_document_chunks', { query: 'q'.repeat(4097) }, 'query'],
    [
      'find_chunks',
      { project: 'p', query: 'q', filters: { tags: Array.from({ length: 101 }, (_, i) => `t${i}`) } },
      'filters.tags',
    ],
    [
      'store_chunks',
      { project: 'p', chunks: [{ doc_id: 'd', chunk_index: 0, text: 't'.repeat(20_001) }] },
      'chunks.0.text',
    ],
  ])('refuses an over-long %s argument with invalid_arguments naming it', async (tool, args, field) => {
    const result = await ds.call(tool, args);
    expect(result.body).toMatchObject({ status: 'error', error_type: 'invalid_arguments' });
    expect((result.body as { message: string }).message).toContain(field);
  });
});
