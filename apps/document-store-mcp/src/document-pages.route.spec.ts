// SPDX-License-Identifier: AGPL-3.0-or-later
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureFile, makeTextPdf, testModelEnv } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

const TOKEN = 'pages-test-token';
const auth = { authorization: `Bearer ${TOKEN}` };
const PDF = makeTextPdf([
  ['# Transport assessment', 'Traffic counts were taken in March on weekdays.'],
  ['# Junction capacity', 'Junction capacity at the Mill Lane roundabout remains below eighty five percent.'],
]);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('GET /api/documents/{document_id}/pages/{page}.png and …/quads', () => {
  let ds: RunningDocumentStore;
  let documentId: string;
  let uploadedId: string;
  let goneId: string;

  beforeAll(async () => {
    ds = await startDocumentStore({ ...testModelEnv(), MCP_API_KEY: TOKEN });
    const ingested = await ds.call('ingest_document', {
      file_path: fixtureFile('pages-route.pdf', PDF),
      application_ref: 'PAGES/1',
    });
    documentId = (ingested.body as { document_id: string }).document_id;
    const form = new FormData();
    form.append('application_ref', 'PAGES/2');
    form.append('file', new Blob([makeTextPdf([['An uploaded letter about bins.']])]), 'letter.pdf');
    const uploaded = await fetch(`${ds.baseUrl}/api/documents`, { method: 'POST', headers: auth, body: form });
    uploadedId = ((await uploaded.json()) as { document_id: string }).document_id;
    // a document ingested by path whose file was removed afterwards
    const gone = join(ds.dataDir, 'gone.pdf');
    writeFileSync(gone, makeTextPdf([['A file that leaves the server after its ingest.']]));
    goneId = (
      (await ds.call('ingest_document', { file_path: gone, application_ref: 'PAGES/3' })).body as {
        document_id: string;
      }
    ).document_id;
    rmSync(gone);
  });
  afterAll(async () => ds.stop());

  const get = (path: string, headers: Record<string, string> = auth) => fetch(`${ds.baseUrl}${path}`, { headers });

  it('draws a page of a registered document as a PNG, behind the bearer key', async () => {
    expect((await get(`/api/documents/${documentId}/pages/2.png`, {})).status).toBe(401);
    const res = await get(`/api/documents/${documentId}/pages/2.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // the IHDR chunk: width and height of a US Letter page at the default 110 dpi
    expect(png.readUInt32BE(16)).toBe(Math.round((612 * 110) / 72));
    expect(png.readUInt32BE(20)).toBe(Math.round((792 * 110) / 72));
    // the same page with a passage highlighted is another image
    const highlighted = await get(`/api/documents/${documentId}/pages/2.png?highlight=Mill%20Lane%20roundabout`);
    expect(Buffer.from(await highlighted.arrayBuffer()).equals(png)).toBe(false);
  });

  it('says where a text is on a page (PDF points, origin top-left), and finds nothing on a page without it', async () => {
    const on2 = await (await get(`/api/documents/${documentId}/pages/2/quads?highlight=Mill%20Lane`)).json();
    expect(on2).toMatchObject({ document_id: documentId, page: 2, page_width: 612, page_height: 792 });
    const quads = (on2 as { quads: number[][] }).quads;
    expect(quads.length).toBeGreaterThan(0);
    for (const q of quads) {
      expect(q).toHaveLength(8);
      for (let i = 0; i < 8; i += 2) {
        expect(q[i]).toBeGreaterThanOrEqual(0);
        expect(q[i]).toBeLessThanOrEqual(612);
        // the text sits in the upper half of the page (set from y = 690 points up from the bottom)
        expect(q[i + 1]).toBeLessThan(396);
      }
    }
    const on1 = await (await get(`/api/documents/${documentId}/pages/1/quads?highlight=Mill%20Lane`)).json();
    expect((on1 as { quads: unknown[] }).quads).toEqual([]);
  });

  it('answers in plain words: no such document, no such page, a file no longer kept, a bad request', async () => {
    const cases: [string, number, string][] = [
      [`/api/documents/NOPE_1_abcdef/pages/1.png`, 404, 'document_not_found'],
      [`/api/documents/${documentId}/pages/9.png`, 404, 'page_not_found'],
      [`/api/documents/${goneId}/pages/1.png`, 404, 'source_file_missing'],
      [`/api/documents/${documentId}/pages/1.png?dpi=5000`, 400, 'invalid_arguments'],
      [`/api/documents/${documentId}/pages/1/quads`, 400, 'invalid_arguments'],
    ];
    for (const [path, status, code] of cases) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, status]);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe(code);
      expect(body.error.message).not.toMatch(/\/tmp\/|at .*\.ts:/);
    }
  });

  it('draws the pages of an uploaded document from its kept original, which is deleted with the document', async () => {
    const res = await get(`/api/documents/${uploadedId}/pages/1.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(png.readUInt32BE(16)).toBe(Math.round((612 * 110) / 72));
    const quads = (await (await get(`/api/documents/${uploadedId}/pages/1/quads?highlight=bins`)).json()) as {
      quads: unknown[];
    };
    expect(quads.quads.length).toBeGreaterThan(0);
    expect(await ds.deps.keptFiles?.get(ds.deps.defaultProject, uploadedId)).toBeInstanceOf(Buffer);

    expect((await ds.call('delete_document', { document_id: uploadedId })).isError).toBe(false);
    const after = await get(`/api/documents/${uploadedId}/pages/1.png`);
    expect(after.status).toBe(404);
    expect(((await after.json()) as { error: { code: string } }).error.code).toBe('document_not_found');
    expect(await ds.deps.keptFiles?.get(ds.deps.defaultProject, uploadedId)).toBeUndefined();
  });
});
