// SPDX-License-Identifier: AGPL-3.0-or-later
import { LocalBlobStore } from '@lectern/blob-store';
import { startRedis, type TestRedis } from '@lectern/testing';
import { Redis } from 'ioredis';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisTaskStore } from './redis-task-store.js';
import { runTaskStoreContract } from './task-store.contract.js';
import { newTaskId } from './task-id.js';
import { TaskUploads } from './task-uploads.js';

let redis: TestRedis;
let admin: Redis;
let seq = 0;
const freshPrefix = (): string => `test-${process.pid}-${seq++}:`;

beforeAll(async () => {
  redis = await startRedis();
  admin = new Redis(redis.url);
});
afterAll(async () => {
  admin.disconnect();
  await redis.stop();
});

describe('TaskStore (Redis adapter)', () => {
  runTaskStoreContract(async () => {
    const keyPrefix = freshPrefix();
    return {
      open: async () => new RedisTaskStore({ url: redis.url, keyPrefix }),
      cleanup: async () => {
        const keys = await admin.keys(`${keyPrefix}*`);
        if (keys.length > 0) await admin.del(...keys);
      },
    };
  });

  it('is shared: start-up recovery leaves running tasks to the queue (another replica may run them)', async () => {
    const store = new RedisTaskStore({ url: redis.url, keyPrefix: freshPrefix() });
    try {
      expect(store.shared).toBe(true);
      const task = await store.create({
        task_id: newTaskId(),
        original_filename: 'a.pdf',
        upload_path: '/x/a.pdf',
        schema: {},
        extractor: 'local',
      });
      await store.claim(task.task_id, { stage: 'indexing' }, 'j');
      expect(await store.recoverInterrupted()).toEqual({ requeued: [], failed: [] });
      expect((await store.get(task.task_id))?.status).toBe('running');
    } finally {
      await store.close();
    }
  });
});

describe('TaskUploads with a blob store (any replica runs a task)', () => {
  it('keeps an upload in the blob store; another DATA_DIR fetches it; remove deletes both', async () => {
    const root = mkdtempSync(join(tmpdir(), 'task-uploads-'));
    try {
      const blobs = new LocalBlobStore({
        root: join(root, 'shared-blobs'),
        limits: { ttlMs: 0, maxBytes: 1e6, quotaBytes: 1e6 },
      });
      const a = new TaskUploads({ dataDir: join(root, 'a'), blobs });
      const b = new TaskUploads({ dataDir: join(root, 'b'), blobs });
      const id = newTaskId();
      mkdirSync(join(root, 'in'));
      writeFileSync(join(root, 'in', 'recv'), 'document bytes');
      const uploadPath = await a.keep(id, join(root, 'in', 'recv'), 'Sheet.PDF');
      expect(uploadPath).toBe(join(root, 'a', 'uploads', id, 'original.pdf'));
      const fetched = await b.localPath({ task_id: id, upload_path: uploadPath });
      expect(fetched).toBe(join(root, 'b', 'uploads', id, 'original.pdf'));
      expect(readFileSync(fetched!, 'utf8')).toBe('document bytes');
      await a.remove(id, uploadPath);
      rmSync(join(root, 'b'), { recursive: true, force: true });
      await expect(b.localPath({ task_id: id, upload_path: uploadPath })).resolves.toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
