// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, defineQueue, type QueueDefinition } from '@lectern/contracts';
import { z } from 'zod';
import type { JobContext, JobQueue, RetryOptions } from './job-queue.port.js';

/**
 * The one contract suite of the queue port, run by each adapter's spec:
 * `runQueueContract('bullmq', (definition, retry) => createBullmqQueue({...}))`.
 * Each test makes its own queue (unique name); the suite closes it after the test.
 */
const TestPayload = z.object({ version: z.literal(1), n: z.number().int() });
const TestResult = z.object({ doubled: z.number().int() });
type TestQueue = JobQueue<z.output<typeof TestPayload>, z.output<typeof TestResult>>;
export type TestQueueDefinition = QueueDefinition<typeof TestPayload, typeof TestResult>;
export type MakeQueue = (definition: TestQueueDefinition, retry: RetryOptions) => Promise<TestQueue> | TestQueue;

const deferred = <T = void>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

const waitFor = async (check: () => Promise<boolean>, what: string): Promise<void> => {
  for (let i = 0; i < 500; i += 1) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
};

let counter = 0;

export const runQueueContract = (adapter: string, makeQueue: MakeQueue): void => {
  describe(`JobQueue contract (${adapter})`, () => {
    const open: TestQueue[] = [];
    const make = async (retry: RetryOptions = { attempts: 3, backoffMs: 20 }): Promise<TestQueue> => {
      counter += 1;
      const definition = defineQueue({
        name: `contract-${counter}`,
        jobName: 'double',
        payload: TestPayload,
        result: TestResult,
      });
      const queue = await makeQueue(definition, retry);
      open.push(queue);
      return queue;
    };
    const payload = (n: number) => ({ version: 1 as const, n });
    const double = async (p: { n: number }) => ({ doubled: p.n * 2 });

    afterEach(async () => {
      await Promise.all(open.splice(0).map((q) => q.close()));
    });

    it('runs the handler and hands back its result, also through getJob', async () => {
      const queue = await make();
      queue.process(double);
      const handle = await queue.add(payload(21), { jobId: 'job-a' });
      expect(handle).toMatchObject({ id: 'job-a', deduplicated: false });
      await expect(handle.result()).resolves.toEqual({ doubled: 42 });
      const job = await queue.getJob('job-a');
      expect(job).toMatchObject({
        id: 'job-a',
        status: 'succeeded',
        attempts: 1,
        result: { doubled: 42 },
        payload: payload(21),
      });
      expect(job?.progress.percent).toBe(100);
      expect(job?.createdAt).toBeInstanceOf(Date);
    });

    it('keeps jobs queued until a handler is registered', async () => {
      const queue = await make();
      const handle = await queue.add(payload(1), { jobId: 'early' });
      expect((await queue.getJob('early'))?.status).toBe('queued');
      queue.process(double);
      await expect(handle.result()).resolves.toEqual({ doubled: 2 });
    });

    it('reports progress to the handle and in getJob while the job runs', async () => {
      const queue = await make();
      const reported = deferred();
      const release = deferred();
      const handle = await queue.add(payload(3), { jobId: 'progress' });
      const seen: unknown[] = [];
      handle.onProgress((p) => seen.push(p));
      queue.process(async (p, ctx) => {
        await ctx.progress(40, { stage: 'ocr', page: 2, pages: 5 });
        reported.resolve();
        await release.promise;
        return double(p);
      });
      await reported.promise;
      const running = await queue.getJob('progress');
      expect(running).toMatchObject({
        status: 'running',
        progress: { percent: 40, detail: { stage: 'ocr', page: 2, pages: 5 } },
      });
      release.resolve();
      await handle.result();
      expect(seen).toEqual([{ percent: 40, detail: { stage: 'ocr', page: 2, pages: 5 } }]);
    });

    it('runs a job id once: a second add (running or finished) joins the first job', async () => {
      const queue = await make();
      let calls = 0;
      const release = deferred();
      const started = deferred();
      queue.process(async (p) => {
        calls += 1;
        started.resolve();
        await release.promise;
        return double(p);
      });
      const first = await queue.add(payload(5), { jobId: 'same' });
      await started.promise;
      const second = await queue.add(payload(5), { jobId: 'same' });
      expect(second.deduplicated).toBe(true);
      release.resolve();
      await expect(Promise.all([first.result(), second.result()])).resolves.toEqual([{ doubled: 10 }, { doubled: 10 }]);
      const third = await queue.add(payload(5), { jobId: 'same' });
      expect(third.deduplicated).toBe(true);
      await expect(third.result()).resolves.toEqual({ doubled: 10 });
      expect(calls).toBe(1);
    });

    it('retries a failing handler with backoff until it succeeds', async () => {
      const queue = await make({ attempts: 3, backoffMs: 10 });
      const attempts: number[] = [];
      queue.process(async (p, ctx: JobContext) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt < 3) throw new Error('transient');
        return double(p);
      });
      const handle = await queue.add(payload(4), { jobId: 'flaky' });
      await expect(handle.result()).resolves.toEqual({ doubled: 8 });
      expect(attempts).toEqual([1, 2, 3]);
      expect(await queue.getJob('flaky')).toMatchObject({ status: 'succeeded', attempts: 3 });
    });

    it('fails at once on a permanent error (4xx AppError) and keeps its code', async () => {
      const queue = await make({ attempts: 5, backoffMs: 10 });
      let calls = 0;
      queue.process(async () => {
        calls += 1;
        throw new AppError('unsupported_file_type', 'Unsupported file format: .pptx', { httpStatus: 415 });
      });
      const handle = await queue.add(payload(1), { jobId: 'bad-input' });
      const error = await handle.result().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: 'unsupported_file_type',
        message: 'Unsupported file format: .pptx',
        httpStatus: 415,
      });
      expect(calls).toBe(1);
      expect(await queue.getJob('bad-input')).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: { code: 'unsupported_file_type', message: 'Unsupported file format: .pptx', http_status: 415 },
      });
    });

    it('runs afterEnd tasks once the job end is recorded, and not for an attempt that is retried', async () => {
      const queue = await make({ attempts: 3, backoffMs: 10 });
      const seen: string[] = [];
      queue.process(async (p, ctx: JobContext) => {
        ctx.afterEnd(async () => {
          // the state a task sees is written before it runs (a retry after a crash here finds the job finished)
          seen.push(`${ctx.jobId} attempt ${ctx.attempt}: ${(await queue.getJob(ctx.jobId))?.status}`);
        });
        if (p.n === 0)
          throw new AppError('unsupported_file_type', 'Unsupported file format: .pptx', { httpStatus: 415 });
        if (ctx.attempt < 2) throw new Error('transient');
        return double(p);
      });
      const handle = await queue.add(payload(5), { jobId: 'after-end' });
      await expect(handle.result()).resolves.toEqual({ doubled: 10 });
      await waitFor(async () => seen.length > 0, 'the after-end task of the job that succeeded');
      const refused = await queue.add(payload(0), { jobId: 'after-end-refused' });
      await expect(refused.result()).rejects.toMatchObject({ code: 'unsupported_file_type' });
      await waitFor(async () => seen.length > 1, 'the after-end task of the job refused for good');
      // attempt 1 of the first job failed and was retried: its task never ran
      expect(seen).toEqual(['after-end attempt 2: succeeded', 'after-end-refused attempt 1: failed']);
    });

    it('fails an internal error after the last attempt without leaking its message', async () => {
      const queue = await make({ attempts: 2, backoffMs: 10 });
      let calls = 0;
      queue.process(async () => {
        calls += 1;
        throw new Error('ENOENT /srv/secret/path');
      });
      const handle = await queue.add(payload(1), { jobId: 'broken' });
      await expect(handle.result()).rejects.toMatchObject({ code: 'internal_error', httpStatus: 500 });
      const job = await queue.getJob('broken');
      expect(job).toMatchObject({ status: 'failed', attempts: 2, error: { code: 'internal_error', http_status: 500 } });
      expect(job?.error?.message).not.toContain('secret');
      expect(calls).toBe(2);
    });

    it('runs a failed job again when it is added again', async () => {
      const queue = await make({ attempts: 1, backoffMs: 10 });
      let calls = 0;
      queue.process(async (p) => {
        calls += 1;
        if (calls === 1) throw new AppError('extraction_failed', 'first run fails', { httpStatus: 422 });
        return double(p);
      });
      await expect((await queue.add(payload(6), { jobId: 'again' })).result()).rejects.toMatchObject({
        code: 'extraction_failed',
      });
      const retry = await queue.add(payload(6), { jobId: 'again' });
      expect(retry.deduplicated).toBe(false);
      await expect(retry.result()).resolves.toEqual({ doubled: 12 });
      expect(await queue.getJob('again')).toMatchObject({ status: 'succeeded', attempts: 1 });
    });

    it('keeps failed jobs: listFailed pages them newest first with their errors, retry runs one again from attempt 1', async () => {
      const queue = await make({ attempts: 2, backoffMs: 10 });
      let healthy = false;
      queue.process(async (p) => {
        if (!healthy) throw new AppError('conversion_failed', `job ${p.n} failed`, { httpStatus: 422 });
        return double(p);
      });
      for (const id of ['f-1', 'f-2', 'f-3', 'ok']) {
        const n = id === 'ok' ? 9 : Number(id.slice(2));
        await expect((await queue.add(payload(n), { jobId: id })).result()).rejects.toMatchObject({
          code: 'conversion_failed',
        });
        await new Promise((r) => setTimeout(r, 5)); // distinct failure times (BullMQ orders failures by their millisecond)
      }
      const all = await queue.listFailed();
      expect(all.total).toBe(4);
      expect(all.jobs.map((j) => j.id)).toEqual(['ok', 'f-3', 'f-2', 'f-1']);
      expect(all.jobs[1]).toMatchObject({
        status: 'failed',
        attempts: 1,
        payload: payload(3),
        error: { code: 'conversion_failed', message: 'job 3 failed', http_status: 422 },
      });
      const page = await queue.listFailed({ offset: 1, limit: 2 });
      expect(page).toMatchObject({ total: 4 });
      expect(page.jobs.map((j) => j.id)).toEqual(['f-3', 'f-2']);

      healthy = true;
      expect(await queue.retry('f-2')).toBe(true);
      await waitFor(async () => (await queue.getJob('f-2'))?.status === 'succeeded', 'the retried job to succeed');
      expect(await queue.getJob('f-2')).toMatchObject({ status: 'succeeded', attempts: 1, result: { doubled: 4 } });
      expect(await queue.retry('f-2')).toBe(false); // succeeded: left alone
      expect(await queue.retry('never-added')).toBe(false);
      expect((await queue.listFailed()).jobs.map((j) => j.id)).toEqual(['ok', 'f-3', 'f-1']);
    });

    it('listUnfinished pages the queued and running jobs with their payloads, not the finished ones', async () => {
      const queue = await make({ attempts: 1, backoffMs: 10 });
      const release = deferred();
      const started = deferred();
      queue.process(async (p) => {
        if (p.n === 0) throw new AppError('conversion_failed', 'no', { httpStatus: 422 });
        if (p.n === 1) return double(p);
        started.resolve();
        await release.promise;
        return double(p);
      });
      await (await queue.add(payload(1), { jobId: 'u-done' })).result();
      await expect((await queue.add(payload(0), { jobId: 'u-failed' })).result()).rejects.toMatchObject({
        code: 'conversion_failed',
      });
      const running = await queue.add(payload(2), { jobId: 'u-running' });
      await started.promise;
      const waiting = await queue.add(payload(3), { jobId: 'u-waiting' });
      const all = await queue.listUnfinished();
      expect(all.total).toBe(2);
      expect(all.jobs.map((j) => [j.id, j.status, j.payload.n]).sort()).toEqual([
        ['u-running', 'running', 2],
        ['u-waiting', 'queued', 3],
      ]);
      const first = await queue.listUnfinished({ offset: 0, limit: 1 });
      const second = await queue.listUnfinished({ offset: 1, limit: 1 });
      expect([...first.jobs, ...second.jobs].map((j) => j.id).sort()).toEqual(['u-running', 'u-waiting']);
      release.resolve();
      await Promise.all([running.result(), waiting.result()]);
      expect(await queue.listUnfinished()).toEqual({ total: 0, jobs: [] });
    });

    it('takes the retry policy from the queue definition', async () => {
      counter += 1;
      const definition = defineQueue({
        name: `contract-${counter}`,
        jobName: 'double',
        payload: TestPayload,
        result: TestResult,
        retry: { attempts: 2, backoffMs: 10 },
      });
      const queue = await makeQueue(definition, {});
      open.push(queue);
      let calls = 0;
      queue.process(async () => {
        calls += 1;
        throw new Error('always');
      });
      await expect((await queue.add(payload(1), { jobId: 'policy' })).result()).rejects.toMatchObject({
        code: 'internal_error',
      });
      expect(calls).toBe(2);
    });

    it('closing a worker re-queues a job that outlives the shutdown grace; the next worker runs it', async () => {
      const queue = await make({ attempts: 3, backoffMs: 10, shutdownGraceMs: 50 });
      const started = deferred();
      let abortedBy: unknown;
      const stubborn = queue.process(async (_p, ctx) => {
        started.resolve();
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        abortedBy = ctx.signal.reason;
        throw new Error('aborted');
      });
      const handle = await queue.add(payload(8), { jobId: 'shutdown' });
      await started.promise;
      await stubborn.close();
      expect(abortedBy).toBeDefined();
      expect(await queue.getJob('shutdown')).toMatchObject({ status: 'queued' });
      queue.process(double);
      await expect(handle.result()).resolves.toEqual({ doubled: 16 });
      expect((await queue.listFailed()).total).toBe(0);
    });

    it('runs up to `concurrency` jobs at the same time', async () => {
      const queue = await make();
      const release = deferred();
      let active = 0;
      let peak = 0;
      queue.process(
        async (p) => {
          active += 1;
          peak = Math.max(peak, active);
          await release.promise;
          active -= 1;
          return double(p);
        },
        { concurrency: 2 },
      );
      const handles = await Promise.all([1, 2].map((n) => queue.add(payload(n), { jobId: `c-${n}` })));
      await waitFor(async () => peak === 2, 'two jobs running');
      release.resolve();
      await expect(Promise.all(handles.map((h) => h.result()))).resolves.toEqual([{ doubled: 2 }, { doubled: 4 }]);
    });

    it('rejects a payload that does not match the schema, and an unusable job id', async () => {
      const queue = await make();
      await expect(queue.add({ version: 1, n: 'x' } as never, { jobId: 'bad' })).rejects.toMatchObject({
        code: 'invalid_arguments',
      });
      await expect(queue.add(payload(1), { jobId: 'has:colon' })).rejects.toMatchObject({ code: 'invalid_arguments' });
      expect(await queue.getJob('bad')).toBeUndefined();
    });

    it('returns undefined for an unknown job id', async () => {
      const queue = await make();
      expect(await queue.getJob('never-added')).toBeUndefined();
    });

    it('close() waits for the running handler, then refuses new jobs', async () => {
      const queue = await make();
      const started = deferred();
      const release = deferred();
      let finished = false;
      queue.process(async (p) => {
        started.resolve();
        await release.promise;
        finished = true;
        return double(p);
      });
      await queue.add(payload(2), { jobId: 'in-flight' });
      await started.promise;
      const closing = queue.close();
      setTimeout(() => release.resolve(), 50);
      await closing;
      expect(finished).toBe(true);
      await expect(queue.add(payload(3), { jobId: 'late' })).rejects.toMatchObject({
        code: 'queue_closed',
        httpStatus: 503,
      });
    });
  });
};
