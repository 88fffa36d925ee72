import { DEFAULT_TOOL_DEADLINE_MS, toolDeadlineMs } from '@lectern/transport';
import { documentStoreMcpService, extractionMcpService, mcpTimeouts, policyKbMcpService } from './mcp-services.js';

describe('each MCP service names its tools deadlines', () => {
  const deadlineOf = (service: ReturnType<typeof documentStoreMcpService>, name: string): number => {
    const registration = service.tools.find((t) => t.definition.name === name);
    if (!registration) throw new Error(`no tool ${name}`);
    return toolDeadlineMs(registration, service.deadlines);
  };

  it('bounds the ingest tools by the ingest timeout and every other tool by MCP_TOOL_TIMEOUT_S', () => {
    const docs = documentStoreMcpService(undefined, mcpTimeouts({ MCP_TOOL_TIMEOUT_S: 45 }, 900));
    expect(deadlineOf(docs, 'ingest_document')).toBe(900_000);
    expect(deadlineOf(docs, 'store_document_chunks')).toBe(900_000);
    expect(deadlineOf(docs, 'retrieve_document_chunks')).toBe(45_000);
    expect(deadlineOf(docs, 'list_collections')).toBe(45_000);
    expect(deadlineOf(docs, 'search_application_docs')).toBe(45_000);

    const policies = policyKbMcpService(undefined, mcpTimeouts({ MCP_TOOL_TIMEOUT_S: 30 }, 1800));
    expect(deadlineOf(policies, 'ingest_policy_revision')).toBe(1_800_000);
    expect(deadlineOf(policies, 'search_policy')).toBe(30_000);

    const extraction = extractionMcpService(undefined, mcpTimeouts({ MCP_TOOL_TIMEOUT_S: 60 }, 600));
    expect(deadlineOf(extraction, 'doc_index_build')).toBe(600_000);
    expect(deadlineOf(extraction, 'doc_search')).toBe(60_000);
  });

  it('falls back to the transport default when no setting is given', () => {
    expect(deadlineOf(documentStoreMcpService(), 'list_collections')).toBe(DEFAULT_TOOL_DEADLINE_MS);
  });
});
