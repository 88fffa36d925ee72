// SPDX-License-Identifier: AGPL-3.0-or-later
import { defineQueue } from '@lectern/contracts';
import { startRedis, type TestRedis } from '@lectern/testing';
import { z } from 'zod';
import { createBullmqQueue } from './bullmq.adapter.js';
import { runQueueContract } from './queue.contract.js';
import { closeRedis, connectRedis, type RedisConnection } from './redis-connection.js';

let redis: TestRedis;
let connection: RedisConnection;
const prefixes: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
  connection = connectRedis(redis.url);
});

afterEach(async () => {
  // Each test has its own prefix; remove its keys so nothing carries over.
  for (const prefix of prefixes.splice(0)) {
    const keys = await connection.keys(`${prefix}:*`);
    if (keys.length > 0) await connection.del(...keys);
  }
});

afterAll(async () => {
  await closeRedis(connection);
  await redis.stop();
});

runQueueContract('bullmq', (definition, retry) => {
  const prefix = `test-${definition.name}`;
  prefixes.push(prefix);
  return createBullmqQueue({ definition, connection, prefix, ...retry });
});

describe('BullMQ adapter across processes (producer and worker on separate connections)', () => {
  it('a worker instance runs what a producer instance enqueued; the producer sees progress, result and state', async () => {
    const definition = defineQueue({
      name: 'split',
      jobName: 'double',
      payload: z.object({ n: z.number() }),
      result: z.object({ doubled: z.number() }),
    });
    prefixes.push('test-split');
    const workerConnection = connectRedis(redis.url);
    const producer = createBullmqQueue({ definition, connection, prefix: 'test-split' });
    const worker = createBullmqQueue({ definition, connection: workerConnection, prefix: 'test-split' });
    try {
      const handle = await producer.add({ n: 7 }, { jobId: 'split-1' });
      const seen: number[] = [];
      handle.onProgress((p) => seen.push(p.percent));
      worker.process(async ({ n }, ctx) => {
        await ctx.progress(50);
        ctx.log('halfway');
        return { doubled: n * 2 };
      });
      await expect(handle.result()).resolves.toEqual({ doubled: 14 });
      expect(seen).toEqual([50]);
      expect(await producer.getJob('split-1')).toMatchObject({ status: 'succeeded', result: { doubled: 14 } });
      // The job record lives in Redis under the queue's prefix and name (what other replicas read).
      expect(await connection.exists('test-split:split:split-1')).toBe(1);
    } finally {
      await worker.close();
      await producer.close();
      await closeRedis(workerConnection);
    }
  });
});
