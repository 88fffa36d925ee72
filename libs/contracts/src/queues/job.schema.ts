// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';

/**
 * Shapes shared by every queue (`libs/queue`'s port and its two adapters): a job's status as clients see
 * it, its progress and its failure. Each queue has its own file beside this one (name, payload, result).
 */

export const JobStatusSchema = z.enum(['queued', 'running', 'succeeded', 'failed']);
export type JobStatus = z.infer<typeof JobStatusSchema>;

export const JobProgressSchema = z.object({
  percent: z.number().min(0).max(100),
  detail: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .optional()
    .describe('What the job is doing, e.g. {stage:"ocr", page:3, pages:12}.'),
});
export type JobProgress = z.infer<typeof JobProgressSchema>;

/** A failed job's error: `code` is the spec's error_type; `message` is safe to show a client. */
export const JobErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  http_status: z.number().int().min(400).max(599),
});
export type JobError = z.infer<typeof JobErrorSchema>;

/**
 * A queue's contract: its name (never renamed once shipped: workers and producers of different versions
 * meet on it), the job name, and the payload and result schemas that producers and workers parse.
 */
export interface QueueDefinition<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly jobName: string;
  readonly payload: P;
  readonly result: R;
  /** How often a failing job runs and how long it waits between runs (default `QUEUE_RETRY_DEFAULTS`). */
  readonly retry?: QueueRetryPolicy;
}

/**
 * A queue's retry policy, set once in its definition (producers enqueue with it, so every producer of a queue
 * agrees): `attempts` runs in all, the n-th retry `backoffMs * 2^(n-1)` after the failure. Permanent errors
 * (4xx) never retry.
 */
export interface QueueRetryPolicy {
  readonly attempts: number;
  readonly backoffMs: number;
}

export const QUEUE_RETRY_DEFAULTS: QueueRetryPolicy = { attempts: 3, backoffMs: 1000 };

/**
 * How a worker process holds its jobs (distributed mode), the same for every queue of the process and read from
 * the environment once (`QUEUE_LOCK_MS`, `QUEUE_STALL_LIMIT`, `QUEUE_SHUTDOWN_GRACE_MS`; see `queueEnvShape` in
 * libs/runtime):
 * - `lockMs`: the lock a worker renews on a running job; a worker silent this long (killed, event loop blocked)
 *   has stalled, and the job is re-queued for another worker (looked for every `min(lockMs, 30 s)`).
 * - `stallLimit`: stalls a job survives; one more and it fails with the code `stalled`.
 * - `shutdownGraceMs`: on shutdown, how long running jobs may take to finish; then they are aborted and put back
 *   in the queue at once (not after a lock expiry), so another worker starts them.
 */
export interface QueueWorkerSettings {
  readonly lockMs: number;
  readonly stallLimit: number;
  readonly shutdownGraceMs: number;
}

export const QUEUE_WORKER_DEFAULTS: QueueWorkerSettings = { lockMs: 60_000, stallLimit: 1, shutdownGraceMs: 10_000 };

/** A page of a queue's failed jobs as `lectern queue failed --json` prints it (newest failure first). */
export const FailedJobSchema = z.object({
  queue: z.string(),
  id: z.string(),
  attempts: z.number().int().nonnegative(),
  created_at: z.iso.datetime(),
  failed_at: z.iso.datetime(),
  error: JobErrorSchema,
});
export type FailedJob = z.infer<typeof FailedJobSchema>;

export const defineQueue = <P extends z.ZodType, R extends z.ZodType>(
  definition: QueueDefinition<P, R>,
): QueueDefinition<P, R> => definition;
