// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, type JobError, type JobProgress, type QueueDefinition } from '@lectern/contracts';
import { backoffDelay } from '@lectern/runtime';
import type { z } from 'zod';
import { invalidPayload, isPermanentError, jobErrorToAppError, toJobError } from './job-error.js';
import type {
  AddJobOptions,
  JobContext,
  JobHandle,
  JobHandler,
  JobQueue,
  JobSnapshot,
  JobWorker,
  FailedJobsPage,
  ListFailedOptions,
  ProcessOptions,
  QueueLogger,
  RetryOptions,
} from './job-queue.port.js';
import {
  closedError,
  closeWithGrace,
  listFailedBounds,
  noopLogger,
  resolveRetry,
  snapshotProgress,
  validateJobId,
} from './queue-common.js';

export interface InProcessQueueOptions<P extends z.ZodType, R extends z.ZodType> extends RetryOptions {
  definition: QueueDefinition<P, R>;
  logger?: QueueLogger;
  /** Finished jobs remembered for dedupe and `getJob` (default 1000; the oldest are forgotten first). */
  keepFinished?: number;
}

/** A job as this process keeps it: its public snapshot plus who is waiting on it. */
interface Entry<P, R> extends JobSnapshot<P, R> {
  /** Order of the last finish (failed jobs are listed newest first; timestamps can tie). */
  finishedSeq?: number;
  waiters: Array<{ resolve: (r: R) => void; reject: (e: unknown) => void }>;
  listeners: Set<(p: JobProgress) => void>;
}

/**
 * The queue in the calling process (embedded mode, no Redis): the same handler and the same semantics
 * as the BullMQ adapter (dedupe by job id, retries with exponential backoff, permanent errors, progress).
 * Hand-written because it is small and must mirror our BullMQ usage exactly; jobs do not survive a
 * restart (nothing does in embedded mode: callers re-submit, and the job id dedupes).
 */
class InProcessJobQueue<P, R> implements JobQueue<P, R> {
  readonly name: string;
  private readonly jobs = new Map<string, Entry<P, R>>();
  private readonly pending: string[] = [];
  private readonly running = new Map<string, Promise<void>>();
  private readonly controllers = new Map<string, AbortController>();
  private finishedSeq = 0;
  /** Set when the shutdown grace is over: aborted jobs go back to the queue instead of failing. */
  private requeueAborted = false;
  private readonly retryTimers = new Map<string, NodeJS.Timeout>();
  private handler: JobHandler<P, R> | undefined;
  private concurrency = 1;
  private workerClosed = false;
  private closed = false;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly shutdownGraceMs: number;
  private readonly keepFinished: number;
  private readonly logger: QueueLogger;

  constructor(private readonly options: InProcessQueueOptions<z.ZodType<P>, z.ZodType<R>>) {
    this.name = options.definition.name;
    ({
      attempts: this.attempts,
      backoffMs: this.backoffMs,
      shutdownGraceMs: this.shutdownGraceMs,
    } = resolveRetry(options.definition, options));
    this.keepFinished = options.keepFinished ?? 1000;
    this.logger = options.logger ?? noopLogger;
  }

  async add(payload: P, { jobId }: AddJobOptions): Promise<JobHandle<R>> {
    if (this.closed) throw closedError(this.name);
    validateJobId(jobId);
    const parsed = this.options.definition.payload.safeParse(payload);
    if (!parsed.success) throw invalidPayload(this.name, parsed.error);
    const existing = this.jobs.get(jobId);
    if (existing && existing.status !== 'failed') return this.handle(existing, true);
    const now = new Date();
    const entry: Entry<P, R> = {
      id: jobId,
      payload: parsed.data,
      status: 'queued',
      progress: { percent: 0 },
      attempts: 0,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
      waiters: [],
      listeners: existing?.listeners ?? new Set(),
    };
    this.jobs.delete(jobId);
    this.jobs.set(jobId, entry);
    this.pending.push(jobId);
    this.forgetOldJobs();
    this.pump();
    return this.handle(entry, false);
  }

