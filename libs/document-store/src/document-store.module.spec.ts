// SPDX-License-Identifier: AGPL-3.0-or-later
import { INGEST_DEADLINE_GRACE_MS, mcpTimeouts, serviceToolDeadlineMs } from '@lectern/platform';
import { DEFAULT_TOOL_DEADLINE_MS } from '@lectern/transport';
import { documentStoreMcpService, sciragMcpService } from './document-store.module.js';

describe("document-store-mcp's tool deadlines", () => {
  it('bounds ingest_document and store_document_chunks by the ingest timeout, every other tool by MCP_TOOL_TIMEOUT_S', () => {
    const docs = documentStoreMcpService(undefined, mcpTimeouts({ MCP_TOOL_TIMEOUT_S: 45 }, 900));
    expect(serviceToolDeadlineMs(docs, 'ingest_document')).toBe(900_000 + INGEST_DEADLINE_GRACE_MS);
    expect(serviceToolDeadlineMs(docs, 'store_document_chunks')).toBe(900_000 + INGEST_DEADLINE_GRACE_MS);
    expect(serviceToolDeadlineMs(docs, 'retrieve_document_chunks')).toBe(45_000);
    expect(serviceToolDeadlineMs(docs, 'list_collections')).toBe(45_000);
    expect(serviceToolDeadlineMs(docs, 'search_application_docs')).toBe(45_000);
    const scirag = sciragMcpService(undefined, mcpTimeouts({ MCP_TOOL_TIMEOUT_S: 45 }, 900));
    expect(serviceToolDeadlineMs(scirag, 'store_document_chunks')).toBe(900_000 + INGEST_DEADLINE_GRACE_MS);
    expect(serviceToolDeadlineMs(scirag, 'list_collections')).toBe(45_000);
  });

  it('falls back to the transport default when no setting is given', () => {
    expect(serviceToolDeadlineMs(documentStoreMcpService(), 'list_collections')).toBe(DEFAULT_TOOL_DEADLINE_MS);
  });
});
