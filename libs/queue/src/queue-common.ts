// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  CommonErrorCodes,
  JobProgressSchema,
  QUEUE_RETRY_DEFAULTS,
  QUEUE_WORKER_DEFAULTS,
  type JobProgress,
  type JobStatus,
  type QueueDefinition,
} from '@lectern/contracts';
import type { ListFailedOptions, QueueLogger, RetryOptions } from './job-queue.port.js';

export const noopLogger: QueueLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export const closedError = (queue: string): AppError =>
  new AppError('queue_closed', `The "${queue}" queue is shutting down; submit the job again.`, { httpStatus: 503 });

/** Job ids are Redis key parts in BullMQ: no `:`, not a bare integer, not empty. Both adapters check the same. */
export const validateJobId = (jobId: string): void => {
  if (!/^[A-Za-z0-9._-]{1,200}$/.test(jobId) || /^\d+$/.test(jobId)) {
    throw new AppError(
      CommonErrorCodes.invalidArguments,
      `Invalid job id "${jobId}": use letters, digits, ".", "_" or "-".`,
    );
  }
};

/** A finished job reads 100%; otherwise the last report (adapters store what the handler said). */
export const snapshotProgress = (status: JobStatus, progress: JobProgress): JobProgress =>
  status === 'succeeded' ? { ...progress, percent: 100 } : progress;

/** BullMQ stores progress as a number or an object; ours is always {percent, detail?}. */
export const readProgress = (raw: unknown): JobProgress => {
  if (typeof raw === 'number') return { percent: Math.min(100, Math.max(0, raw)) };
  const parsed = JobProgressSchema.safeParse(raw);
  return parsed.success ? parsed.data : { percent: 0 };
};

/** `listFailed`'s bounds, the same in both adapters. */
export const listFailedBounds = (options: ListFailedOptions = {}): { offset: number; limit: number } => ({
  offset: Math.max(0, Math.floor(options.offset ?? 0)),
  limit: Math.min(1000, Math.max(1, Math.floor(options.limit ?? 50))),
});

/** The retry policy and shutdown grace an adapter applies: its overrides, else the queue definition's, else the defaults. */
export const resolveRetry = (definition: QueueDefinition, overrides: RetryOptions): Required<RetryOptions> => ({
  attempts: overrides.attempts ?? definition.retry?.attempts ?? QUEUE_RETRY_DEFAULTS.attempts,
  backoffMs: overrides.backoffMs ?? definition.retry?.backoffMs ?? QUEUE_RETRY_DEFAULTS.backoffMs,
  shutdownGraceMs: overrides.shutdownGraceMs ?? QUEUE_WORKER_DEFAULTS.shutdownGraceMs,
});

/** Wait for `closing`; if it has not settled after `graceMs`, call `onGraceOver` (abort the running jobs) and keep waiting. */
export const closeWithGrace = async (
  closing: Promise<unknown>,
  graceMs: number,
  onGraceOver: () => void,
): Promise<void> => {
  const timer = setTimeout(onGraceOver, graceMs);
  try {
    await closing;
  } finally {
    clearTimeout(timer);
  }
};
