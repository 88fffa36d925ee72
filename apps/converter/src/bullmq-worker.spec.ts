// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  ConversionResultSchema,
  ConversionTaskCreatedSchema,
  ConversionTaskStatusSchema,
  RestErrorSchema,
} from '@lectern/contracts';
import { closeRedis, connectRedis, type RedisConnection } from '@lectern/queue';
import { numberedPdfFile, silentLogger, startRedis, type TestRedis } from '@lectern/testing';
import { installShutdown } from '@lectern/transport';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pollTask, postFile, startConverter, type TestConverter } from './converter.testkit.js';

/** A generated 82-page text-layer PDF (this suite runs without ../shared). */
const NPPF = numberedPdfFile(82, 'NPPF_December_2024.pdf');
const corrupt = {
  bytes: new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog garbage'),
  filename: 'broken.pdf',
};

let redis: TestRedis;
let inspect: RedisConnection;
let nppfSha: string;
let testNo = 0;
let prefix: string;
const running: TestConverter[] = [];

const start = async (env: Record<string, string> = {}, dataDir?: string): Promise<TestConverter> => {
  const converter = await startConverter(
    { REDIS_URL: redis.url, ...env },
    { redisPrefix: prefix, ...(dataDir ? { dataDir } : {}) },
  );
  running.push(converter);
  return converter;
};

const submit = async (converter: TestConverter, file: Parameters<typeof postFile>[2]) => {
  const response = await postFile(converter.baseUrl, '/tasks', file);
  expect(response.status).toBe(202);
  return ConversionTaskCreatedSchema.parse(await response.json());
};

beforeAll(async () => {
  redis = await startRedis();
  inspect = connectRedis(redis.url);
  nppfSha = createHash('sha256')
    .update(await readFile(NPPF))
    .digest('hex');
});
beforeEach(() => {
  testNo += 1;
  prefix = `conv-test-${testNo}`; // each test its own BullMQ prefix
});
afterEach(async () => {
  for (const converter of running.splice(0)) await converter.close();
  const keys = await inspect.keys(`${prefix}:*`);
  if (keys.length > 0) await inspect.del(...keys);
});
afterAll(async () => {
  await closeRedis(inspect);
  await redis.stop();
});

