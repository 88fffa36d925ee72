// SPDX-License-Identifier: AGPL-3.0-or-later
import { ProjectIdSchema } from '@lectern/contracts';
import { OCR_THRESHOLDS } from '@lectern/conversion';
import { documentInputEnvShape, mcpServiceEnvShape, storeEnvShape } from '@lectern/platform';
import { SCANNED_PDF_POLICIES } from '@lectern/ingestion';
import { commonEnvShape, envEnum, envInt, envNumber } from '@lectern/runtime';
import { z } from 'zod';
import type { DocumentStoreSettings } from './document-store.module.js';
import { serviceIngestSettings } from './service-ingest.js';

/**
 * The document store's variables (spec 000's names and defaults, plus the platform's), shared by
 * document-store-mcp and `lectern mcp documents` so that both serve the same store the same way.
 */
export const documentStoreEnvShape = {
  DOCUMENT_STORE_PROJECT: z.preprocess((v) => (v === '' ? undefined : v), ProjectIdSchema.default('application_docs')),
  ...documentInputEnvShape,
  IMAGE_RATIO_THRESHOLD: envNumber(OCR_THRESHOLDS.imageRatio, 0, 1),
  /** A scanned (image-based) PDF: `ocr` keeps a scan whose OCR reads as prose; `skip` skips it (spec 000's rule). */
  SCANNED_PDF_POLICY: envEnum(SCANNED_PDF_POLICIES, 'ocr'),
  INGEST_TIMEOUT_S: envInt(600, 1, 86_400),
  /** Ranking of spec 002's retrieve_document_chunks: hybrid (BM25 + dense, fused) or dense only. */
  RETRIEVE_SEARCH_MODE: envEnum(['hybrid', 'dense'] as const, 'hybrid'),
  ...mcpServiceEnvShape,
  /** Spec 004 FR-011: deadline of each spec 004 tool call, 8-15 s. */
  TOOL_TIMEOUT_S: envInt(15, 8, 15),
  /** Spec 004 FR-010: the most characters a find_chunks/query_hybrid result's text keeps (clients may lower it). */
  RETRIEVAL_MAX_CHARS: envInt(1500, 50, 20_000),
  /** The store, embedding model, Redis and queue worker variables every service shares. */
  ...storeEnvShape,
};

export const DocumentStoreEnvSchema = z.object({
  ...documentStoreEnvShape,
  PDF_ENGINE: commonEnvShape.PDF_ENGINE,
  OCR_ENGINE: commonEnvShape.OCR_ENGINE,
});
export type DocumentStoreEnv = z.infer<typeof DocumentStoreEnvSchema>;

/** The document store's settings from those variables. */
export const documentStoreSettings = (env: DocumentStoreEnv): DocumentStoreSettings => ({
  ...serviceIngestSettings(env),
  defaultProject: env.DOCUMENT_STORE_PROJECT,
  imageRatioThreshold: env.IMAGE_RATIO_THRESHOLD,
  scannedPdfPolicy: env.SCANNED_PDF_POLICY,
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
