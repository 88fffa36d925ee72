import { ProjectIdSchema } from '@lectern/contracts';
import { commonEnvShape, envBool, envInt, envList } from '@lectern/runtime';
import { z } from 'zod';
import { documentStoreEnvShape, storeAndEmbeddingSettings } from './document-store.env.js';
import type { PolicyKbSettings } from './policy-kb.js';

/**
 * The policy KB's variables (spec 001's names and defaults, plus the platform's), shared by policy-kb-mcp and
 * the CLI (`lectern mcp policies`, `lectern policy ...`); the embedding and store variables are the document
 * store's, so both services read one store with one model.
 */
export const policyKbEnvShape = {
  POLICY_KB_PROJECT: z.preprocess((v) => (v === '' ? undefined : v), ProjectIdSchema.default('policy_docs')),
  /** Allowed roots of `ingest_policy_revision`'s file paths; default: the data directory. */
  DOCUMENT_ROOTS: envList([]),
  ENABLE_OCR: envBool(true),
  INGEST_TIMEOUT_S: envInt(1800, 1, 86_400),
  CHROMA_PERSIST_DIR: documentStoreEnvShape.CHROMA_PERSIST_DIR,
  EMBEDDING_MODEL: documentStoreEnvShape.EMBEDDING_MODEL,
  EMBEDDING_MODEL_DIR: documentStoreEnvShape.EMBEDDING_MODEL_DIR,
  EMBEDDING_QUANTIZED: documentStoreEnvShape.EMBEDDING_QUANTIZED,
  EMBEDDING_THREADS: documentStoreEnvShape.EMBEDDING_THREADS,
  MAX_DOCUMENT_BYTES: documentStoreEnvShape.MAX_DOCUMENT_BYTES,
  /** Redis policy registry (spec 001 key schema) and BullMQ queues when set; SQLite and in-process otherwise. */
  REDIS_URL: documentStoreEnvShape.REDIS_URL,
  QDRANT_URL: documentStoreEnvShape.QDRANT_URL,
  QDRANT_API_KEY: documentStoreEnvShape.QDRANT_API_KEY,
};

export const PolicyKbEnvSchema = z.object({ ...policyKbEnvShape, PDF_ENGINE: commonEnvShape.PDF_ENGINE });
export type PolicyKbEnv = z.infer<typeof PolicyKbEnvSchema>;

/** The platform's policy KB settings from those variables. */
export const policyKbSettings = (env: PolicyKbEnv): PolicyKbSettings => ({
  ...storeAndEmbeddingSettings(env),
  project: env.POLICY_KB_PROJECT,
  roots: env.DOCUMENT_ROOTS,
  pdfEngine: env.PDF_ENGINE,
  enableOcr: env.ENABLE_OCR,
  ingestTimeoutMs: env.INGEST_TIMEOUT_S * 1000,
  maxDocumentBytes: env.MAX_DOCUMENT_BYTES,
});
