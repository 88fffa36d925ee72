// SPDX-License-Identifier: AGPL-3.0-or-later
import type { AnyToolDefinition } from './tool-definition.js';
import { docIndexBuildTool } from './tools/doc-index-build.schema.js';
import { docReadTool } from './tools/doc-read.schema.js';
import { docSearchTool } from './tools/doc-search.schema.js';
import { jsonValidateAndNormalizeTool } from './tools/json-validate-and-normalize.schema.js';
import { deleteDocumentTool } from './tools/delete-document.schema.js';
import { findChunksTool } from './tools/find-chunks.schema.js';
import { getDocumentTextTool } from './tools/get-document-text.schema.js';
import { getPolicySectionTool } from './tools/get-policy-section.schema.js';
import { ingestDocumentTool } from './tools/ingest-document.schema.js';
import { ingestPolicyRevisionTool } from './tools/ingest-policy-revision.schema.js';
import { inspectCollectionTool } from './tools/inspect-collection.schema.js';
import { listCollectionsTool } from './tools/list-collections.schema.js';
import { listIngestedDocumentsTool } from './tools/list-ingested-documents.schema.js';
import { listPolicyDocumentsTool } from './tools/list-policy-documents.schema.js';
import { listPolicyRevisionsTool } from './tools/list-policy-revisions.schema.js';
import { listProjectsTool } from './tools/list-projects.schema.js';
import { queryHybridTool } from './tools/query-hybrid.schema.js';
import { removePolicyRevisionTool } from './tools/remove-policy-revision.schema.js';
import { retrieveDocumentChunksTool } from './tools/retrieve-document-chunks.schema.js';
import { searchApplicationDocsTool } from './tools/search-application-docs.schema.js';
import { searchPolicyTool } from './tools/search-policy.schema.js';
import { storeChunksTool } from './tools/store-chunks.schema.js';
import { storeDocumentChunksTool } from './tools/store-document-chunks.schema.js';

/** Spec 000 (plus delete_document), spec 002 and spec 004: the tools of document-store-mcp. */
export const documentStoreTools: readonly AnyToolDefinition[] = [
  ingestDocumentTool,
  searchApplicationDocsTool,
  getDocumentTextTool,
  listIngestedDocumentsTool,
  deleteDocumentTool,
  retrieveDocumentChunksTool,
  storeDocumentChunksTool,
  listCollectionsTool,
  storeChunksTool,
  findChunksTool,
  queryHybridTool,
  inspectCollectionTool,
  listProjectsTool,
];

/**
 * Spec 002 (SciRAG): the three tools its clients expect at `http://host:8001/sse`; document-store-mcp serves them
 * (also) on their own listener when `SCIRAG_PORT` is set.
 */
export const sciragTools: readonly AnyToolDefinition[] = [
  retrieveDocumentChunksTool,
  storeDocumentChunksTool,
  listCollectionsTool,
];

/** Spec 001: the tools of policy-kb-mcp. */
export const policyKbTools: readonly AnyToolDefinition[] = [
  searchPolicyTool,
  getPolicySectionTool,
  listPolicyDocumentsTool,
  listPolicyRevisionsTool,
  ingestPolicyRevisionTool,
  removePolicyRevisionTool,
];

/** Spec 003: the four document tools extraction-api serves at `/mcp` (its agent reaches them over MCP). */
export const extractionDocTools: readonly AnyToolDefinition[] = [
  docIndexBuildTool,
  docSearchTool,
  docReadTool,
  jsonValidateAndNormalizeTool,
];
