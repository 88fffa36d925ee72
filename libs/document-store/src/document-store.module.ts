// SPDX-License-Identifier: AGPL-3.0-or-later
import { documentResources } from './document-resources.js';
import { documentStoreCompletions, documentStorePrompts } from './document-prompts.js';
import { sciragTools } from '@lectern/contracts';
import type { ScannedPdfPolicy } from '@lectern/ingestion';
import {
  mcpTimeouts,
  toolDeadlines,
  type McpService,
  type McpTimeouts,
  type Platform,
  type VectorStoreOptions,
} from '@lectern/platform';
import { LECTERN_VERSION } from '@lectern/runtime';
import { AuditLog } from './audit.js';
import type { RetrieveMode } from './collection-tools.js';
import type { DocumentStoreDeps, StoreDeps } from './deps.js';
import { describeDocumentStore, documentStoreSettings, type DocumentStoreEnv } from './document-store.env.js';
import { blobKeptDocumentFiles } from './kept-files.js';
import { ProjectCache } from './projects.js';
import { recoverHalfWrittenDocuments } from './recover-half-written.js';
import { serviceIngestDeps, type ServiceIngestSettings } from './service-ingest.js';
import { documentStoreToolRegistrations } from './tools/tool-registrations.js';

export interface DocumentStoreSettings extends VectorStoreOptions, ServiceIngestSettings {
  defaultProject: string;
  imageRatioThreshold: number;
  /** `SCANNED_PDF_POLICY` (default `ocr`). */
  scannedPdfPolicy?: ScannedPdfPolicy | undefined;
  retrieveMode?: RetrieveMode | undefined;
  /** Spec 004 tool deadline (8-15 s). */
  toolDeadlineMs?: number | undefined;
  /** Spec 004 retrieval policy: most characters of a result's text. */
  retrievalMaxChars?: number | undefined;
}

/** What the read-only document-store use cases need (the CLI's `docstore check`): the store alone. */
export const documentStoreReader = (
  platform: Platform,
  s: VectorStoreOptions & { defaultProject: string },
): StoreDeps => {
  const store = platform.vectorStore(s);
  const audit = new AuditLog(store, platform.log);
  // Queued retrieval audit records are written before the store closes.
  platform.addShutdownStep('audit', 'audit log', () => audit.close());
  return { store, defaultProject: s.defaultProject, projectCache: new ProjectCache(), audit };
};

/**
 * Every document-store use case's deps: the store, the embedders, and the conversion job — converted in
 * this process when embedded (the same job and processor), by converter workers when distributed.
 */
export const documentStoreDeps = (
  platform: Platform,
  s: DocumentStoreSettings,
): DocumentStoreDeps & { retrieveMode: RetrieveMode } => ({
  ...documentStoreReader(platform, s),
  ...serviceIngestDeps(platform, s),
  imageRatioThreshold: s.imageRatioThreshold,
  scannedPdfPolicy: s.scannedPdfPolicy ?? 'ocr',
  keptFiles: blobKeptDocumentFiles(() => platform.blobStore()),
  retrieveMode: s.retrieveMode ?? 'hybrid',
  ...(s.toolDeadlineMs ? { toolDeadlineMs: s.toolDeadlineMs } : {}),
  ...(s.retrievalMaxChars ? { retrieval: { maxResultChars: s.retrievalMaxChars } } : {}),
});

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
  deadlines: toolDeadlines(['ingest_document', 'store_document_chunks'], timeouts, deps?.ingestTimeoutMs),
  resources: deps ? documentResources(deps) : undefined,
  prompts: documentStorePrompts,
  completions: deps ? documentStoreCompletions(deps) : undefined,
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
    deadlines: toolDeadlines(['store_document_chunks'], timeouts, deps?.ingestTimeoutMs),
  };
};

/** The document store composed on a platform: what document-store-mcp and `lectern mcp documents` serve. */
export interface DocumentStoreModule {
  deps: DocumentStoreDeps & { retrieveMode: RetrieveMode };
  /** document-store-mcp's MCP server (specs 000, 002, 004). */
  mcpService: McpService;
  /** Spec 002's three tools alone (the `SCIRAG_PORT` listener). */
  sciragMcpService: McpService;
  /** What the ready line says about the store (store, queue, project, embedding model). */
  details: Record<string, string>;
  /**
   * Recovery at start: chunks an interrupted ingest left without their registry entry are removed when this process
   * owns the store (embedded); with a shared store (REDIS_URL/QDRANT_URL) another replica may be mid-ingest, so they
   * are only reported (`lectern docstore check --repair` removes them). A failure is logged; it never throws.
   */
  recover(): Promise<void>;
}

/**
 * The document store from its variables on `platform`: Qdrant when QDRANT_URL is set (else the embedded SQLite
 * store), conversion jobs on converter workers when the platform has Redis (else in this process). Its shutdown
 * steps (the audit log's flush) are registered on the platform at their stage, so `platform.shutdownSteps()`
 * closes it in order with the store it writes to.
 */
export const documentStoreModule = (
  platform: Platform,
  env: DocumentStoreEnv & { DATA_DIR?: string },
): DocumentStoreModule => {
  const deps = documentStoreDeps(platform, documentStoreSettings(env));
  return {
    deps,
    mcpService: documentStoreMcpService(deps, mcpTimeouts(env)),
    sciragMcpService: sciragMcpService(deps, mcpTimeouts(env)),
    details: describeDocumentStore({ ...env, DATA_DIR: env.DATA_DIR ?? platform.dataDir }),
    recover: async () => {
      await recoverHalfWrittenDocuments(deps, { repair: !env.REDIS_URL && !env.QDRANT_URL }).catch((err: unknown) =>
        platform.log.error({ err }, 'document store recovery at start failed'),
      );
    },
  };
};
