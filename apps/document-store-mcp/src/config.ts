import { commonEnvShape, envBool, envEnum, envInt, envList, envNumber, envPort, envString, envUrl, parseEnv } from '@lectern/runtime';
import { ProjectIdSchema } from '@lectern/contracts';
import { z } from 'zod';

/** Environment of document-store-mcp (spec 000's names and defaults, plus the platform's). */
export const DocumentStoreEnvSchema = z.object({
  ...commonEnvShape,
  DOCUMENT_STORE_PORT: envPort(3002),
  MCP_HTTP_SESSIONS: envEnum(['stateless', 'stateful'] as const, 'stateless'),
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
  QDRANT_URL: envUrl(),
  QDRANT_API_KEY: envString(),
  REDIS_URL: envUrl(),
});

export type DocumentStoreConfig = z.infer<typeof DocumentStoreEnvSchema>;

export const loadConfig = (env: Record<string, string | undefined>): DocumentStoreConfig =>
  parseEnv(DocumentStoreEnvSchema, env);
