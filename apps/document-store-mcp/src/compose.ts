import { composeDocumentStore as compose, type ComposedDocumentStore } from '@lectern/document-store';
import type { Logger } from '@lectern/runtime';
import type { DocumentStoreConfig } from './config.js';

/** The document store's adapters from this service's configuration (see `@lectern/document-store`). */
export const composeDocumentStore = (config: DocumentStoreConfig, log: Logger): ComposedDocumentStore =>
  compose({
    dataDir: config.DATA_DIR,
    vectorDir: config.CHROMA_PERSIST_DIR,
    qdrantUrl: config.QDRANT_URL,
    qdrantApiKey: config.QDRANT_API_KEY,
    redisUrl: config.REDIS_URL,
    embedding: {
      model: config.EMBEDDING_MODEL,
      modelDir: config.EMBEDDING_MODEL_DIR,
      quantized: config.EMBEDDING_QUANTIZED,
      threads: config.EMBEDDING_THREADS || undefined,
    },
    roots: config.DOCUMENT_ROOTS,
    defaultProject: config.DOCUMENT_STORE_PROJECT,
    enableOcr: config.ENABLE_OCR,
    imageRatioThreshold: config.IMAGE_RATIO_THRESHOLD,
    ingestTimeoutMs: config.INGEST_TIMEOUT_S * 1000,
    maxDocumentBytes: config.MAX_DOCUMENT_BYTES,
    log,
  });
