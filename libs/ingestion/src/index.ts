// SPDX-License-Identifier: AGPL-3.0-or-later
export {
  abortError,
  afterAbort,
  checkpoint,
  runBounded,
  type BoundContext,
  type IngestContext,
  type IngestDeadline,
  type ProgressFn,
} from './ingest-context.js';
export { asStorageError, INSUFFICIENT_STORAGE_MESSAGE, isOutOfSpace } from './storage-errors.js';
export {
  conversionJob,
  prepareDocument,
  readSource,
  type ConvertCall,
  type ConvertFn,
  type PreparedDocument,
  type PrepareSpec,
  type SourceDocument,
  type SourceRequest,
} from './prepare-document.js';
export {
  containsDrawings,
  imageBasedRule,
  readsAsScannedText,
  requireText,
  SCANNED_PDF_POLICIES,
  totalChars,
  type ImageBasedSkip,
  type ScannedPdfPolicy,
} from './scan-rules.js';
export {
  EMBED_SLICE,
  storeChunks,
  storedAmong,
  WRITE_SLICE,
  type ChunkToStore,
  type StorePlan,
} from './store-chunks.js';
