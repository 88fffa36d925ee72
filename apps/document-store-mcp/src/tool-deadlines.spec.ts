// SPDX-License-Identifier: AGPL-3.0-or-later
import { TIMEOUT_META_KEY } from '@lectern/transport';
import { toolText } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

describe("spec 002's store_document_chunks has a deadline a client can lower (real server, real MCP client)", () => {
  let ds: RunningDocumentStore;
  beforeAll(async () => {
    ds = await startDocumentStore();
  });
  afterAll(async () => {
    await ds.stop();
  });

  it('answers `timeout` at a low client limit for a huge call, and the server keeps answering', async () => {
    // 2,000 chunks of 3,000 characters (6 MB): embedding and writing them takes far longer than 100 ms. The tool's
    // default is INGEST_TIMEOUT_S (600 s), beyond this test's budget, so only the client's limit can end the call.
    const text = 'Cycle lanes should be at least two metres wide where flows are high. '.repeat(44).slice(0, 3_000);
    const chunks = Array.from({ length: 2_000 }, (_, i) => ({
      text: `${i} ${text}`,
      source_filename: 'big.pdf',
      chunk_index: i,
    }));
    const result = await ds.client.callTool(
      {
        name: 'store_document_chunks',
        arguments: { chunks, collection: 'huge-call' },
        _meta: { [TIMEOUT_META_KEY]: 100 },
      },
      undefined,
      { timeout: 30_000 },
    );
    expect(result.isError).toBe(true);
    expect(toolText(result)).toMatchObject({ status: 'error', error_type: 'timeout' });
    const { body } = await ds.call('list_collections', {});
    expect(Array.isArray(body)).toBe(true);
  }, 30_000);
});
