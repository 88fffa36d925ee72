import { AppError, CommonErrorCodes, JobProgressSchema, type JobProgress, type JobStatus } from '@lectern/contracts';
import type { QueueLogger } from './job-queue.port.js';

export const noopLogger: QueueLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export const closedError = (queue: string): AppError =>
  new AppError('queue_closed', `The "${queue}" queue is shutting down; submit the job again.`, { httpStatus: 503 });

/** Job ids are Redis key parts in BullMQ: no `:`, not a bare integer, not empty. Both adapters check the same. */
export const validateJobId = (jobId: string): void => {
  if (!/^[A-Za-z0-9._-]{1,200}$/.test(jobId) || /^\d+$/.test(jobId)) {
    throw new AppError(CommonErrorCodes.invalidArguments, `Invalid job id "${jobId}": use letters, digits, ".", "_" or "-".`);
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
