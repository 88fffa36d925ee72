import {
  AuditLog,
  ProjectCache,
  type DocumentStoreDeps,
  type RetrieveMode,
  type StoreDeps,
} from '@lectern/document-store';
import { serviceIngestDeps, type ServiceIngestSettings } from './service-conversion.js';
import type { Platform, VectorStoreOptions } from './platform.js';

export interface DocumentStoreSettings extends VectorStoreOptions, ServiceIngestSettings {
  defaultProject: string;
  imageRatioThreshold: number;
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
  retrieveMode: s.retrieveMode ?? 'hybrid',
  ...(s.toolDeadlineMs ? { toolDeadlineMs: s.toolDeadlineMs } : {}),
  ...(s.retrievalMaxChars ? { retrieval: { maxResultChars: s.retrievalMaxChars } } : {}),
});
