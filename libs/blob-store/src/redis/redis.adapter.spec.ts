// SPDX-License-Identifier: AGPL-3.0-or-later
import { startRedis, type TestRedis } from '@lectern/testing';
import { Redis } from 'ioredis';
import { runBlobStoreContract } from '../blob-store.contract.js';
import { RedisBlobStore } from './redis.adapter.js';

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

/** Keys that hold data (the byte counter at 0 and empty accounting structures are not data). */
const dataKeys = async (prefix: string): Promise<string[]> => {
  const keys = (await admin.keys(`${prefix}*`)).sort();
  const used = Number((await admin.get(`${prefix}used`)) ?? 0);
  return keys.filter((k) => k !== `${prefix}used` || used !== 0);
};

describe('BlobStore (Redis adapter)', () => {
  runBlobStoreContract(async () => {
    const keyPrefix = freshPrefix();
    return {
      // small chunks, so that every test spreads its blobs over many Redis values
      open: async (limits) => new RedisBlobStore({ url: redis.url, keyPrefix, limits, chunkBytes: 4096 }),
      leftovers: () => dataKeys(keyPrefix),
      cleanup: async () => {
        const keys = await admin.keys(`${keyPrefix}*`);
        if (keys.length > 0) await admin.del(...keys);
      },
    };
  });

  it('keeps a blob in chunks of chunkBytes that expire with it', async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisBlobStore({
      url: redis.url,
      keyPrefix,
      limits: { ttlMs: 60_000, maxBytes: 1e6, quotaBytes: 1e6 },
      chunkBytes: 1000,
    });
    try {
      await store.put('doc', Buffer.alloc(4500, 1));
      const chunks = await admin.keys(`${keyPrefix}chunk:*`);
      expect(chunks).toHaveLength(5);
      for (const key of [...chunks, `${keyPrefix}meta:doc`]) {
        const ttl = await admin.pttl(key);
        expect(ttl).toBeGreaterThan(50_000);
        expect(ttl).toBeLessThanOrEqual(60_000);
      }
    } finally {
      await store.close();
      const keys = await admin.keys(`${keyPrefix}*`);
      if (keys.length > 0) await admin.del(...keys);
    }
  });
});
