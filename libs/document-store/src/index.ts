// SPDX-License-Identifier: AGPL-3.0-or-later
export type { ConversionPort, DocumentStoreDeps, ProgressFn, SearchDeps, StoreDeps } from './deps.js';
export { KeyedMutex } from './keyed-mutex.js';
export { AUDIT_COLLECTION, AuditLog, AuditRecordSchema } from './audit.js';
export type { AuditRecord, NewAuditRecord } from './audit.js';
export {
  CslItemSchema,
  citationMeta,
  doisIn,
  matchCitation,
  normaliseDoi,
  normaliseTitle,
  readCslJson,
  titleSimilarity,
} from './citations.js';
export type { CitationMatch, CslItem, MatchEvidence } from './citations.js';
export { PROJECT_INGEST_ORIGIN, ingestProjectFile, projectDocumentId } from './project-ingest.js';
export type { DocumentOutcome, ProjectIngestContext } from './project-ingest.js';
export {
  describeChunking,
  listDocumentFiles,
  planReindex,
  rebuildProject,
  resumeStatePath,
  runProjectIngest,
  saveReindexState,
  validateProject,
} from './project-runs.js';
export type {
  ProjectRunOptions,
  ProjectRunSummary,
  RebuildOptions,
  RebuildSummary,
  ResumeState,
  ValidationCheck,
} from './project-runs.js';
export {
  CLIENT_CHUNKING,
  PROJECTS_COLLECTION,
  ProjectCache,
  SPEC000_CHUNKING,
  assertSameModel,
  createProject,
  embeddingMismatch,
  ensureProject,
  listProjectRecords,
  readProjectRecord,
  requireProject,
  resolveProject,
  writeProjectRecord,
} from './projects.js';
export type { CreateProjectOptions, EnsureProjectOptions, ResolvedProject } from './projects.js';
export { RegistryEntrySchema, VectorStoreDocumentRegistry, registryCollection } from './registry.js';
export type { RegistryEntry } from './registry.js';
export { ingestDocument } from './ingest-document.js';
export { ensureProjectCollection } from './project-collection.js';
export type { IngestDocumentInput, IngestDocumentResult } from './ingest-document.js';
export {
  SEARCH_DOCUMENTS_DENSE_DEPTH,
  SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE,
  searchDocuments,
  searchFilter,
} from './search-documents.js';
export type { SearchDocumentsInput, SearchDocumentsResult, SearchMode, SearchResultItem } from './search-documents.js';
export { getDocumentText } from './get-document-text.js';
export { listIngestedDocuments } from './list-documents.js';
export { deleteDocument } from './delete-document.js';
export { blobKeptDocumentFiles, type KeptDocumentFiles } from './kept-files.js';
export { checkConsistency } from './check-consistency.js';
export type { ConsistencyReport } from './check-consistency.js';
export { listCollectionNames, retrieveDocumentChunks, storeDocumentChunks } from './collection-tools.js';
export type { RetrieveMode } from './collection-tools.js';
export { documentStoreToolRegistrations } from './tools/tool-registrations.js';
export { documentTools } from './tools/document-tools.js';
export { collectionTools } from './tools/collection-tools.js';
export { projectTools } from './tools/project-tools.js';
export { storeChunksAudited } from './store-chunks-audit.js';
export {
  DEFAULT_MAX_RESULT_CHARS,
  citationText,
  findChunks,
  inspectProject,
  listProjects,
  migrateProject,
  QUERY_HYBRID_DOCUMENT_EVIDENCE,
  queryHybrid,
  redactPayload,
  retrievalFilter,
  storeChunks,
  toRetrievalResult,
  trimAtWord,
} from './project-chunks.js';
export type { ProjectChunkDeps, RetrievalPolicy } from './project-chunks.js';
export {
  documentStoreDeps,
  documentStoreMcpService,
  documentStoreModule,
  documentStoreReader,
  sciragMcpService,
} from './document-store.module.js';
export type { DocumentStoreModule, DocumentStoreSettings } from './document-store.module.js';
export {
  DocumentStoreEnvSchema,
  describeDocumentStore,
  documentStoreEnvShape,
  documentStoreSettings,
} from './document-store.env.js';
export type { DocumentStoreEnv } from './document-store.env.js';
export { serviceIngestDeps, serviceIngestSettings } from './service-ingest.js';
export type { ServiceIngestSettings } from './service-ingest.js';
export { recoverHalfWrittenDocuments } from './recover-half-written.js';
export type { HalfWrittenReport } from './recover-half-written.js';
export {
  citeAndAnswerPrompt,
  documentStoreCompletions,
  documentStorePrompts,
  reviewApplicationPrompt,
} from './document-prompts.js';
export { pageAfter } from './list-cursor.js';
export { DOCUMENT_RESOURCES_PAGE, DOCUMENT_URI_TEMPLATE, documentResources } from './document-resources.js';
