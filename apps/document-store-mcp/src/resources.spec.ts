// SPDX-License-Identifier: AGPL-3.0-or-later
import { documentResources } from '@lectern/document-store';
import { fixtureFile, makeNumberedPdf, makeTextPdf, testModelEnv } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

/** Issue 30: documents as MCP resources, through a real MCP client (Streamable HTTP) on a real document-store-mcp. */
describe('document-store-mcp resources: lectern://documents/{document_id}', () => {
  let ds: RunningDocumentStore;
  const ids: string[] = [];
  let longId = '';
  beforeAll(async () => {
    ds = await startDocumentStore(testModelEnv());
    const files = [
      fixtureFile('resource-long.pdf', makeNumberedPdf(6)),
      fixtureFile('resource-note.pdf', makeTextPdf([['# Site note', 'The site note records the hedgerow survey.']])),
    ];
    for (const file_path of files) {
      const res = await ds.call('ingest_document', { file_path, application_ref: 'RES/1' });
      expect(res.body).toMatchObject({ status: 'success' });
      ids.push((res.body as { document_id: string }).document_id);
      longId ||= ids[0] ?? '';
    }
    ids.sort();
  }, 120_000);
  afterAll(async () => ds?.stop());

  it('advertises the resources capability and the template', async () => {
    expect(ds.client.getServerCapabilities()?.resources).toBeDefined();
    const { resourceTemplates } = await ds.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'lectern://documents/{document_id}', mimeType: 'text/plain' }),
    ]);
  });

  it('lists the ingested documents by id, with their file name and application', async () => {
    const { resources, nextCursor } = await ds.client.listResources();
    expect(nextCursor).toBeUndefined();
    expect(resources.map((r) => r.uri)).toEqual(ids.map((id) => `lectern://documents/${id}`));
    expect(resources.map((r) => r.title).sort()).toEqual(['resource-long.pdf', 'resource-note.pdf']);
    expect(resources.every((r) => r.description?.startsWith('RES/1: '))).toBe(true);
  });

  it('reads a document: metadata (JSON) and the same text get_document_text answers', async () => {
    const note = (await ds.client.listResources()).resources.find((r) => r.title === 'resource-note.pdf');
    const read = await ds.client.readResource({ uri: note?.uri ?? '' });
    const [meta, body] = read.contents as Array<{ uri: string; mimeType: string; text: string }>;
    expect(meta?.mimeType).toBe('application/json');
    const id = note?.name ?? '';
    expect(JSON.parse(meta?.text ?? '{}')).toMatchObject({
      document_id: id,
      application_ref: 'RES/1',
      document_type: expect.any(String),
      truncated: false,
    });
    const viaTool = (await ds.call('get_document_text', { document_id: id })).structured as { text: string };
    expect(body).toEqual({ uri: note?.uri, mimeType: 'text/plain', text: viaTool.text });
    expect(body?.text).toContain('hedgerow survey');
  });

  it('refuses an unknown document, an id that is not one, and a URI of no template', async () => {
    await expect(ds.client.readResource({ uri: 'lectern://documents/no_such_doc' })).rejects.toThrow(
      /-32002.*Document not found: no_such_doc/,
    );
    await expect(ds.client.readResource({ uri: 'lectern://documents/..%2F..%2Fetc' })).rejects.toThrow(
      /Not a document id/,
    );
    await expect(ds.client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/Unknown resource URI/);
  });

  it('caps the text with a marker that says how to read on, and pages the listing', async () => {
    const long = longId;
    const capped = documentResources(ds.deps, { maxChars: 200 });
    const [meta, body] = (await capped.read(`lectern://documents/${long}`, new AbortController().signal)) as Array<{
      text: string;
    }>;
    const total = (JSON.parse(meta?.text ?? '{}') as { total_chars: number; truncated: boolean }).total_chars;
    expect(JSON.parse(meta?.text ?? '{}')).toMatchObject({ truncated: true });
    expect(body?.text).toMatch(
      new RegExp(
        `\\n\\n\\[lectern: truncated, ${total - 200} more characters; call get_document_text with document_id "${long}", offset 200\\]$`,
      ),
    );
    const first = (await ds.call('get_document_text', { document_id: long, max_chars: 200 })).structured as {
      text: string;
    };
    expect(body?.text.startsWith(first.text)).toBe(true);
    const paged = documentResources(ds.deps, { pageSize: 1 });
    const signal = new AbortController().signal;
    const one = await paged.list(undefined, signal);
    expect(one.resources.map((r) => r.name)).toEqual([ids[0]]);
    expect(one.nextCursor).toEqual(expect.any(String));
    const two = await paged.list(one.nextCursor, signal);
    expect(two.resources.map((r) => r.name)).toEqual([ids[1]]);
    expect(two.nextCursor).toBeUndefined();
    await expect(paged.list('bm90LWEtY3Vyc29y', signal)).rejects.toThrow(/cursor is not one this listing returned/);
  });
});
