import { AuditLog, KeyedMutex, ProjectCache, type DocumentStoreDeps, type RetrieveMode, type StoreDeps } from '@lectern/document-store';
import type { PdfEngine } from '@lectern/conversion';
import { serviceConversion } from './service-conversion.js';
import type { EmbedderOptions, Platform, VectorStoreOptions } from './platform.js';

export interface DocumentStoreSettings extends VectorStoreOptions {
  defaultProject: string;
  embedding: EmbedderOptions;
  /** Allowed roots of client paths (default: the data directory). */
  roots: readonly string[];
  pdfEngine?: PdfEngine | undefined;
  enableOcr: boolean;
  imageRatioThreshold: number;
  maxDocumentBytes: number;
  ingestTimeoutMs: number;
  retrieveMode?: RetrieveMode | undefined;
  /** Spec 004 tool deadline (8-15 s). */
  toolDeadlineMs?: number | undefined;
  /** Spec 004 retrieval policy: most characters of a result's text. */
  retrievalMaxChars?: number | undefined;
}

/** What the read-only document-store use cases need (the CLI's `docstore check`): the store alone. */
export const documentStoreReader = (platform: Platform, s: VectorStoreOptions & { defaultProject: string }): StoreDeps => {
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
export const documentStoreDeps = (platform: Platform, s: DocumentStoreSettings): DocumentStoreDeps & { retrieveMode: RetrieveMode } => ({
  ...documentStoreReader(platform, s),
  embedders: platform.embedders(s.embedding),
  conversion: serviceConversion(platform, s),
  roots: s.roots.length > 0 ? s.roots : [platform.dataDir],
  enableOcr: s.enableOcr,
  imageRatioThreshold: s.imageRatioThreshold,
  ingestTimeoutMs: s.ingestTimeoutMs,
  maxDocumentBytes: s.maxDocumentBytes,
  retrieveMode: s.retrieveMode ?? 'hybrid',
  locks: new KeyedMutex(),
  ...(s.toolDeadlineMs ? { toolDeadlineMs: s.toolDeadlineMs } : {}),
  ...(s.retrievalMaxChars ? { retrieval: { maxResultChars: s.retrievalMaxChars } } : {}),
  log: platform.log,
});
