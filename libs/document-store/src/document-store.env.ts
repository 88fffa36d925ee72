import { ProjectIdSchema } from '@lectern/contracts';
import { commonEnvShape, envBool, envEnum, envInt, envList, envNumber, envString, envUrl } from '@lectern/runtime';
import { z } from 'zod';
import type { DocumentStoreSettings } from './document-store.js';

/**
 * The document store's variables (spec 000's names and defaults, plus the platform's), shared by
 * document-store-mcp and `lectern mcp documents` so that both serve the same store the same way.
 */
export const documentStoreEnvShape = {
  DOCUMENT_STORE_PROJECT: z.preprocess((v) => (v === '' ? undefined : v), ProjectIdSchema.default('application_docs')),
  /** Allowed roots for client-supplied file paths; default: the data directory. */
  DOCUMENT_ROOTS: envList([]),
  ENABLE_OCR: envBool(true),
  IMAGE_RATIO_THRESHOLD: envNumber(0.7, 0, 1),
  INGEST_TIMEOUT_S: envInt(600, 1, 86_400),
  /** Spec 000 names ChromaDB's directory; here it is where the embedded store lives (default DATA_DIR/vectors). */
  CHROMA_PERSIST_DIR: envString(),
  /** Embedding model for new projects: a model id or `auto` (MiniLM when its files are present, else the bundled model). */
  EMBEDDING_MODEL: z.preprocess((v) => (v === '' ? undefined : v), z.string().default('auto')),
  /** Directory holding the all-MiniLM-L6-v2 files (default: `DATA_DIR/models/<model>`). */
  EMBEDDING_MODEL_DIR: envString(),
  EMBEDDING_QUANTIZED: envBool(false),
  EMBEDDING_THREADS: envInt(0, 0, 256),
  MAX_DOCUMENT_BYTES: envInt(200 * 1024 * 1024, 1),
  /** Ranking of spec 002's retrieve_document_chunks: hybrid (BM25 + dense, fused) or dense only. */
  RETRIEVE_SEARCH_MODE: envEnum(['hybrid', 'dense'] as const, 'hybrid'),
  /** Spec 004 FR-011: deadline of each spec 004 tool call, 8-15 s. */
  TOOL_TIMEOUT_S: envInt(15, 8, 15),
  /** Spec 004 FR-010: the most characters a find_chunks/query_hybrid result's text keeps (clients may lower it). */
  RETRIEVAL_MAX_CHARS: envInt(1500, 50, 20_000),
  QDRANT_URL: envUrl(),
  QDRANT_API_KEY: envString(),
  REDIS_URL: envUrl(),
};

export const DocumentStoreEnvSchema = z.object({ ...documentStoreEnvShape, PDF_ENGINE: commonEnvShape.PDF_ENGINE });
export type DocumentStoreEnv = z.infer<typeof DocumentStoreEnvSchema>;

type StoreEnvKeys =
  | 'CHROMA_PERSIST_DIR'
  | 'QDRANT_URL'
  | 'QDRANT_API_KEY'
  | 'EMBEDDING_MODEL'
  | 'EMBEDDING_MODEL_DIR'
  | 'EMBEDDING_QUANTIZED'
  | 'EMBEDDING_THREADS';

/** The vector store and embedding settings every service reading the store takes from the same variables. */
export const storeAndEmbeddingSettings = (
  env: Pick<DocumentStoreEnv, StoreEnvKeys>,
): Pick<DocumentStoreSettings, 'vectorDir' | 'qdrantUrl' | 'qdrantApiKey' | 'embedding'> => ({
  vectorDir: env.CHROMA_PERSIST_DIR,
  qdrantUrl: env.QDRANT_URL,
  qdrantApiKey: env.QDRANT_API_KEY,
  embedding: {
    model: env.EMBEDDING_MODEL,
    modelDir: env.EMBEDDING_MODEL_DIR,
    quantized: env.EMBEDDING_QUANTIZED,
    threads: env.EMBEDDING_THREADS || undefined,
  },
});

/** The platform's document-store settings from those variables. */
export const documentStoreSettings = (env: DocumentStoreEnv): DocumentStoreSettings => ({
  ...storeAndEmbeddingSettings(env),
  defaultProject: env.DOCUMENT_STORE_PROJECT,
  roots: env.DOCUMENT_ROOTS,
  pdfEngine: env.PDF_ENGINE,
  enableOcr: env.ENABLE_OCR,
  imageRatioThreshold: env.IMAGE_RATIO_THRESHOLD,
  maxDocumentBytes: env.MAX_DOCUMENT_BYTES,
  ingestTimeoutMs: env.INGEST_TIMEOUT_S * 1000,
  retrieveMode: env.RETRIEVE_SEARCH_MODE,
  toolDeadlineMs: env.TOOL_TIMEOUT_S * 1000,
  retrievalMaxChars: env.RETRIEVAL_MAX_CHARS,
});

/** How the ready line describes the store: `sqlite <dir>` or `qdrant <url>`, and the queue mode. */
export const describeDocumentStore = (env: DocumentStoreEnv & { DATA_DIR: string }): Record<string, string> => ({
  store: env.QDRANT_URL ? `qdrant ${env.QDRANT_URL}` : `sqlite ${env.CHROMA_PERSIST_DIR ?? `${env.DATA_DIR}/vectors`}`,
  queue: env.REDIS_URL ? 'bullmq (redis)' : 'in-process',
  project: env.DOCUMENT_STORE_PROJECT,
  embedding: env.EMBEDDING_MODEL,
});
