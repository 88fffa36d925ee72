import { extractionDocTools, policyKbTools, sciragTools } from '@lectern/contracts';
import { docToolRegistrations, type DocTools } from '@lectern/doc-tools';
import { documentStoreToolRegistrations, type DocumentStoreDeps } from '@lectern/document-store';
import { policyKbToolRegistrations as boundPolicyKbTools, type PolicyKbDeps } from '@lectern/policy-kb';
import { LECTERN_VERSION } from '@lectern/runtime';
import { notImplemented, type ToolRegistration } from '@lectern/transport';

/** An MCP server as every transport serves it (HTTP in the apps, stdio in the CLI): identity, instructions, tools. */
export interface McpService {
  name: string;
  version: string;
  instructions: string;
  tools: ToolRegistration[];
}

/** document-store-mcp's server: specs 000, 002 and 004's tools (without deps every tool answers `not_implemented`). */
export const documentStoreMcpService = (deps?: DocumentStoreDeps): McpService => ({
  name: 'document-store-mcp',
  version: LECTERN_VERSION,
  instructions:
    'Lectern document store: ingest planning documents (PDF, images), search them with citations ' +
    '(page numbers), read them, and store/query citable chunks in per-project collections.',
  tools: documentStoreToolRegistrations(deps),
});

/**
 * Spec 002's server (SciRAG) for the clients that expect only its three tools at `/sse` on their own port
 * (document-store-mcp's `SCIRAG_PORT` listener): the same bound tools as `documentStoreMcpService`, no others.
 */
export const sciragMcpService = (deps?: DocumentStoreDeps): McpService => {
  const names = new Set(sciragTools.map((d) => d.name));
  return {
    name: 'scirag',
    version: LECTERN_VERSION,
    instructions:
      'Lectern document store, SciRAG tools (spec 002): store_document_chunks into a collection, ' +
      'retrieve_document_chunks semantically similar to a query, list_collections.',
    tools: documentStoreToolRegistrations(deps).filter((t) => names.has(t.definition.name)),
  };
};

/** The six tools of spec 001 with their full contracts (without deps every tool answers `not_implemented`). */
export const policyKbToolRegistrations = (deps?: PolicyKbDeps): ToolRegistration[] =>
  deps
    ? boundPolicyKbTools(deps)
    : policyKbTools.map((definition) => ({ definition, handler: notImplemented(definition.name) }));

/** policy-kb-mcp's server: spec 001's tools. */
export const policyKbMcpService = (deps?: PolicyKbDeps): McpService => ({
  name: 'policy-kb-mcp',
  version: LECTERN_VERSION,
  instructions:
    'Lectern policy knowledge base: search versioned policy documents "as in force on" a date, read sections, ' +
    'list policies and revisions, ingest and remove revisions.',
  tools: policyKbToolRegistrations(deps),
});

/**
 * extraction-api's MCP server (spec 003's `mcp-tools` role at `/mcp`): the four document tools its agent uses,
 * open to outside agents too (without tools every tool answers `not_implemented`).
 */
export const extractionMcpService = (tools?: DocTools): McpService => ({
  name: 'extraction-api',
  version: LECTERN_VERSION,
  instructions:
    'Lectern document tools (spec 003): doc_index_build a document, then per field doc_search and doc_read the ' +
    'chunks it finds (locators h{n}-c{m} / h{n}-t{m}), and json_validate_and_normalize the result against its schema.',
  tools: tools
    ? docToolRegistrations(tools)
    : extractionDocTools.map((definition) => ({ definition, handler: notImplemented(definition.name) })),
});
