// SPDX-License-Identifier: AGPL-3.0-or-later
import { envBool, envInt, envList, envString, envUrl, queueEnvShape, queueWorkerSettings } from '@lectern/runtime';
import { z } from 'zod';
import { defaultSearchThreads } from '@lectern/vector-store';
import type { EmbedderOptions, PlatformOptions, VectorStoreOptions } from './platform.js';

/**
 * The variables every service reading the store takes from the same names, so that document-store-mcp,
 * policy-kb-mcp, extraction-api and the CLI read one store with one model: the vector store (embedded SQLite
 * or Qdrant), the embedding model, Redis (BullMQ queues and the Redis policy registry when set) and how this
 * process's queue workers hold their jobs.
 */
/**
 * The blob store (files passed between services: uploads, large conversion results; `platform.blobStore()`):
 * a local directory embedded, Redis distributed. Every service that reads or writes those files takes them.
 */
export const blobEnvShape = {
  /** Lifetime of an upload or a result in the blob store (policy uploads are kept until their revision is deleted). */
  BLOB_TTL_S: envInt(24 * 3600, 60, 365 * 24 * 3600),
  /** Largest blob (a document upload, a conversion result); more is `too_large` (413). */
  BLOB_MAX_BYTES: envInt(256 * 1024 * 1024, 1),
  /** All live blobs together; a write beyond it is `insufficient_storage` (507). */
  BLOB_QUOTA_BYTES: envInt(4 * 1024 ** 3, 1),
  /** Bytes per Redis value of a blob (distributed mode). */
  BLOB_CHUNK_BYTES: envInt(1024 * 1024, 64 * 1024, 64 * 1024 * 1024),
};

export const storeEnvShape = {
  /** Spec 000 names ChromaDB's directory; here it is where the embedded store lives (default DATA_DIR/vectors). */
  CHROMA_PERSIST_DIR: envString(),
  QDRANT_URL: envUrl(),
  QDRANT_API_KEY: envString(),
  /**
   * Worker threads that run the embedded store's searches (dense, keyword, hybrid), each over its own read-only
   * connection; writes stay on the service's thread. Default min(4, cores) on more than one core; 0: searches run
   * on the service's thread. Ignored with Qdrant.
   */
  SEARCH_THREADS: envInt(defaultSearchThreads(), 0, 64),
  /** Embedding model for new projects: a model id or `auto` (MiniLM when its files are present, else the bundled model). */
  EMBEDDING_MODEL: z.preprocess((v) => (v === '' ? undefined : v), z.string().default('auto')),
  /** Directory holding the all-MiniLM-L6-v2 files (default: `DATA_DIR/models/<model>`). */
  EMBEDDING_MODEL_DIR: envString(),
  EMBEDDING_QUANTIZED: envBool(false),
  EMBEDDING_THREADS: envInt(0, 0, 256),
  /** `auto` with no model present: fetch potion-base-2M (7.5 MB, sha256-verified) at the first embedding. */
  EMBEDDING_AUTO_FETCH: envBool(true),
  /** The model hub's base URL (as huggingface_hub reads it), e.g. a mirror; default https://huggingface.co. */
  HF_ENDPOINT: envUrl(),
  /** Redis: BullMQ queues (and the Redis policy registry) when set; in-process queues and SQLite otherwise. */
  REDIS_URL: envUrl(),
  /** How this process's queue workers hold their jobs (QUEUE_LOCK_MS, QUEUE_STALL_LIMIT, QUEUE_SHUTDOWN_GRACE_MS). */
  ...queueEnvShape,
  ...blobEnvShape,
};

/** The document input variables of every service that reads client files (same names, same meaning). */
export const documentInputEnvShape = {
  /** Allowed roots for client-supplied file paths; default: the data directory. */
  DOCUMENT_ROOTS: envList([]),
  ENABLE_OCR: envBool(true),
  MAX_DOCUMENT_BYTES: envInt(200 * 1024 * 1024, 1),
};

/** The MCP servers' variables (document-store-mcp, policy-kb-mcp, extraction-api's doc tools, `lectern mcp`). */
export const mcpServiceEnvShape = {
  /**
   * Deadline of each MCP tool call other than the ingest tools (INGEST_TIMEOUT_S, DOC_INDEX_TIMEOUT_S) and spec
   * 004's (TOOL_TIMEOUT_S): searches, reads, listings, deletions. A client may lower it per call, never raise it.
   */
  MCP_TOOL_TIMEOUT_S: envInt(60, 1, 86_400),
};