describe('converter with REDIS_URL (BullMQ worker on the "conversion" queue)', () => {
  it('converts a task end to end through redis-server; a large result is put in the blob store (Redis) and referenced', async () => {
    const converter = await start({ INLINE_RESULT_MAX_BYTES: '10000' });
    const { task_id } = await submit(converter, { path: NPPF });
    expect(task_id).toBe(`convert-${nppfSha}`);
    const last = ConversionTaskStatusSchema.parse((await pollTask(converter.baseUrl, task_id)).at(-1));
    expect(last).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      progress: { percent: 100, stage: 'done', page: 82, pages: 82 },
    });

    const result = ConversionResultSchema.parse(
      await (await fetch(`${converter.baseUrl}/tasks/${task_id}/result`)).json(),
    );
    expect(result).toMatchObject({ fingerprint: nppfSha, page_count: 82 });
    // The job holds only the reference; the JSON is in the blob store (chunked Redis values), not in DATA_DIR.
    const stored = await inspect.hget(`${prefix}:conversion:${task_id}`, 'returnvalue');
    expect(JSON.parse(stored ?? 'null')).toMatchObject({
      version: 1,
      kind: 'blob',
      file: { key: `conversion/results/${task_id}.json` },
    });
    expect((stored ?? '').length).toBeLessThan(1000);
    const size = await inspect.hget(`${prefix}:blob:meta:conversion/results/${task_id}.json`, 'size');
    expect(Number(size)).toBeGreaterThan(100_000);
    expect(existsSync(join(converter.dataDir, 'conversions', `${task_id}.json`))).toBe(false);
  });

  it('converts the same file once across two replicas sharing Redis and no directory (API-only + worker)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lectern-api-data-'));
    try {
      const api = await start({ CONVERTER_CONCURRENCY: '0' }, dataDir);
      const [a, b] = await Promise.all([submit(api, { path: NPPF }), submit(api, { path: NPPF })]);
      expect(b.task_id).toBe(a.task_id);
      // No worker yet: the task waits, and its result is not there.
      const waiting = ConversionTaskStatusSchema.parse(await (await fetch(`${api.baseUrl}/tasks/${a.task_id}`)).json());
      expect(waiting).toMatchObject({ status: 'queued', progress: { percent: 0 } });
      const early = await fetch(`${api.baseUrl}/tasks/${a.task_id}/result`);
      expect(early.status).toBe(409);
      expect(RestErrorSchema.parse(await early.json()).error.code).toBe('task_not_finished');

      const worker = await start({}); // its own DATA_DIR: the upload reaches it through the blob store
      const third = await submit(worker, { path: NPPF });
      expect(third).toMatchObject({ task_id: a.task_id, deduplicated: true });
      expect((await pollTask(api.baseUrl, a.task_id)).at(-1)).toMatchObject({ status: 'succeeded' });
      expect(await submit(api, { path: NPPF })).toEqual({
        task_id: a.task_id,
        status: 'succeeded',
        deduplicated: true,
      });
      expect(api.conversions() + worker.conversions()).toBe(1);
      expect(worker.conversions()).toBe(1);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('fails a corrupt document once (no retries for bad input), keeps the failed job, serves the next task', async () => {
    const converter = await start();
    const { task_id } = await submit(converter, corrupt);
    const last = ConversionTaskStatusSchema.parse((await pollTask(converter.baseUrl, task_id)).at(-1));
    expect(last).toMatchObject({ status: 'failed', attempts: 1, error: { code: 'extraction_failed' } });
    expect(await inspect.zscore(`${prefix}:conversion:failed`, task_id)).not.toBeNull();
    const failed = await fetch(`${converter.baseUrl}/tasks/${task_id}/result`);
    expect(failed.status).toBe(422);
    expect(await failed.json()).toMatchObject({ task_id, status: 'failed', error: { code: 'extraction_failed' } });

    const next = await submit(converter, { bytes: new TextEncoder().encode('# Next\n\nfine'), filename: 'next.md' });
    expect((await pollTask(converter.baseUrl, next.task_id)).at(-1)).toMatchObject({ status: 'succeeded' });
  });

  it('shuts down in order (HTTP, worker, queue, Redis, pools) and finishes the running conversion first', async () => {
    const converter = await startConverter({ REDIS_URL: redis.url }, { redisPrefix: prefix });
    const { task_id } = await submit(converter, { path: NPPF });
    for (let i = 0; i < 500; i += 1) {
      const status = ConversionTaskStatusSchema.parse(
        await (await fetch(`${converter.baseUrl}/tasks/${task_id}`)).json(),
      );
      if (status.status === 'running') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const done: string[] = [];
    const exits: number[] = [];
    const shutdown = installShutdown({
      log: silentLogger(),
      signals: [],
      exit: (code) => exits.push(code),
      steps: [
        { name: 'http', close: () => converter.app.close() },
        ...converter.services.platform.shutdownSteps().map((step) => ({
          name: step.name,
          close: async () => {
            await step.close();
            done.push(step.name);
          },
        })),
      ],
    });
    await shutdown('test');
    expect(exits).toEqual([0]);
    expect(done).toEqual([
      'conversion worker',
      'conversion files janitor',
      'conversion queue',
      'redis',
      'conversion pools',
      'blob store',
    ]);
    const job = await inspect.hgetall(`${prefix}:conversion:${task_id}`);
    expect(job['finishedOn']).toBeDefined();
    expect(JSON.parse(job['returnvalue'] ?? 'null')).toMatchObject({ kind: 'inline' });
    await rm(converter.dataDir, { recursive: true, force: true });
  });
});
