import {
  serviceConversion,
  type EmbedderOptions,
  type Platform,
  type ServiceConversionSettings,
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
