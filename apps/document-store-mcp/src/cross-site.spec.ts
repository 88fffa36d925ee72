// SPDX-License-Identifier: AGPL-3.0-or-later
import { readdirSync } from 'node:fs';
import { runCrossSite } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

const KEY = 'docstore-cross-site-key-0123';

/**
 * Issue 30: document-store-mcp's upload REST (multipart) and its MCP endpoint (JSON, an ingest call) refuse
 * another site's requests, with and without a key; nothing reaches the data directory.
 */
describe.each([
  ['without a key', undefined],
  ['with a key', KEY],
] as const)('document-store-mcp from another site, %s', (_label, key) => {
  let store: RunningDocumentStore;
  beforeAll(async () => {
    store = await startDocumentStore(key ? { MCP_API_KEY: key } : {});
  });
  afterAll(async () => store?.stop());

  it('refuses a multipart upload and a JSON ingest (403) and stores nothing', async () => {
    const before = readdirSync(store.dataDir, { recursive: true }).length;
    const results = await runCrossSite(store.baseUrl, {
      multipartPath: '/api/documents',
      multipartFields: { application_ref: '25/00001/FUL' },
      jsonPath: '/mcp',
      json: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'ingest_document', arguments: { file_path: '/etc/hostname', application_ref: '25/00001/FUL' } },
      },
      token: key,
    });
    expect(results).toHaveLength(4);
    for (const r of results) expect({ case: r.case, status: r.status }).toEqual({ case: r.case, status: 403 });
    const rest = results.filter((r) => r.case.startsWith('multipart'));
    for (const r of rest)
      expect(r.body).toEqual({
        error: { code: 'forbidden', message: expect.stringMatching(/^Forbidden: (Origin|Host) header/) },
      });
    expect(readdirSync(store.dataDir, { recursive: true })).toHaveLength(before);
  });
});