  process(handler: JobHandler<P, R>, options: ProcessOptions = {}): JobWorker {
    if (this.handler && !this.workerClosed) throw new Error(`queue "${this.name}" already has a handler`);
    if (this.closed) throw closedError(this.name);
    this.handler = handler;
    this.workerClosed = false;
    this.requeueAborted = false;
    this.concurrency = Math.max(1, options.concurrency ?? 1);
    this.pump();
    return { close: () => this.closeWorker() };
  }

  async getJob(jobId: string): Promise<JobSnapshot<P, R> | undefined> {
    const e = this.jobs.get(jobId);
    if (!e) return undefined;
    return {
      id: e.id,
      status: e.status,
      progress: snapshotProgress(e.status, e.progress),
      attempts: e.attempts,
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
      payload: e.payload,
      ...(e.result !== undefined ? { result: e.result } : {}),
      ...(e.error ? { error: e.error } : {}),
    };
  }

  async listFailed(options?: ListFailedOptions): Promise<FailedJobsPage<P, R>> {
    const { offset, limit } = listFailedBounds(options);
    const failed = [...this.jobs.values()]
      .filter((e) => e.status === 'failed')
      .sort((a, b) => (b.finishedSeq ?? 0) - (a.finishedSeq ?? 0));
    const page = await Promise.all(failed.slice(offset, offset + limit).map((e) => this.getJob(e.id)));
    return { total: failed.length, jobs: page.filter((s): s is JobSnapshot<P, R> => s !== undefined) };
  }

  async listUnfinished(options?: ListFailedOptions): Promise<FailedJobsPage<P, R>> {
    const { offset, limit } = listFailedBounds(options);
    const unfinished = [...this.jobs.values()].filter((e) => e.status === 'queued' || e.status === 'running');
    const page = await Promise.all(unfinished.slice(offset, offset + limit).map((e) => this.getJob(e.id)));
    return { total: unfinished.length, jobs: page.filter((s): s is JobSnapshot<P, R> => s !== undefined) };
  }

  async retry(jobId: string): Promise<boolean> {
    if (this.closed) throw closedError(this.name);
    validateJobId(jobId);
    const entry = this.jobs.get(jobId);
    if (!entry || entry.status !== 'failed') return false;
    entry.status = 'queued';
    entry.attempts = 0;
    entry.progress = { percent: 0 };
    delete entry.error;
    entry.updatedAt = new Date();
    this.pending.push(jobId);
    this.pump();
    return true;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.closeWorker();
    // Jobs that never ran are lost with the process: their waiters learn it now instead of hanging.
    for (const entry of this.jobs.values()) {
      if (entry.status === 'queued') for (const w of entry.waiters.splice(0)) w.reject(closedError(this.name));
    }
  }

  private async closeWorker(): Promise<void> {
    this.workerClosed = true;
    for (const [id, timer] of this.retryTimers) {
      clearTimeout(timer);
      this.pending.push(id); // waiting for its retry: stays queued for the next worker
    }
    this.retryTimers.clear();
    await closeWithGrace(Promise.allSettled([...this.running.values()]), this.shutdownGraceMs, () => {
      this.logger.warn(
        { queue: this.name, grace_ms: this.shutdownGraceMs },
        'running jobs outlived the shutdown grace; re-queueing them',
      );
      this.requeueAborted = true;
      for (const controller of this.controllers.values()) controller.abort(closedError(this.name));
    });
  }

  private handle(entry: Entry<P, R>, deduplicated: boolean): JobHandle<R> {
    return {
      id: entry.id,
      deduplicated,
      result: () =>
        new Promise<R>((resolve, reject) => {
          if (entry.status === 'succeeded') resolve(entry.result as R);
          else if (entry.status === 'failed' && entry.error) reject(jobErrorToAppError(entry.error));
          else if (this.closed) reject(closedError(this.name));
          else entry.waiters.push({ resolve, reject });
        }),
      onProgress: (listener) => {
        entry.listeners.add(listener);
        return () => entry.listeners.delete(listener);
      },
    };
  }