type StoreEnv = z.infer<z.ZodObject<typeof storeEnvShape>>;
type QueueEnv = z.infer<z.ZodObject<typeof queueEnvShape>>;
type BlobEnv = z.infer<z.ZodObject<typeof blobEnvShape>>;

/** The blob store's settings from its variables (`platformOptions` passes them when a configuration reads them). */
export const blobSettings = (env: BlobEnv): NonNullable<PlatformOptions['blob']> => ({
  ttlMs: env.BLOB_TTL_S * 1000,
  maxBytes: env.BLOB_MAX_BYTES,
  quotaBytes: env.BLOB_QUOTA_BYTES,
  chunkBytes: env.BLOB_CHUNK_BYTES,
});

/** The embedder settings from those variables. */
export const embeddingSettings = (
  env: Pick<StoreEnv, 'EMBEDDING_MODEL' | 'EMBEDDING_MODEL_DIR' | 'EMBEDDING_QUANTIZED' | 'EMBEDDING_THREADS'> &
    Partial<Pick<StoreEnv, 'EMBEDDING_AUTO_FETCH' | 'HF_ENDPOINT'>>,
): EmbedderOptions => ({
  model: env.EMBEDDING_MODEL,
  modelDir: env.EMBEDDING_MODEL_DIR,
  quantized: env.EMBEDDING_QUANTIZED,
  threads: env.EMBEDDING_THREADS || undefined,
  ...(env.EMBEDDING_AUTO_FETCH ? { fetchDefault: { endpoint: env.HF_ENDPOINT } } : {}),
});

/** The vector store and embedding settings every service reading the store takes from the same variables. */
export const storeAndEmbeddingSettings = (
  env: Pick<
    StoreEnv,
    | 'CHROMA_PERSIST_DIR'
    | 'QDRANT_URL'
    | 'QDRANT_API_KEY'
    | 'EMBEDDING_MODEL'
    | 'EMBEDDING_MODEL_DIR'
    | 'EMBEDDING_QUANTIZED'
    | 'EMBEDDING_THREADS'
  > &
    Partial<Pick<StoreEnv, 'EMBEDDING_AUTO_FETCH' | 'HF_ENDPOINT' | 'SEARCH_THREADS'>>,
): Pick<VectorStoreOptions, 'vectorDir' | 'qdrantUrl' | 'qdrantApiKey' | 'searchThreads'> & {
  embedding: EmbedderOptions;
} => ({
  vectorDir: env.CHROMA_PERSIST_DIR,
  qdrantUrl: env.QDRANT_URL,
  qdrantApiKey: env.QDRANT_API_KEY,
  ...(env.SEARCH_THREADS !== undefined ? { searchThreads: env.SEARCH_THREADS } : {}),
  embedding: embeddingSettings(env),
});

/**
 * `createPlatform`'s options from a service's configuration and its logger: `DATA_DIR`, `REDIS_URL` (embedded or
 * distributed), and the queue worker and blob store settings when the configuration reads them (`queueEnvShape`,
 * `blobEnvShape`).
 */
export const platformOptions = (
  env: { DATA_DIR: string; REDIS_URL?: string | undefined } & Partial<QueueEnv> & Partial<BlobEnv>,
  log: PlatformOptions['log'],
  extra: Omit<Partial<PlatformOptions>, 'dataDir' | 'log' | 'redisUrl'> = {},
): PlatformOptions => ({
  dataDir: env.DATA_DIR,
  log,
  redisUrl: env.REDIS_URL,
  ...(env.QUEUE_LOCK_MS !== undefined &&
  env.QUEUE_STALL_LIMIT !== undefined &&
  env.QUEUE_SHUTDOWN_GRACE_MS !== undefined
    ? {
        queue: queueWorkerSettings({
          QUEUE_LOCK_MS: env.QUEUE_LOCK_MS,
          QUEUE_STALL_LIMIT: env.QUEUE_STALL_LIMIT,
          QUEUE_SHUTDOWN_GRACE_MS: env.QUEUE_SHUTDOWN_GRACE_MS,
        }),
      }
    : {}),
  ...(env.BLOB_TTL_S !== undefined &&
  env.BLOB_MAX_BYTES !== undefined &&
  env.BLOB_QUOTA_BYTES !== undefined &&
  env.BLOB_CHUNK_BYTES !== undefined
    ? {
        blob: blobSettings({
          BLOB_TTL_S: env.BLOB_TTL_S,
          BLOB_MAX_BYTES: env.BLOB_MAX_BYTES,
          BLOB_QUOTA_BYTES: env.BLOB_QUOTA_BYTES,
          BLOB_CHUNK_BYTES: env.BLOB_CHUNK_BYTES,
        }),
      }
    : {}),
  ...extra,
});
