// SPDX-License-Identifier: AGPL-3.0-or-later
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { AppError, type JobStatus, type QueueDefinition } from '@lectern/contracts';
import type * as Bullmq from 'bullmq';
import type { Job, JobState, Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import {
  decodeJobError,
  encodeJobError,
  invalidPayload,
  isPermanentError,
  jobErrorToAppError,
  toJobError,
} from './job-error.js';
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
import { withRedis } from './redis-connection.js';
import {
  closedError,
  listFailedBounds,
  noopLogger,
  readProgress,
  resolveRetry,
  snapshotProgress,
  validateJobId,
} from './queue-common.js';

export interface BullmqQueueOptions<P extends z.ZodType, R extends z.ZodType> extends RetryOptions {
  definition: QueueDefinition<P, R>;
  /** A connection from `connectRedis(url)`; shared, so the caller closes it (after the queue). */
  connection: Redis;
  /** Redis key prefix (default `lectern`); tests give each queue its own. */
  prefix?: string;
  logger?: QueueLogger;
  /** Succeeded jobs are kept this long (dedupe window; default 7 days) and at most this many (10 000). */
  keepCompleted?: { ageSeconds?: number; count?: number };
  /** Lock a worker holds on a running job before it counts as stalled (default 60 s); stalls are looked for as often. */
  lockDurationMs?: number;
  /** Stalls (its worker lost: killed, or its event loop blocked past the lock) a job survives before it fails (default 1). */
  maxStalledCount?: number;
}

const STATUS: Partial<Record<JobState | 'unknown', JobStatus>> = {
  waiting: 'queued',
  'waiting-children': 'queued',
  prioritized: 'queued',
  delayed: 'queued', // BullMQ parks a job here between attempts (backoff)
  active: 'running',
  completed: 'succeeded',
  failed: 'failed',
};

/** The BullMQ states of a job that has not finished (`listUnfinished`). */
const UNFINISHED = ['active', 'waiting', 'waiting-children', 'prioritized', 'delayed', 'paused'] as const;

/**
 * The queue on Redis (distributed mode): typed BullMQ Queue + Worker + QueueEvents, the job id from the
 * content, attempts with exponential backoff, failed jobs kept, permanent errors as UnrecoverableError,
 * `error` listeners everywhere. The failure record travels in `failedReason` as JSON (see job-error.ts).
 */
class BullmqJobQueue<P, R> implements JobQueue<P, R> {
  readonly name: string;
  // Untyped at the BullMQ boundary on purpose: BullMQ derives name/data types from P in ways TypeScript
  // cannot resolve for a generic P. Types are enforced by the zod schemas on every way in and out.
  private readonly queue: Queue;
  private events: QueueEvents | undefined;
  private worker: Worker<P, R, string> | undefined;
  private readonly policy: Required<RetryOptions>;
  private closed = false;
  private readonly closing: Promise<never>;
  private rejectClosing: (e: unknown) => void = () => {};
  private readonly logger: QueueLogger;

  constructor(private readonly options: BullmqQueueOptions<z.ZodType<P>, z.ZodType<R>>) {
    this.name = options.definition.name;
    this.logger = options.logger ?? noopLogger;
    this.policy = resolveRetry(options.definition, options);
    this.queue = new (bullmq().Queue)(this.name, {
      connection: options.connection,
      prefix: options.prefix ?? 'lectern',
      defaultJobOptions: {
        attempts: this.policy.attempts,
        backoff: { type: 'exponential', delay: this.policy.backoffMs },
        removeOnComplete: {
          age: options.keepCompleted?.ageSeconds ?? 7 * 24 * 3600,
          count: options.keepCompleted?.count ?? 10_000,
        },
        removeOnFail: false,
      },
    });
    this.queue.on('error', (err) => this.logger.error({ err, queue: this.name }, 'queue error'));
    this.closing = new Promise<never>((_resolve, reject) => {
      this.rejectClosing = reject;
    });
    this.closing.catch(() => {});
  }

  async add(payload: P, { jobId }: AddJobOptions): Promise<JobHandle<R>> {
    if (this.closed) throw closedError(this.name);
    validateJobId(jobId);
    const parsed = this.options.definition.payload.safeParse(payload);
    if (!parsed.success) throw invalidPayload(this.name, parsed.error);
    // Redis down: `dependency_unavailable` at once (or after the producer bound), never a wait without an answer.
    return withRedis(this.options.connection, `queue ${this.name}`, () => this.enqueue(parsed.data, jobId));
  }

  private async enqueue(data: P, jobId: string): Promise<JobHandle<R>> {
    const parsed = { data };
    await this.queueEvents().waitUntilReady();
    const existing = await this.queue.getJob(jobId);
    if (existing) {
      if ((await existing.getState()) !== 'failed') return this.handle(jobId, true);
      // run again with this producer's payload: the failed run's file may be gone (uploads are deleted when a job ends)
      await existing.updateData(parsed.data);
      await existing.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      return this.handle(jobId, false);
    }
    // Two producers racing on the same id both land here; BullMQ keeps the first job and ignores the second.
    await this.queue.add(this.options.definition.jobName, parsed.data, { jobId });
    return this.handle(jobId, false);
  }

  process(handler: JobHandler<P, R>, options: ProcessOptions = {}): JobWorker {
    if (this.worker) throw new Error(`queue "${this.name}" already has a handler`);
    if (this.closed) throw closedError(this.name);
    const worker = new (bullmq().Worker)<P, R, string>(
      this.name,
      (job, token, signal) => this.runJob(handler, job, token, signal),
      {
        connection: this.options.connection,
        prefix: this.options.prefix ?? 'lectern',
        // who runs a job (the snapshot's `worker`): an operator, or a test, can tell the replicas apart
        name: `${hostname()}:${process.pid}`,
        concurrency: Math.max(1, options.concurrency ?? 1),
        lockDuration: this.options.lockDurationMs ?? 60_000,
        stalledInterval: Math.min(30_000, this.options.lockDurationMs ?? 60_000),
        maxStalledCount: this.options.maxStalledCount ?? 1,
      },
    );
    worker.on('error', (err) => this.logger.error({ err, queue: this.name }, 'worker error'));
    // BullMQ emits these once the job's new state is written to Redis: `afterEnd` tasks run only then
    worker.on('completed', (job) => this.runAfterEnd(job.id, true));
    worker.on('failed', (job, err) => {
      this.logger.warn(
        { queue: this.name, jobId: job?.id, attempt: job?.attemptsMade, reason: err.message },
        'job attempt failed',
      );
      // failed for good: a permanent error, or no attempt left; otherwise the next attempt registers its own tasks
      const final =
        job !== undefined &&
        (err instanceof bullmq().UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1));
      this.runAfterEnd(job?.id, final);
    });
    this.worker = worker;
    let closing: Promise<void> | undefined;
    const close = (): Promise<void> => {
      closing ??= this.closeWorker(worker).finally(() => {
        if (this.worker === worker) this.worker = undefined;
      });
      return closing;
    };
    this.workerClose = close;
    return { close };
  }

  /** Jobs this process's worker is running: the lock token to hand them back with, and their abort switch. */
  private readonly active = new Map<
    string,
    { job: Job<P, R, string>; token: string | undefined; abort: AbortController; done: Promise<unknown> }
  >();

  /**
   * Graceful: stop fetching, let running jobs finish within the grace; past it, hand each back to the queue
   * (`moveToWait` with its lock token: another worker starts it now, no stall counted), close without waiting
   * (BullMQ then records nothing for them: its connection is closing), and abort their handlers.
   * (BullMQ's own `close()` cannot do this: it waits for the jobs, and a WaitingError re-fetches while closing.)
   */
  private async closeWorker(worker: Worker<P, R, string>): Promise<void> {
    await worker.pause(true);
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.policy.shutdownGraceMs);
    });
    await Promise.race([Promise.allSettled([...this.active.values()].map((a) => a.done)), graceOver]);
    clearTimeout(timer);
    if (this.active.size === 0) {
      await worker.close();
      return;
    }
    const running = [...this.active.values()];
    this.logger.warn(
      { queue: this.name, jobs: running.length, grace_ms: this.policy.shutdownGraceMs },
      'running jobs outlived the shutdown grace; re-queueing them',
    );
    for (const { job, token } of running) {
      // handed back unfinished: its end is not this worker's to report, so its afterEnd tasks are dropped
      this.afterEndTasks.delete(job.id as string);
      await job
        .moveToWait(token)
        .catch((err: unknown) =>
          this.logger.warn({ err, jobId: job.id }, 're-queue at shutdown failed (the job will stall)'),
        );
    }
    await worker.close(true);
    for (const { abort } of running) abort.abort(closedError(this.name));
    await Promise.allSettled(running.map((a) => a.done));
  }

  private workerClose: (() => Promise<void>) | undefined;

  /** `afterEnd` tasks of the jobs this worker ran, by job id, until BullMQ reports the attempt's end. */
  private readonly afterEndTasks = new Map<string, Array<() => Promise<void>>>();

  private runAfterEnd(jobId: string | undefined, jobEnded: boolean): void {
    if (jobId === undefined) return;
    const tasks = this.afterEndTasks.get(jobId) ?? [];
    this.afterEndTasks.delete(jobId);
    if (!jobEnded) return;
    for (const task of tasks)
      task().catch((err: unknown) => this.logger.warn({ err, queue: this.name, jobId }, 'after-end task failed'));
  }

  async listFailed(options?: ListFailedOptions): Promise<FailedJobsPage<P, R>> {
    const { offset, limit } = listFailedBounds(options);
    const [total, jobs] = await Promise.all([
      this.queue.getFailedCount(),
      this.queue.getFailed(offset, offset + limit - 1),
    ]);
    const snapshots = await Promise.all(jobs.filter((job) => job?.id).map((job) => this.getJob(job.id as string)));
    return { total, jobs: snapshots.filter((s): s is JobSnapshot<P, R> => s?.status === 'failed') };
  }

  async listUnfinished(options?: ListFailedOptions): Promise<FailedJobsPage<P, R>> {
    const { offset, limit } = listFailedBounds(options);
    const [total, jobs] = await Promise.all([
      this.queue.getJobCountByTypes(...UNFINISHED),
      this.queue.getJobs([...UNFINISHED], offset, offset + limit - 1),
    ]);
    const snapshots = await Promise.all(jobs.filter((job) => job?.id).map((job) => this.getJob(job.id as string)));
    return {
      total,
      jobs: snapshots.filter((s): s is JobSnapshot<P, R> => s?.status === 'queued' || s?.status === 'running'),
    };
  }

  async retry(jobId: string): Promise<boolean> {
    if (this.closed) throw closedError(this.name);
    validateJobId(jobId);
    const job = await this.queue.getJob(jobId);
    if (!job || (await job.getState()) !== 'failed') return false;
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  }

  async getJob(jobId: string): Promise<JobSnapshot<P, R> | undefined> {
    // State first, then the record: a finished state is final, so the record read after it has the
    // result or the failure (read the other way round, a job finishing in between looks failed without a reason).
    const status = STATUS[await this.queue.getJobState(jobId)];
    if (!status) return undefined;
    const job = await bullmq().Job.fromId<P, R, string>(this.queue, jobId);
    if (!job) return undefined;
    const payload = this.options.definition.payload.safeParse(job.data);
    const stamps = [job.timestamp, job.processedOn ?? 0, job.finishedOn ?? 0];
    return {
      id: jobId,
      status,
      progress: snapshotProgress(status, readProgress(job.progress)),
      attempts: job.attemptsStarted ?? job.attemptsMade,
      createdAt: new Date(job.timestamp),
      updatedAt: new Date(Math.max(...stamps)),
      payload: (payload.success ? payload.data : job.data) as P,
      ...(job.processedBy ? { worker: job.processedBy } : {}),
      ...(status === 'succeeded' ? { result: this.options.definition.result.parse(job.returnvalue) } : {}),
      ...(status === 'failed' ? { error: decodeJobError(job.failedReason) } : {}),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.workerClose?.();
    this.rejectClosing(closedError(this.name));
    await this.events?.close();
    await this.queue.close();
  }

  private queueEvents(): QueueEvents {
    if (!this.events) {
      this.events = new (bullmq().QueueEvents)(this.name, {
        connection: this.options.connection,
        prefix: this.options.prefix ?? 'lectern',
      });
      this.events.on('error', (err) => this.logger.error({ err, queue: this.name }, 'queue events error'));
    }
    return this.events;
  }

  private handle(jobId: string, deduplicated: boolean): JobHandle<R> {
    const events = this.queueEvents();
    return {
      id: jobId,
      deduplicated,
      result: async () => {
        if (this.closed) throw closedError(this.name);
        const job = await bullmq().Job.fromId<P, R, string>(this.queue, jobId);
        if (!job) throw new AppError('job_not_found', `Job ${jobId} no longer exists.`, { httpStatus: 404 });
        try {
          const value = await Promise.race([job.waitUntilFinished(events), this.closing]);
          return this.options.definition.result.parse(value);
        } catch (error) {
          if (error instanceof AppError) throw error;
          throw jobErrorToAppError(decodeJobError((error as Error).message));
        }
      },
      onProgress: (listener) => {
        const onProgress = ({ jobId: id, data }: { jobId: string; data: unknown }) => {
          if (id === jobId) listener(readProgress(data));
        };
        events.on('progress', onProgress);
        return () => events.off('progress', onProgress);
      },
    };
  }

  private async runJob(
    handler: JobHandler<P, R>,
    job: Job<P, R, string>,
    token: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<R> {
    const jobId = job.id as string;
    const parsed = this.options.definition.payload.safeParse(job.data);
    if (!parsed.success)
      throw new (bullmq().UnrecoverableError)(encodeJobError(toJobError(invalidPayload(this.name, parsed.error))));
    const abort = new AbortController();
    signal?.addEventListener('abort', () => abort.abort(signal.reason), { once: true });
    const context: JobContext = {
      jobId,
      attempt: job.attemptsStarted,
      signal: abort.signal,
      progress: (percent, detail) => job.updateProgress({ percent, ...(detail ? { detail } : {}) }),
      log: (message) => {
        this.logger.info({ queue: this.name, jobId, attempt: job.attemptsStarted }, message);
        job.log(message).catch((err: unknown) => this.logger.warn({ err, jobId }, 'job log write failed'));
      },
      afterEnd: (task) => afterEnd.push(task),
    };
    // a fresh list per attempt (an earlier attempt's, never reported because its lock was lost, is dropped)
    const afterEnd: Array<() => Promise<void>> = [];
    this.afterEndTasks.set(jobId, afterEnd);
    const done = Promise.resolve().then(() => handler(parsed.data, context));
    this.active.set(jobId, { job, token, abort, done });
    try {
      return this.options.definition.result.parse(await done);
    } catch (error) {
      if (!(error instanceof AppError) && !abort.signal.aborted)
        this.logger.error({ err: error, queue: this.name, jobId }, 'job handler failed');
      const reason = encodeJobError(toJobError(error));
      throw isPermanentError(error) ? new (bullmq().UnrecoverableError)(reason) : new Error(reason);
    } finally {
      this.active.delete(jobId);
    }
  }
}

export const createBullmqQueue = <P extends z.ZodType, R extends z.ZodType>(
  options: BullmqQueueOptions<P, R>,
): JobQueue<z.output<P>, z.output<R>> =>
  new BullmqJobQueue<z.output<P>, z.output<R>>(
    options as unknown as BullmqQueueOptions<z.ZodType<z.output<P>>, z.ZodType<z.output<R>>>,
  );

/**
 * BullMQ, loaded on first use: only distributed mode (Redis) needs it, and every process or test file that imports
 * `@lectern/queue` (the composition barrels do) would otherwise load it and ioredis at import. Loaded synchronously,
 * so the adapter keeps its synchronous constructor; the production build loads it lazily too (tools/build.mjs).
 */
let bullmqModule: typeof Bullmq | undefined;
const bullmq = (): typeof Bullmq => (bullmqModule ??= createRequire(import.meta.url)('bullmq') as typeof Bullmq);
