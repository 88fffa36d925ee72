// SPDX-License-Identifier: AGPL-3.0-or-later
import { DocSearchModeSchema } from '@lectern/contracts';
import { documentInputEnvShape, embeddingSettings, mcpServiceEnvShape, storeEnvShape } from '@lectern/platform';
import { commonEnvShape, envInt, envString, envUrl } from '@lectern/runtime';
import { z } from 'zod';
import type { DocToolsSettings } from './doc-tools.module.js';

/**
 * Spec 003's doc-tool variables, for extraction-api (which serves the tools at `/mcp`). Roots, size limit, OCR and
 * the embedding model are the platform's shared variables (same names, same meaning as the document store's).
 */
export const docToolsEnvShape = {
  /** Spec 003: a converter's base URL; unset, Markdown comes through the conversion job path. */
  MARKITDOWN_URL: envUrl(),
  /** Its bearer token (default: MCP_API_KEY, the converter's own default). */
  MARKITDOWN_API_KEY: envString(),
  DOC_INDEX_TIMEOUT_S: envInt(600, 1, 86_400),
  ...mcpServiceEnvShape,
  /** doc_search's mode when a call names none (docs/benchmarks/extraction-search.md). */
  DOC_SEARCH_MODE: z.preprocess((v) => (v === '' ? undefined : v), DocSearchModeSchema.default('bm25')),
  ...documentInputEnvShape,
  EMBEDDING_MODEL: storeEnvShape.EMBEDDING_MODEL,
  EMBEDDING_MODEL_DIR: storeEnvShape.EMBEDDING_MODEL_DIR,
  EMBEDDING_QUANTIZED: storeEnvShape.EMBEDDING_QUANTIZED,
  EMBEDDING_THREADS: storeEnvShape.EMBEDDING_THREADS,
  EMBEDDING_AUTO_FETCH: storeEnvShape.EMBEDDING_AUTO_FETCH,
  HF_ENDPOINT: storeEnvShape.HF_ENDPOINT,
  REDIS_URL: storeEnvShape.REDIS_URL,
};

export const DocToolsEnvSchema = z.object({
  ...docToolsEnvShape,
  PDF_ENGINE: commonEnvShape.PDF_ENGINE,
  OCR_ENGINE: commonEnvShape.OCR_ENGINE,
  MCP_API_KEY: commonEnvShape.MCP_API_KEY,
});
export type DocToolsEnv = z.infer<typeof DocToolsEnvSchema>;

export const docToolsSettings = (env: DocToolsEnv): DocToolsSettings => ({
  roots: env.DOCUMENT_ROOTS,
  maxDocumentBytes: env.MAX_DOCUMENT_BYTES,
  indexTimeoutMs: env.DOC_INDEX_TIMEOUT_S * 1000,
  defaultMode: env.DOC_SEARCH_MODE,
  markitdownUrl: env.MARKITDOWN_URL,
  markitdownApiKey: env.MARKITDOWN_API_KEY ?? env.MCP_API_KEY,
  embedding: embeddingSettings(env),
  pdfEngine: env.PDF_ENGINE,
  ocrEngine: env.OCR_ENGINE,
  enableOcr: env.ENABLE_OCR,
});
