export type {
  AddJobOptions,
  JobContext,
  JobHandle,
  JobHandler,
  JobQueue,
  JobSnapshot,
  JobWorker,
  ProcessOptions,
  QueueLogger,
  RetryOptions,
} from './job-queue.port.js';
export { createInProcessQueue } from './in-process.adapter.js';
export type { InProcessQueueOptions } from './in-process.adapter.js';
export { createBullmqQueue } from './bullmq.adapter.js';
export type { BullmqQueueOptions } from './bullmq.adapter.js';
export { connectRedis, closeRedis } from './redis-connection.js';
export type { RedisConnection } from './redis-connection.js';
export { isPermanentError, markPermanent, toJobError } from './job-error.js';
export { createConversionProcessor } from './conversion/conversion.processor.js';
export { applyJobOptions, conversionLimitViolations } from './conversion/conversion-limits.js';
export type { ConversionLimits } from './conversion/conversion-limits.js';
export type { ConversionProcessorDeps, ConversionProgressReport, ConvertDocumentFn } from './conversion/conversion.processor.js';
export {
  DEFAULT_INLINE_RESULT_BYTES,
  loadConversionResult,
  resolveConversionFile,
  stageConversionFile,
  storeConversionResult,
} from './conversion/conversion-files.js';
export type { StagedFile } from './conversion/conversion-files.js';
export { resolveDataPath, safeFilename } from './conversion/data-dir.js';
