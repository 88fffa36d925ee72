// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  serviceConversion,
  storeAndEmbeddingSettings,
  type EmbedderOptions,
  type Platform,
  type ServiceConversionSettings,
  type VectorStoreOptions,
} from '@lectern/platform';
import { KeyedMutex } from './keyed-mutex.js';

/** The settings of a service that ingests documents, beyond its store's. */
export interface ServiceIngestSettings extends ServiceConversionSettings {
  embedding: EmbedderOptions;
  /** Allowed roots of client paths (default: the data directory). */
  roots: readonly string[];
  ingestTimeoutMs: number;
}

/**
 * What the document store's and the policy KB's ingests both need besides their stores: the embedders, the
 * conversion job (`serviceConversion`), the allowed roots, the limits and per-document locks.
 */
export const serviceIngestDeps = (platform: Platform, s: ServiceIngestSettings) => ({
  embedders: platform.embedders(s.embedding),
  conversion: serviceConversion(platform, s),
  roots: s.roots.length > 0 ? s.roots : [platform.dataDir],
  enableOcr: s.enableOcr,
  ingestTimeoutMs: s.ingestTimeoutMs,
  maxDocumentBytes: s.maxDocumentBytes,
  locks: new KeyedMutex(),
  log: platform.log,
});

/** The variables a service that ingests documents reads (the platform's shared ones and its `INGEST_TIMEOUT_S`). */
type ServiceIngestEnv = Parameters<typeof storeAndEmbeddingSettings>[0] & {
  DOCUMENT_ROOTS: readonly string[];
  PDF_ENGINE: ServiceConversionSettings['pdfEngine'];
  OCR_ENGINE: ServiceConversionSettings['ocrEngine'];
  ENABLE_OCR: boolean;
  MAX_DOCUMENT_BYTES: number;
  INGEST_TIMEOUT_S: number;
};

/** Its store and ingest settings from those variables (the document store's and the policy KB's alike). */
export const serviceIngestSettings = (env: ServiceIngestEnv): VectorStoreOptions & ServiceIngestSettings => ({
  ...storeAndEmbeddingSettings(env),
  roots: env.DOCUMENT_ROOTS,
  pdfEngine: env.PDF_ENGINE,
  ocrEngine: env.OCR_ENGINE,
  enableOcr: env.ENABLE_OCR,
  maxDocumentBytes: env.MAX_DOCUMENT_BYTES,
  ingestTimeoutMs: env.INGEST_TIMEOUT_S * 1000,
});
