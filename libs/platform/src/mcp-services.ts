import { policyKbTools } from '@lectern/contracts';
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

/** The six tools of spec 001 with their full contracts (without deps every tool answers `not_implemented`). */
export const policyKbToolRegistrations = (deps?: PolicyKbDeps): ToolRegistration[] =>
  deps ? boundPolicyKbTools(deps) : policyKbTools.map((definition) => ({ definition, handler: notImplemented(definition.name) }));

/** policy-kb-mcp's server: spec 001's tools. */
export const policyKbMcpService = (deps?: PolicyKbDeps): McpService => ({
  name: 'policy-kb-mcp',
  version: LECTERN_VERSION,
  instructions:
    'Lectern policy knowledge base: search versioned policy documents "as in force on" a date, read sections, ' +
    'list policies and revisions, ingest and remove revisions.',
  tools: policyKbToolRegistrations(deps),
});
