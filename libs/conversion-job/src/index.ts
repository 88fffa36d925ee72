// SPDX-License-Identifier: AGPL-3.0-or-later
export { createConversionProcessor } from './conversion.processor.js';
export type { ConversionProcessorDeps, ConversionProgressReport } from './conversion.processor.js';
export { createConversionSubmitter, jobOptions } from './conversion-submitter.js';
export type {
  ConversionSnapshot,
  ConversionSubmitter,
  ConversionSubmitterDeps,
  ConvertCall,
  SubmittedFile,
} from './conversion-submitter.js';
export { HandedOverFiles } from './handed-over-files.js';
export {
  DEFAULT_INLINE_RESULT_BYTES,
  discardReceivedFile,
  insufficientStorage,
  loadConversionResult,
  promoteReceivedFile,
  receiveConversionFile,
  removeStagedUpload,
  resolveConversionFile,
  stageConversionBytes,
  stageBlobBytes,
  stageConversionFile,
  stageReceivedBlob,
  storeConversionResult,
  uploadBlobKey,
  uploadMissing,
} from './conversion-files.js';
export type { ReceivedFile, ReceiveLimits, StagedFile } from './conversion-files.js';
export { resolveDataPath, safeFilename } from './data-dir.js';
export { conversionLimitViolations } from './conversion-limits.js';
export type { JobOptionLimits } from './conversion-limits.js';
export { conversionStorageBytes, startStorageJanitor, sweepConversionStorage } from './data-dir-storage.js';
export type { StorageJanitor } from './data-dir-storage.js';
