import { extractionDocTools, policyKbTools, sciragTools } from '@lectern/contracts';
import { docToolRegistrations, type DocTools } from '@lectern/doc-tools';
import { documentStoreToolRegistrations, type DocumentStoreDeps } from '@lectern/document-store';
import { policyKbToolRegistrations as boundPolicyKbTools, type PolicyKbDeps } from '@lectern/policy-kb';
import { LECTERN_VERSION } from '@lectern/runtime';
import {
  DEFAULT_TOOL_DEADLINE_MS,
  notImplemented,
  type ToolDeadlines,
  type ToolRegistration,
} from '@lectern/transport';

/**
 * An MCP server as every transport serves it (HTTP in the apps, stdio in the CLI): identity, instructions, tools,
 * and each tool's deadline (enforced by the transport's server factory; a client may lower it per call).
 */
export interface McpService {
  name: string;
  version: string;
  instructions: string;
  tools: ToolRegistration[];
  deadlines: ToolDeadlines;
}

/** The deadlines a service's tools get: `toolMs` (MCP_TOOL_TIMEOUT_S) for most, `ingestMs` for its ingest tools. */
export interface McpTimeouts {
  /** MCP_TOOL_TIMEOUT_S: searches, reads, listings, deletions. */
  toolMs?: number | undefined;
  /** The ingest tools' deadline (INGEST_TIMEOUT_S; extraction-api: DOC_INDEX_TIMEOUT_S). */
  ingestMs?: number | undefined;
}

/** `MCP_TOOL_TIMEOUT_S` (and the other settings) in the form the services take. */
export const mcpTimeouts = (env: { MCP_TOOL_TIMEOUT_S: number }, ingestS?: number): McpTimeouts => ({
  toolMs: env.MCP_TOOL_TIMEOUT_S * 1000,
  ...(ingestS === undefined ? {} : { ingestMs: ingestS * 1000 }),
});

const deadlines = (ingestTools: readonly string[], timeouts: McpTimeouts, fallbackIngestMs?: number): ToolDeadlines => {
  const ingestMs = timeouts.ingestMs ?? fallbackIngestMs;
  return {
    defaultMs: timeouts.toolMs ?? DEFAULT_TOOL_DEADLINE_MS,
    ...(ingestMs === undefined ? {} : { byTool: Object.fromEntries(ingestTools.map((name) => [name, ingestMs])) }),
  };
};

/**
 * document-store-mcp's server: specs 000, 002 and 004's tools (without deps every tool answers `not_implemented`).
 * `ingest_document` and `store_document_chunks` (which embeds and writes whole documents' chunks) are bounded by
 * INGEST_TIMEOUT_S, spec 004's tools by their own 8-15 s (TOOL_TIMEOUT_S), the others by MCP_TOOL_TIMEOUT_S.
 */
export const documentStoreMcpService = (deps?: DocumentStoreDeps, timeouts: McpTimeouts = {}): McpService => ({
  name: 'document-store-mcp',
  version: LECTERN_VERSION,
  instructions:
    'Lectern document store: ingest planning documents (PDF, images), search them with citations ' +
    '(page numbers), read them, and store/query citable chunks in per-project collections.',
  tools: documentStoreToolRegistrations(deps),
  deadlines: deadlines(['ingest_document', 'store_document_chunks'], timeouts, deps?.ingestTimeoutMs),
});

/**
 * Spec 002's server (SciRAG) for the clients that expect only its three tools at `/sse` on their own port
 * (document-store-mcp's `SCIRAG_PORT` listener): the same bound tools as `documentStoreMcpService`, no others.
 */
export const sciragMcpService = (deps?: DocumentStoreDeps, timeouts: McpTimeouts = {}): McpService => {
  const names = new Set(sciragTools.map((d) => d.name));
  return {
    name: 'scirag',
    version: LECTERN_VERSION,
    instructions:
      'Lectern document store, SciRAG tools (spec 002): store_document_chunks into a collection, ' +
      'retrieve_document_chunks semantically similar to a query, list_collections.',
    tools: documentStoreToolRegistrations(deps).filter((t) => names.has(t.definition.name)),
    deadlines: deadlines(['store_document_chunks'], timeouts, deps?.ingestTimeoutMs),
  };
};

/** The six tools of spec 001 with their full contracts (without deps every tool answers `not_implemented`). */
export const policyKbToolRegistrations = (deps?: PolicyKbDeps): ToolRegistration[] =>
  deps
    ? boundPolicyKbTools(deps)
    : policyKbTools.map((definition) => ({ definition, handler: notImplemented(definition.name) }));

/** policy-kb-mcp's server: spec 001's tools (`ingest_policy_revision` bounded by INGEST_TIMEOUT_S). */
export const policyKbMcpService = (deps?: PolicyKbDeps, timeouts: McpTimeouts = {}): McpService => ({
  name: 'policy-kb-mcp',
  version: LECTERN_VERSION,
  instructions:
    'Lectern policy knowledge base: search versioned policy documents "as in force on" a date, read sections, ' +
    'list policies and revisions, ingest and remove revisions.',
  tools: policyKbToolRegistrations(deps),
  deadlines: deadlines(['ingest_policy_revision'], timeouts, deps?.ingestTimeoutMs),
});

/**
 * extraction-api's MCP server (spec 003's `mcp-tools` role at `/mcp`): the four document tools its agent uses,
 * open to outside agents too (without tools every tool answers `not_implemented`). `doc_index_build` is bounded by
 * `timeouts.ingestMs` (DOC_INDEX_TIMEOUT_S), the others by MCP_TOOL_TIMEOUT_S (default 60 s, spec 003 section 7).
 */
export const extractionMcpService = (tools?: DocTools, timeouts: McpTimeouts = {}): McpService => ({
  name: 'extraction-api',
  version: LECTERN_VERSION,
  instructions:
    'Lectern document tools (spec 003): doc_index_build a document, then per field doc_search and doc_read the ' +
    'chunks it finds (locators h{n}-c{m} / h{n}-t{m}), and json_validate_and_normalize the result against its schema.',
  tools: tools
    ? docToolRegistrations(tools)
    : extractionDocTools.map((definition) => ({ definition, handler: notImplemented(definition.name) })),
  deadlines: deadlines(['doc_index_build'], timeouts),
});
