// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, startRedis, type TestRedis } from '@lectern/testing';
import { createPlatform } from './platform.js';

describe('platform.blobStore', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-platform-blobs-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('embedded: one local store under DATA_DIR/blobs with the configured limits, closed with the stores', async () => {
    const platform = createPlatform({ dataDir, log: silentLogger(), blob: { maxBytes: 10 } });
    const blobs = platform.blobStore();
    expect(platform.blobStore()).toBe(blobs);
    expect(blobs.kind).toBe('local');
    await blobs.put('a/b', Buffer.from('0123456789'));
    expect(existsSync(join(dataDir, 'blobs', 'keys', 'a', 'b.blob.json'))).toBe(true);
    await expect(blobs.put('c', Buffer.from('01234567890'))).rejects.toMatchObject({ code: 'too_large' });
    expect(platform.shutdownSteps().map((s) => s.name)).toEqual(['blob store']);
    await platform.close();
  });

  describe('distributed', () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(() => redis.stop());

    it('keeps blobs in Redis, where a platform with another DATA_DIR reads them', async () => {
      const other = mkdtempSync(join(tmpdir(), 'lectern-platform-blobs-'));
      const a = createPlatform({ dataDir, log: silentLogger(), redisUrl: redis.url, redisPrefix: 'pb' });
      const b = createPlatform({ dataDir: other, log: silentLogger(), redisUrl: redis.url, redisPrefix: 'pb' });
      try {
        expect(a.blobStore().kind).toBe('redis');
        await a.blobStore().put('uploads/x.pdf', Buffer.from('%PDF-1.4 shared'));
        expect((await b.blobStore().get('uploads/x.pdf'))?.toString()).toBe('%PDF-1.4 shared');
        expect(existsSync(join(dataDir, 'blobs'))).toBe(false);
      } finally {
        await a.close();
        await b.close();
        rmSync(other, { recursive: true, force: true });
      }
    });
  });
});
