// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  conversionJobId,
  conversionQueue,
  type ConversionJobPayload,
  type ConversionJobResult,
  type JobProgress,
} from '@lectern/contracts';
import { createConversionEngine } from '@lectern/conversion';
import {
  createConversionProcessor,
  loadConversionResult,
  resolveConversionFile,
  stageConversionFile,
} from '@lectern/conversion-job';
import {
  closeRedis,
  connectRedis,
  createBullmqQueue,
  createInProcessQueue,
  type JobQueue,
  type RedisConnection,
} from '@lectern/queue';
import { numberedPdfFile, startRedis, type TestRedis } from '@lectern/testing';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A generated 82-page text-layer PDF (this suite runs without ../shared). */
const NPPF = numberedPdfFile(82, 'NPPF_December_2024.pdf');
type ConversionQueue = JobQueue<ConversionJobPayload, ConversionJobResult>;
/** The job a producer submits for a staged file, with default options. */
const payloadOf = (staged: Awaited<ReturnType<typeof stageConversionFile>>): ConversionJobPayload => ({
  version: 1,
  file: staged.file,
  filename: staged.filename,
  sha256: staged.sha256,
  byte_size: staged.byteSize,
  options: {},
});

let redis: TestRedis;
let connection: RedisConnection;
const engine = createConversionEngine();
beforeAll(async () => {
  redis = await startRedis();
  connection = connectRedis(redis.url);
});
afterAll(async () => {
  await engine.close();
  await closeRedis(connection);
  await redis.stop();
});

describe.each([
  ['in-process', (): ConversionQueue => createInProcessQueue({ definition: conversionQueue })],
  [
    'bullmq',
    (): ConversionQueue =>
      createBullmqQueue({ definition: conversionQueue, connection, prefix: 'conversion-job-spec' }),
  ],
])('conversion queue job (%s adapter, real conversion)', (_adapter, makeQueue) => {
  let dataDir: string;
  let queue: ConversionQueue;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lectern-conversion-job-'));
    queue = makeQueue();
  });
  afterEach(async () => {
    await queue.close();
    await rm(dataDir, { recursive: true, force: true });
    const keys = await connection.keys('conversion-job-spec:*');
    if (keys.length > 0) await connection.del(...keys);
  });

  it('reports page progress while converting the NPPF and hands back the result', async () => {
    const staged = await stageConversionFile(dataDir, createReadStream(NPPF), 'NPPF_December_2024.pdf', {
      maxBytes: 10e6,
    });
    const payload = payloadOf(staged);
    const handle = await queue.add(payload, { jobId: conversionJobId(staged.sha256) });
    const reports: JobProgress[] = [];
    handle.onProgress((p) => reports.push(p));
    let conversions = 0;
    queue.process(
      createConversionProcessor({
        dataDir,
        engine: {
          convert: (input, options) => {
            conversions += 1;
            return engine.convert(input, options);
          },
        },
      }),
    );
    const again = await queue.add(payload, { jobId: conversionJobId(staged.sha256) });
    expect(again.deduplicated).toBe(true);
    const [first, second] = await Promise.all([handle.result(), again.result()]);
    expect(second).toEqual(first);
    expect(conversions).toBe(1);
    const result = await loadConversionResult(dataDir, first);
    expect(result).toMatchObject({ fingerprint: staged.sha256, page_count: 82 });

    const extract = reports.filter((r) => r.detail?.['stage'] === 'extract');
    expect(extract.length).toBeGreaterThan(1);
    expect(extract.at(-1)?.detail).toMatchObject({ page: 82, pages: 82 });
    const percents = reports.map((r) => r.percent);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
    expect(percents.at(-1)).toBe(99); // 100 only once the result is stored (the job's final state)
  });
  it('keeps the upload until the queue has recorded the job end, then deletes it', async () => {
    // a worker killed after the handler returned but before the queue wrote "completed" runs the job again: the
    // upload must still be there for that attempt (CI saw the retry answer upload_missing when it was deleted first)
    const staged = await stageConversionFile(dataDir, createReadStream(numberedPdfFile(2, 'two.pdf')), 'two.pdf', {
      maxBytes: 10e6,
    });
    if (staged.file.kind === 'blob') throw new Error('expected a staged file in the data directory');
    const upload = await resolveConversionFile(dataDir, staged.file);
    const processor = createConversionProcessor({ dataDir, engine });
    let presentWhenHandlerReturned: boolean | undefined;
    queue.process(async (payload, context) => {
      const stored = await processor(payload, context);
      presentWhenHandlerReturned = existsSync(upload);
      return stored;
    });
    const handle = await queue.add(payloadOf(staged), { jobId: conversionJobId(staged.sha256) });
    await handle.result();
    expect(presentWhenHandlerReturned).toBe(true);
    for (let i = 0; i < 200 && existsSync(upload); i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(existsSync(upload)).toBe(false);
  });
});
