// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractionTaskQueue } from '@lectern/contracts';
import { listenOnFreePort, silentLogger, startRedis, type TestRedis } from '@lectern/testing';
import { createHttpApp } from '@lectern/transport';
import { createPlatform, type Platform } from './platform.js';

/*
 * Issue 30, "input and health": with a real redis-server stopped mid-run, /health says which dependency is down,
 * /ready answers 503 (a readiness probe stops routing here), and a call that needs Redis answers
 * `dependency_unavailable` at once instead of waiting for a reconnect; Redis back, all is ready again.
 */
describe('dependencies: /health, /ready and failing fast while Redis is down', () => {
  let redis: TestRedis;
  let dataDir: string;
  let platform: Platform;
  let baseUrl: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    redis = await startRedis();
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-deps-'));
    platform = createPlatform({ dataDir, log: silentLogger(), redisUrl: redis.url, redisPrefix: 'deps-test' });
    platform.vectorStore();
    platform.queue(extractionTaskQueue);
    const app = createHttpApp({
      service: 'deps-test',
      logger: silentLogger(),
      apiKey: 'deps-test-key-0123456789',
      dependencies: platform.dependencyChecks(),
    });
    baseUrl = await listenOnFreePort(app);
    close = async () => {
      await app.close();
      await platform.close();
    };
  }, 30_000);

  afterAll(async () => {
    await close?.();
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const probe = async (path: string) => {
    const res = await fetch(`${baseUrl}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('lists what the platform built: Redis and the vector store', () => {
    expect(platform.dependencyChecks().map((d) => d.name)).toEqual(['redis', 'vector_store']);
  });

  it('up: /health ok with each dependency, /ready 200 (no token needed)', async () => {
    expect(await probe('/health')).toEqual({
      status: 200,
      body: { status: 'ok', dependencies: { redis: 'up', vector_store: 'up' } },
    });
    expect(await probe('/ready')).toEqual({
      status: 200,
      body: { status: 'ready', dependencies: { redis: 'up', vector_store: 'up' } },
    });
  });

  it('Redis stopped: /health stays 200 naming it down, /ready 503, a job submission answers dependency_unavailable', async () => {
    await redis.stop();
    expect(await probe('/health')).toEqual({
      status: 200,
      body: { status: 'ok', dependencies: { redis: 'down', vector_store: 'up' } },
    });
    expect(await probe('/ready')).toEqual({
      status: 503,
      body: { status: 'unready', dependencies: { redis: 'down', vector_store: 'up' } },
    });
    const queue = platform.queue(extractionTaskQueue);
    await expect(
      queue.add({ version: 1, task_id: '01HZX3J8Q4W5E6R7T8Y9Z0A1A1' }, { jobId: 'task-deps-1' }),
    ).rejects.toMatchObject({ code: 'dependency_unavailable', httpStatus: 503 });
  });

  it('Redis back on its port: ready again, and the submission goes through', async () => {
    redis = await startRedis({ port: redis.port });
    let ready = await probe('/ready');
    for (let i = 0; i < 50 && ready.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      ready = await probe('/ready');
    }
    expect(ready).toEqual({
      status: 200,
      body: { status: 'ready', dependencies: { redis: 'up', vector_store: 'up' } },
    });
    const queue = platform.queue(extractionTaskQueue);
    const handle = await queue.add({ version: 1, task_id: '01HZX3J8Q4W5E6R7T8Y9Z0A1A2' }, { jobId: 'task-deps-2' });
    expect(handle).toBeDefined();
    expect((await queue.getJob('task-deps-2'))?.status).toBe('queued');
  }, 20_000);
});
