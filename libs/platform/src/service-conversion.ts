import type { ConversionSubmitter } from '@lectern/conversion-job';
import type { PdfEngine } from '@lectern/conversion';
import { KeyedMutex } from '@lectern/document-store';
import type { EmbedderOptions, Platform } from './platform.js';

/** The conversion settings a service that ingests documents reads from its variables. */
export interface ServiceConversionSettings {
  pdfEngine?: PdfEngine | undefined;
  enableOcr: boolean;
  maxDocumentBytes: number;
  imageRatioThreshold?: number;
}

/**
 * The conversion job's submitter for a service that ingests documents (document store, policy KB, doc tools):
 * converted in this process by two workers when embedded, by the converter workers when distributed.
 */
export const serviceConversion = (platform: Platform, s: ServiceConversionSettings): ConversionSubmitter =>
  platform.conversion({
    pdfEngine: s.pdfEngine,
    defaults: {
      enableOcr: s.enableOcr,
      ...(s.imageRatioThreshold !== undefined ? { imageRatioThreshold: s.imageRatioThreshold } : {}),
    },
    limits: { maxBytes: s.maxDocumentBytes },
    workers: { embedded: 2, distributed: 0 },
  }).submitter;

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
