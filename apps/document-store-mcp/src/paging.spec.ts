// SPDX-License-Identifier: AGPL-3.0-or-later
import { makeNumberedPdf, makeTextPdf, fixtureFile, testModelEnv } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

interface TextAnswer {
  status: string;
  text: string;
  chunk_count: number;
  total_chars?: number;
  offset?: number;
  next_offset?: number;
  remaining_chars?: number;
}
interface ListAnswer {
  document_count: number;
  documents: Array<{ document_id: string }>;
  next_cursor?: string;
}

/** Paging for agents, through a real MCP client (Streamable HTTP) on a real document-store-mcp. */
describe('tools get_document_text and list_ingested_documents: paging', () => {
  let ds: RunningDocumentStore;
  let longId: string;
  beforeAll(async () => {
    ds = await startDocumentStore(testModelEnv());
    const long = await ds.call('ingest_document', {
      file_path: fixtureFile('long-report.pdf', makeNumberedPdf(30)),
      application_ref: 'PAGING/1',
    });
    expect(long.body).toMatchObject({ status: 'success' });
    longId = (long.body as { document_id: string }).document_id;
    for (let i = 1; i <= 4; i += 1) {
      const file = fixtureFile(
        `appendix-${i}.pdf`,
        makeTextPdf([[`# Appendix ${i}`, `Appendix ${i} lists the consultation responses of round ${i}.`]]),
      );
      expect((await ds.call('ingest_document', { file_path: file, application_ref: 'PAGING/1' })).body).toMatchObject({
        status: 'success',
      });
    }
  }, 180_000);
  afterAll(async () => {
    await ds.stop();
  });

  it('without paging arguments answers the whole text (spec 000) and says how long it is', async () => {
    const { isError, structured } = await ds.call('get_document_text', { document_id: longId });
    expect(isError).toBe(false);
    const whole = structured as TextAnswer;
    expect(whole.text).toContain('Page 1 line 1:');
    expect(whole.text).toContain('Page 30 line 12:');
    expect(whole).toMatchObject({ total_chars: whole.text.length, offset: 0, remaining_chars: 0 });
    expect(whole.next_offset).toBeUndefined();
  });

  it('reads the text in parts with offset + max_chars until next_offset is absent, and the parts make the whole', async () => {
    const whole = (await ds.call('get_document_text', { document_id: longId })).structured as TextAnswer;
    const parts: string[] = [];
    let offset: number | undefined = 0;
    let calls = 0;
    while (offset !== undefined) {
      const { isError, body, structured } = await ds.call('get_document_text', {
        document_id: longId,
        offset,
        max_chars: 5_000,
      });
      expect(isError).toBe(false);
      expect(body).toEqual(structured); // the text block is the same object
      const part = structured as TextAnswer;
      expect(part.text.length).toBeLessThanOrEqual(5_000);
      expect(part).toMatchObject({
        offset,
        total_chars: whole.text.length,
        remaining_chars: whole.text.length - offset - part.text.length,
      });
      parts.push(part.text);
      offset = part.next_offset;
      calls += 1;
    }
    expect(calls).toBe(Math.ceil(whole.text.length / 5_000));
    expect(parts.join('')).toBe(whole.text);
  });

  it('limits the text to a page range', async () => {
    const { structured } = await ds.call('get_document_text', { document_id: longId, page_from: 10, page_to: 11 });
    const range = structured as TextAnswer;
    expect(range.text).toContain('Page 10 line 5:');
    expect(range.text).toContain('Page 11 line 5:');
    expect(range.text).not.toContain('Page 3 line');
    expect(range.text).not.toContain('Page 20 line');
    expect(range.total_chars).toBe(range.text.length);
    const bad = await ds.call('get_document_text', { document_id: longId, page_from: 5, page_to: 2 });
    expect(bad.isError).toBe(true);
    expect(bad.body).toMatchObject({ status: 'error', error_type: 'invalid_arguments' });
  });

  it('pages the document list with an opaque cursor: every document once, document_count counts them all', async () => {
    const all = (await ds.call('list_ingested_documents', { application_ref: 'PAGING/1' })).structured as ListAnswer;
    expect(all.documents).toHaveLength(5);
    expect(all.next_cursor).toBeUndefined();
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    do {
      const page = (
        await ds.call('list_ingested_documents', {
          application_ref: 'PAGING/1',
          limit: 2,
          ...(cursor ? { cursor } : {}),
        })
      ).structured as ListAnswer;
      expect(page.document_count).toBe(5);
      sizes.push(page.documents.length);
      seen.push(...page.documents.map((d) => d.document_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(all.documents.map((d) => d.document_id));
  });

  it('refuses a cursor from another listing or an edited one with invalid_arguments', async () => {
    const first = (await ds.call('list_ingested_documents', { application_ref: 'PAGING/1', limit: 2 }))
      .structured as ListAnswer;
    expect(first.next_cursor).toBeDefined();
    for (const cursor of [first.next_cursor!.slice(0, -3) + 'xyz', 'not-a-cursor']) {
      const bad = await ds.call('list_ingested_documents', { application_ref: 'PAGING/1', cursor });
      expect(bad.isError).toBe(true);
      expect(bad.body).toMatchObject({ status: 'error', error_type: 'invalid_arguments' });
    }
    const other = await ds.call('list_ingested_documents', { application_ref: 'OTHER/9', cursor: first.next_cursor! });
    expect(other.body).toMatchObject({ status: 'error', error_type: 'invalid_arguments' });
  });
});
