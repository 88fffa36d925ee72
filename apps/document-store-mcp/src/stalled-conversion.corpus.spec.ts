// SPDX-License-Identifier: AGPL-3.0-or-later
import { spawn, type ChildProcess } from 'node:child_process';
import { conversionJobId } from '@lectern/contracts';
import { sha256File } from '@lectern/documents';
import { createPlatform, type ConversionService, type Platform } from '@lectern/platform';
import { corpusFile, repoRoot, serviceArgs, silentLogger, startRedis, type TestRedis } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

// A scanned page: OCR keeps a converter busy for a second or more, long enough to kill it mid-job.
const SCAN = corpusFile('scanned-ocr', 'ocrmypdf-resources', 'linn.pdf');

/** A real converter process (its BullMQ worker) on the test's Redis and the document store's DATA_DIR. */
const startConverter = (env: Record<string, string>): Promise<ChildProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, serviceArgs('apps/converter/src/main.ts'), {
      cwd: repoRoot(),
      env: { ...process.env, ...env, CONVERTER_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('converter ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`converter exited early (${code}): ${out.slice(-500)}`)));
  });

/**
 * Distributed mode, issue 12 #9: the converter running a job is SIGKILLed, the job is re-queued (one stall
 * allowed, QUEUE_STALL_LIMIT=1), the next converter picking it up is killed too; the third converter's
 * stall check fails the job, and the document store's ingest answers a typed `conversion_failed` with the
 * reason, not a generic internal_error.
 */
describe('ingest_document when the conversion job stalls twice', () => {
  let redis: TestRedis;
  let ds: RunningDocumentStore;
  let observer: Platform;
  let conversion: ConversionService;
  const converters: ChildProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    ds = await startDocumentStore({ REDIS_URL: redis.url, INGEST_TIMEOUT_S: '300' });
    // reads job states only (no worker here)
    observer = createPlatform({ dataDir: ds.dataDir, log: silentLogger(), redisUrl: redis.url });
    conversion = observer.conversion({ workers: { embedded: 1, distributed: 0 } });
  }, 60_000);
  afterAll(async () => {
    for (const child of converters) if (child.exitCode === null) child.kill('SIGKILL');
    await ds.stop();
    await observer.close();
    await redis.stop();
  });

  it('ends in conversion_failed with the reason', async () => {
    const env = {
      REDIS_URL: redis.url,
      DATA_DIR: ds.dataDir,
      QUEUE_LOCK_MS: '1000',
      QUEUE_STALL_LIMIT: '1',
      ENABLE_OCR: 'true',
    };
    const jobId = conversionJobId(await sha256File(SCAN));
    const runningAttempt = async (attempt: number): Promise<void> => {
      for (;;) {
        const job = await conversion.submitter.getJob(jobId);
        if (job?.status === 'running' && job.attempts >= attempt) return;
        if (job?.status === 'succeeded' || job?.status === 'failed')
          throw new Error(`job ${job.status} before the kill`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };

    const ingest = ds.call('ingest_document', { file_path: SCAN, application_ref: 'STALL/1' });
    for (const attempt of [1, 2]) {
      const converter = await startConverter(env);
      converters.push(converter);
      await runningAttempt(attempt);
      converter.kill('SIGKILL');
    }
    // the third converter's stall check finds the job stalled a second time and fails it
    converters.push(await startConverter(env));

    const result = await ingest;
    expect(result.isError).toBe(true);
    expect(result.body).toMatchObject({
      status: 'error',
      error_type: 'conversion_failed',
      message: expect.stringMatching(/linn\.pdf failed: .*stalled/),
    });
    expect(await conversion.submitter.getJob(jobId)).toMatchObject({ status: 'failed', error: { code: 'stalled' } });
  }, 180_000);
});
