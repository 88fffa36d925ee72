// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { IngestUploadResultSchema, RestErrorSchema } from '@lectern/contracts';
import { openApiErrors, makeTextPdf } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

/** A one-page generated PDF holding these lines (no ../shared needed). */
const onePagePdf = (lines: readonly string[]): Uint8Array => makeTextPdf([lines]);

const TOKEN = 'upload-test-token';
const auth = { authorization: `Bearer ${TOKEN}` };

const LINES = [
  'Transport Assessment for the Foleshill Road redevelopment.',
  'The new bus interchange will open in spring 2027 with twelve stands.',
  'Cycle parking for 240 bicycles is provided beside the station entrance.',
];

const form = (bytes: Uint8Array, filename: string, fields: Record<string, string>) => {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  body.append('file', new Blob([bytes], { type: 'application/pdf' }), filename);
  return body;
};

/** Files left under DATA_DIR/uploads (directories are not files). */
const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];

describe('POST /api/documents', () => {
  let ds: RunningDocumentStore;
  afterEach(async () => ds.stop());

  it('ingests an upload like ingest_document; it is then searchable, and the upload is gone', async () => {
    ds = await startDocumentStore({ MCP_API_KEY: TOKEN });
    const fields = { application_ref: 'UP/2025/1', document_type: 'transport_assessment' };
    const unauthorised = await fetch(`${ds.baseUrl}/api/documents`, {
      method: 'POST',
      body: form(onePagePdf(LINES), 'ta.pdf', fields),
    });
    expect(unauthorised.status).toBe(401);

    const res = await fetch(`${ds.baseUrl}/api/documents`, {
      method: 'POST',
      headers: auth,
      body: form(onePagePdf(LINES), 'ta.pdf', fields),
    });
    expect(res.status).toBe(200);
    const result = IngestUploadResultSchema.parse(await res.json());
    expect(result).toMatchObject({ status: 'success', extraction_method: 'text_layer' });
    expect(result.chunks_created).toBeGreaterThan(0);
    expect(filesUnder(join(ds.dataDir, 'uploads', 'api'))).toEqual([]);

    const search = await ds.call('search_application_docs', {
      query: 'when does the bus interchange open',
      application_ref: 'UP/2025/1',
    });
    expect(search.isError).toBe(false);
    const hits = (search.structured as { results: Array<{ text: string; metadata: Record<string, unknown> }> }).results;
    expect(hits[0]?.text).toContain('bus interchange will open in spring 2027');
    expect(hits[0]?.metadata).toMatchObject({
      document_id: result.document_id,
      source_file: 'ta.pdf',
      application_ref: 'UP/2025/1',
    });

    // The same bytes again: the tool's idempotency, through the upload.
    const again = await fetch(`${ds.baseUrl}/api/documents`, {
      method: 'POST',
      headers: auth,
      body: form(onePagePdf(LINES), 'copy.pdf', fields),
    });
    expect(await again.json()).toMatchObject({ status: 'already_ingested', document_id: result.document_id });
  }, 120_000);

  it('refuses an upload over MAX_DOCUMENT_BYTES with 413, and stores nothing', async () => {
    ds = await startDocumentStore({ MAX_DOCUMENT_BYTES: '512' });
    const big = onePagePdf(
      Array.from({ length: 80 }, (_, i) => `Line ${i} of a document that is too large for this server.`),
    );
    expect(big.byteLength).toBeGreaterThan(512);
    const res = await fetch(`${ds.baseUrl}/api/documents`, {
      method: 'POST',
      body: form(big, 'big.pdf', { application_ref: 'BIG/1' }),
    });
    expect(res.status).toBe(413);
    expect(RestErrorSchema.parse(await res.json()).error.code).toBe('too_large');
    expect(filesUnder(join(ds.dataDir, 'uploads'))).toEqual([]);
    const listed = await ds.call('list_ingested_documents', { application_ref: 'BIG/1' });
    expect(listed.structured).toMatchObject({ document_count: 0 });
    expect((await ds.call('list_collections', {})).body).toEqual([]);
  }, 60_000);

  it('refuses bad fields (400) and keeps nothing', async () => {
    ds = await startDocumentStore();
    const res = await fetch(`${ds.baseUrl}/api/documents`, {
      method: 'POST',
      body: form(onePagePdf(LINES), 'ta.pdf', { application_ref: 'A/1', surprise: 'x' }),
    });
    expect(res.status).toBe(400);
    expect(RestErrorSchema.parse(await res.json()).error.code).toBe('invalid_arguments');
    expect(filesUnder(join(ds.dataDir, 'uploads'))).toEqual([]);
  }, 60_000);
});

describe('GET /openapi.json (document-store-mcp)', () => {
  it('is valid OpenAPI 3, open without a token, and describes POST /api/documents from the contracts', async () => {
    const ds = await startDocumentStore({ MCP_API_KEY: TOKEN });
    try {
      const res = await fetch(`${ds.baseUrl}/openapi.json`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
      expect(await openApiErrors(doc)).toEqual([]);
      const upload = doc.paths['/api/documents']?.['post'];
      expect(JSON.stringify(upload?.requestBody)).toContain('application_ref');
      expect(JSON.stringify(upload)).toContain('chunks_created');
      expect(Object.keys(doc.paths)).not.toContain('/mcp');
      expect((await fetch(`${ds.baseUrl}/docs`)).status).toBe(200);
    } finally {
      await ds.stop();
    }
  }, 60_000);
});