  private pump(): void {
    while (this.handler && !this.workerClosed && this.running.size < this.concurrency && this.pending.length > 0) {
      const id = this.pending.shift() as string;
      const entry = this.jobs.get(id);
      if (!entry || entry.status !== 'queued') continue;
      entry.status = 'running';
      const run = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => this.run(entry))
        .finally(() => {
          this.running.delete(id);
          this.controllers.delete(id);
          this.pump();
        });
      this.running.set(id, run);
    }
  }

  private async run(entry: Entry<P, R>): Promise<void> {
    const handler = this.handler as JobHandler<P, R>;
    entry.attempts += 1;
    entry.updatedAt = new Date();
    const controller = new AbortController();
    this.controllers.set(entry.id, controller);
    const context: JobContext = {
      jobId: entry.id,
      attempt: entry.attempts,
      signal: controller.signal,
      progress: async (percent, detail) => {
        entry.progress = { percent, ...(detail ? { detail } : {}) };
        entry.updatedAt = new Date();
        for (const listener of entry.listeners) listener(entry.progress);
      },
      log: (message) => this.logger.info({ queue: this.name, jobId: entry.id, attempt: entry.attempts }, message),
      afterEnd: (task) => void afterEnd.push(task),
    };
    const afterEnd: Array<() => Promise<void>> = [];
    const ended = (): void => {
      for (const task of afterEnd.splice(0))
        task().catch((err: unknown) =>
          this.logger.warn({ err, queue: this.name, jobId: entry.id }, 'after-end task failed'),
        );
    };
    try {
      const result = this.options.definition.result.parse(await handler(entry.payload, context));
      this.finish(entry, 'succeeded', { result });
      ended();
    } catch (error) {
      if (controller.signal.aborted && this.requeueAborted) {
        entry.status = 'queued';
        entry.updatedAt = new Date();
        this.pending.unshift(entry.id);
        return;
      }
      const jobError = toJobError(error);
      if (!(error instanceof AppError))
        this.logger.error({ err: error, queue: this.name, jobId: entry.id }, 'job handler failed');
      if (isPermanentError(error) || entry.attempts >= this.attempts) {
        this.finish(entry, 'failed', { error: jobError });
        ended();
        return;
      }
      if (this.workerClosed) {
        // no retry timer after the worker closed: queued for the next worker (or failed by close() with the queue)
        entry.status = 'queued';
        entry.updatedAt = new Date();
        this.pending.push(entry.id);
        return;
      }
      entry.status = 'queued';
      entry.updatedAt = new Date();
      // the same exponential delay BullMQ computes for the distributed adapter (no jitter)
      const delay = backoffDelay(entry.attempts, { attempts: this.attempts, baseDelayMs: this.backoffMs });
      this.logger.warn(
        { queue: this.name, jobId: entry.id, attempt: entry.attempts, delay_ms: delay },
        'job failed; retrying',
      );
      this.retryTimers.set(
        entry.id,
        setTimeout(() => {
          this.retryTimers.delete(entry.id);
          this.pending.push(entry.id);
          this.pump();
        }, delay),
      );
    }
  }

  private finish(entry: Entry<P, R>, status: 'succeeded' | 'failed', outcome: { result?: R; error?: JobError }): void {
    entry.status = status;
    entry.updatedAt = new Date();
    this.finishedSeq += 1;
    entry.finishedSeq = this.finishedSeq;
    if (outcome.result !== undefined) entry.result = outcome.result;
    if (outcome.error) entry.error = outcome.error;
    for (const w of entry.waiters.splice(0)) {
      if (status === 'succeeded') w.resolve(entry.result as R);
      else w.reject(jobErrorToAppError(entry.error as JobError));
    }
    this.forgetOldJobs();
  }

  private forgetOldJobs(): void {
    let finished = 0;
    for (const e of this.jobs.values()) if (e.status === 'succeeded' || e.status === 'failed') finished += 1;
    for (const [id, e] of this.jobs) {
      if (finished <= this.keepFinished) break;
      if (e.status === 'succeeded' || e.status === 'failed') {
        this.jobs.delete(id);
        finished -= 1;
      }
    }
  }
}

export const createInProcessQueue = <P extends z.ZodType, R extends z.ZodType>(
  options: InProcessQueueOptions<P, R>,
): JobQueue<z.output<P>, z.output<R>> =>
  new InProcessJobQueue<z.output<P>, z.output<R>>(
    options as unknown as InProcessQueueOptions<z.ZodType<z.output<P>>, z.ZodType<z.output<R>>>,
  );
