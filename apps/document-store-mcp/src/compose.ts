import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { conversionQueue, type ConversionJobPayload, type ConversionJobResult } from '@lectern/contracts';
import { closeConversionPool } from '@lectern/conversion';
import { EmbedderPool, KeyedMutex, type DocumentStoreDeps } from '@lectern/document-store';
import { closeRedis, connectRedis, createBullmqQueue, type JobQueue } from '@lectern/queue';
import type { Logger } from '@lectern/runtime';
import type { ShutdownStep } from '@lectern/transport';
import { createVectorStore } from '@lectern/vector-store';
import type { DocumentStoreConfig } from './config.js';
import { inProcessConvert, queueConvert } from './convert-port.js';

/**
 * Adapters chosen by configuration alone: Qdrant when QDRANT_URL is set (else the embedded SQLite store
 * under DATA_DIR), conversion through the `conversion` queue when REDIS_URL is set (else in-process).
 * Returns the use-case deps and the ordered shutdown steps for them (after HTTP).
 */
export const composeDocumentStore = (config: DocumentStoreConfig, log: Logger): { deps: DocumentStoreDeps; steps: ShutdownStep[] } => {
  const dataDir = resolve(config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const steps: ShutdownStep[] = [];
  const store = createVectorStore({
    dataDir: config.CHROMA_PERSIST_DIR ? resolve(config.CHROMA_PERSIST_DIR) : resolve(dataDir, 'vectors'),
    ...(config.QDRANT_URL ? { qdrantUrl: config.QDRANT_URL } : {}),
    ...(config.QDRANT_API_KEY ? { qdrantApiKey: config.QDRANT_API_KEY } : {}),
    log,
  });
  const embedders = new EmbedderPool({
    model: config.EMBEDDING_MODEL,
    modelDir: config.EMBEDDING_MODEL_DIR,
    cacheDir: resolve(dataDir, 'models'),
    quantized: config.EMBEDDING_QUANTIZED,
    ...(config.EMBEDDING_THREADS > 0 ? { threads: config.EMBEDDING_THREADS } : {}),
    log,
  });
  let convert = inProcessConvert;
  if (config.REDIS_URL) {
    const connection = connectRedis(config.REDIS_URL);
    const queue: JobQueue<ConversionJobPayload, ConversionJobResult> = createBullmqQueue({ definition: conversionQueue, connection, logger: log });
    convert = queueConvert(queue, dataDir, config.MAX_DOCUMENT_BYTES);
    steps.push({ name: 'conversion-queue', close: () => queue.close() }, { name: 'redis', close: () => closeRedis(connection) });
  } else {
    steps.push({ name: 'ocr-workers', close: () => closeConversionPool() });
  }
  steps.push({ name: 'embedders', close: () => embedders.close() }, { name: 'vector-store', close: () => store.close() });
  const roots = config.DOCUMENT_ROOTS.length > 0 ? config.DOCUMENT_ROOTS.map((r) => resolve(r)) : [dataDir];
  return {
    deps: {
      store,
      embedders,
      convert,
      roots,
      defaultProject: config.DOCUMENT_STORE_PROJECT,
      enableOcr: config.ENABLE_OCR,
      imageRatioThreshold: config.IMAGE_RATIO_THRESHOLD,
      ingestTimeoutMs: config.INGEST_TIMEOUT_S * 1000,
      locks: new KeyedMutex(),
      log,
    },
    steps,
  };
};
