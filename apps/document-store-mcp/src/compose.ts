import type { DocumentStoreDeps, RetrieveMode } from '@lectern/document-store';
import { createPlatform, documentStoreDeps, documentStoreSettings, type Platform } from '@lectern/platform';
import { queueWorkerSettings, type Logger } from '@lectern/runtime';
import type { DocumentStoreConfig } from './config.js';

export interface ComposedDocumentStore {
  deps: DocumentStoreDeps & { retrieveMode: RetrieveMode };
  /** Owns the store, embedders and conversion path; `platform.shutdownSteps()` closes them in order. */
  platform: Platform;
}

/**
 * The document store's services from this service's configuration, through `@lectern/platform`: Qdrant
 * when QDRANT_URL is set (else the embedded SQLite store), conversion jobs on converter workers when
 * REDIS_URL is set (else in this process: the same job and processor).
 */
export const composeDocumentStore = (
  config: DocumentStoreConfig,
  log: Logger,
  platform?: Platform,
): ComposedDocumentStore => {
  const p =
    platform ??
    createPlatform({
      dataDir: config.DATA_DIR,
      log,
      redisUrl: config.REDIS_URL,
      queue: queueWorkerSettings(config),
    });
  return { platform: p, deps: documentStoreDeps(p, documentStoreSettings(config)) };
};
