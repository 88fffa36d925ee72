import type { DocumentStoreDeps, RetrieveMode } from '@lectern/document-store';
import { createPlatform, documentStoreDeps, type Platform } from '@lectern/platform';
import type { Logger } from '@lectern/runtime';
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
export const composeDocumentStore = (config: DocumentStoreConfig, log: Logger, platform?: Platform): ComposedDocumentStore => {
  const p = platform ?? createPlatform({ dataDir: config.DATA_DIR, log, redisUrl: config.REDIS_URL });
  return {
    platform: p,
    deps: documentStoreDeps(p, {
      vectorDir: config.CHROMA_PERSIST_DIR,
      qdrantUrl: config.QDRANT_URL,
      qdrantApiKey: config.QDRANT_API_KEY,
      embedding: {
        model: config.EMBEDDING_MODEL,
        modelDir: config.EMBEDDING_MODEL_DIR,
        quantized: config.EMBEDDING_QUANTIZED,
        threads: config.EMBEDDING_THREADS || undefined,
      },
      defaultProject: config.DOCUMENT_STORE_PROJECT,
      roots: config.DOCUMENT_ROOTS,
      pdfEngine: config.PDF_ENGINE,
      enableOcr: config.ENABLE_OCR,
      imageRatioThreshold: config.IMAGE_RATIO_THRESHOLD,
      maxDocumentBytes: config.MAX_DOCUMENT_BYTES,
      ingestTimeoutMs: config.INGEST_TIMEOUT_S * 1000,
      retrieveMode: config.RETRIEVE_SEARCH_MODE,
    }),
  };
};
