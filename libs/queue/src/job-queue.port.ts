// SPDX-License-Identifier: AGPL-3.0-or-later
import type { JobError, JobProgress, JobStatus } from '@lectern/contracts';

/**
 * The queue port: one interface, two adapters (BullMQ on Redis, in-process), one contract suite
 * (`queue.contract.ts`). Semantics both adapters keep:
 * - `add` parses the payload; a job id already known (queued, running or succeeded) is not run again:
 *   the caller gets a handle on the existing job (`deduplicated: true`). A failed job is run again.
 * - the handler is retried with exponential backoff up to `attempts`, except for permanent errors
 *   (an `AppError` with a 4xx status, i.e. input that can never succeed), which fail at once.
 * - a failed job keeps its error (`code`, client-safe `message`, `http_status`); anything that is not an
 *   AppError becomes `internal_error` with a generic message (the stack goes to the log only).
 * - failed jobs are kept (BullMQ: in Redis, until retried; in-process: among the last `keepFinished`), listed
 *   newest first by `listFailed`, and run again from the start by `retry` (or by adding the same id again).
 * - `close()` stops taking jobs and waits for running handlers to finish, at most the worker's shutdown grace;
 *   then their signals are aborted and the jobs put back in the queue (BullMQ: another worker takes them).
 */
export interface JobQueue<P, R> {
  readonly name: string;
  /** Enqueue (or find) the job `jobId`. Rejects with AppError `invalid_arguments` for a bad payload. */
  add(payload: P, options: AddJobOptions): Promise<JobHandle<R>>;
  /** Register the handler and start working. One handler at a time per queue instance (again once its worker closed). */
  process(handler: JobHandler<P, R>, options?: ProcessOptions): JobWorker;
  /** Snapshot of a job; undefined when the id is unknown (or the job has been removed). */
  getJob(jobId: string): Promise<JobSnapshot<P, R> | undefined>;
  /** The failed jobs, the most recent failure first, `limit` (default 50, at most 1000) from `offset`. */
  listFailed(options?: ListFailedOptions): Promise<FailedJobsPage<P, R>>;
  /**
   * The jobs not finished yet (queued, waiting for a retry, or running — also a running job whose worker died and
   * whose lock has not expired yet), `limit` (default 50, at most 1000) from `offset`, in no promised order. What
   * start-up recovery reads to leave alone work that a live job still owns.
   */
  listUnfinished(options?: ListFailedOptions): Promise<FailedJobsPage<P, R>>;
  /**
   * Run a failed job again from its first attempt (same payload). False when the id is unknown or the job has not
   * failed (a queued, running or succeeded job is left alone).
   */
  retry(jobId: string): Promise<boolean>;
  /** Close the worker (waiting for running handlers), then the queue. Idempotent. */
  close(): Promise<void>;
}

export interface ListFailedOptions {
  offset?: number;
  limit?: number;
}

export interface FailedJobsPage<P, R> {
  /** Failed jobs in the queue (all pages). */
  total: number;
  jobs: Array<JobSnapshot<P, R>>;
}

export interface AddJobOptions {
  /** Derived from the content (e.g. `convert-<sha256>`) so that the same input runs once. No `:`. */
  jobId: string;
}

export interface JobHandle<R> {
  readonly id: string;
  /** True when the job already existed and was not run again. */
  readonly deduplicated: boolean;
  /** Resolves with the result; rejects with an AppError carrying the job's error code. */
  result(): Promise<R>;
  /** Observe progress reports of this job; returns an unsubscribe function. */
  onProgress(listener: (progress: JobProgress) => void): () => void;
}

export interface JobContext {
  readonly jobId: string;
  /** 1 on the first run, 2 on the first retry, ... */
  readonly attempt: number;
  /** Aborted when the job is cancelled or the worker is force-closed; pass it on to long work. */
  readonly signal: AbortSignal;
  progress(percent: number, detail?: JobProgress['detail']): Promise<void>;
  /** A line in the job's log (kept with the job where the adapter can) and in the service log. */
  log(message: string): void;
  /**
   * Run `task` once this job's end is recorded: it succeeded, or it failed with no retry left. Not run when this
   * attempt is retried (the next attempt registers again), nor when the worker dies or loses the job first (a
   * janitor's job). For what a retry would still need — an upload deleted before the queue recorded the result is
   * gone for the attempt that runs the job again after a worker is killed between the two.
   */
  afterEnd(task: () => Promise<void>): void;
}

export type JobHandler<P, R> = (payload: P, context: JobContext) => Promise<R>;

export interface ProcessOptions {
  /** Jobs run at the same time by this worker (default 1). */
  concurrency?: number;
}

export interface JobWorker {
  /** Stop taking jobs and wait for running handlers. Idempotent. */
  close(): Promise<void>;
}

export interface JobSnapshot<P, R> {
  id: string;
  status: JobStatus;
  progress: JobProgress;
  /** Handler runs started so far. */
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
  result?: R;
  error?: JobError;
  /** The payload as enqueued (parsed). */
  payload: P;
  /** The worker that runs (or last ran) it, `host:pid` (BullMQ; the in-process adapter leaves it unset). */
  worker?: string;
}

/** Overrides of the queue definition's retry policy (tests); both adapters read the same. */
export interface RetryOptions {
  /** Total runs including the first (default: the definition's, else 3). */
  attempts?: number;
  /** First retry delay; doubles each time (default: the definition's, else 1000 ms). */
  backoffMs?: number;
  /** Running jobs' time to finish when the worker closes before they are aborted and re-queued (default 10 s). */
  shutdownGraceMs?: number;
}

/** Minimal structured logger (pino's shape), so libs take a logger without depending on one. */
export interface QueueLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
