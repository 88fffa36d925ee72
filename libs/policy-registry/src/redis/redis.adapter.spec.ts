// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import { startRedis, type TestRedis } from '@lectern/testing';
import { Redis } from 'ioredis';
import { appErrorCode } from '@lectern/testing';
import { runPolicyRegistryContract } from '../policy-registry.contract.js';
import { RedisPolicyRegistry } from './redis.adapter.js';

let redis: TestRedis;
let admin: Redis;
let seq = 0;
const freshPrefix = (): string => `test-${process.pid}-${Date.now().toString(36)}-${seq++}:`;
const keysUnder = async (prefix: string): Promise<string[]> => (await admin.keys(`${prefix}*`)).sort();

beforeAll(async () => {
  redis = await startRedis();
  admin = new Redis(redis.url);
});
afterAll(async () => {
  admin.disconnect();
  await redis.stop();
});

describe('PolicyRegistry (Redis adapter)', () => {
  runPolicyRegistryContract(async () => {
    const keyPrefix = freshPrefix();
    return {
      open: async () => new RedisPolicyRegistry({ url: redis.url, keyPrefix }),
      cleanup: async () => {
        const keys = await keysUnder(keyPrefix);
        if (keys.length > 0) await admin.del(...keys);
      },
    };
  });
});

describe('PolicyRegistry (Redis adapter) storage', () => {
  it("stores spec 001's keys: policy hash, revision hashes, a sorted set scored by days since the epoch, policies_all", async () => {
    const keyPrefix = freshPrefix();
    const registry = new RedisPolicyRegistry({ url: redis.url, keyPrefix });
    try {
      await registry.createPolicy({
        source: 'NPPF',
        title: 'National Planning Policy Framework',
        category: 'national_policy',
      });
      await registry.createRevision({
        source: 'NPPF',
        revision_id: 'rev_NPPF_2023_09',
        version_label: 'September 2023',
        effective_from: '2023-09-05',
        status: 'active',
      });
      await registry.createRevision({
        source: 'NPPF',
        revision_id: 'rev_NPPF_2024_12',
        version_label: 'December 2024',
        effective_from: '2024-12-12',
        status: 'active',
      });
      expect(await keysUnder(keyPrefix)).toEqual(
        [
          'policies_all',
          'policy:NPPF',
          'policy_revision:NPPF:rev_NPPF_2023_09',
          'policy_revision:NPPF:rev_NPPF_2024_12',
          'policy_revisions:NPPF',
        ].map((k) => keyPrefix + k),
      );
      expect(await admin.type(`${keyPrefix}policy:NPPF`)).toBe('hash');
      expect(await admin.smembers(`${keyPrefix}policies_all`)).toEqual(['NPPF']);
      expect(await admin.hgetall(`${keyPrefix}policy:NPPF`)).toMatchObject({
        source: 'NPPF',
        category: 'national_policy',
      });
      expect(await admin.zrevrange(`${keyPrefix}policy_revisions:NPPF`, 0, -1, 'WITHSCORES')).toEqual([
        'rev_NPPF_2024_12',
        '20069',
        'rev_NPPF_2023_09',
        '19605',
      ]);
      const old = await admin.hgetall(`${keyPrefix}policy_revision:NPPF:rev_NPPF_2023_09`);
      expect(old).toMatchObject({
        revision_id: 'rev_NPPF_2023_09',
        effective_from: '2023-09-05',
        effective_to: '2024-12-11',
        status: 'superseded',
        chunk_count: '0',
      });
    } finally {
      await registry.close();
      const keys = await keysUnder(keyPrefix);
      if (keys.length > 0) await admin.del(...keys);
    }
  });

  it('policy-kb-api:FR-008 null fields: every listed field is in the hash, a null one empty, and both forms read back as null', async () => {
    const keyPrefix = freshPrefix();
    const registry = new RedisPolicyRegistry({ url: redis.url, keyPrefix });
    const revisionKey = `${keyPrefix}policy_revision:NPPF:rev_NPPF_2024_12`;
    try {
      await registry.createPolicy({ source: 'NPPF', title: 'NPPF', category: 'national_policy' });
      await registry.createRevision({
        source: 'NPPF',
        revision_id: 'rev_NPPF_2024_12',
        version_label: 'December 2024',
        effective_from: '2024-12-12',
      });
      const fields = [
        'revision_id',
        'source',
        'version_label',
        'effective_from',
        'effective_to',
        'status',
        'file_path',
        'file_size_bytes',
        'page_count',
        'chunk_count',
        'notes',
        'created_at',
        'ingested_at',
        'error',
      ];
      const fresh = await admin.hgetall(revisionKey);
      expect(Object.keys(fresh).sort()).toEqual([...fields].sort());
      expect(fresh).toMatchObject({ notes: '', error: '', effective_to: '', file_path: '', ingested_at: '' });
      expect(await admin.hgetall(`${keyPrefix}policy:NPPF`)).toMatchObject({ description: '' });
      // Set, then cleared with null: the field stays, empty (it used to be deleted from the hash).
      await registry.updateRevision('NPPF', 'rev_NPPF_2024_12', { notes: 'seed', error: 'no_content: empty' });
      expect(await admin.hgetall(revisionKey)).toMatchObject({ notes: 'seed', error: 'no_content: empty' });
      await registry.updateRevision('NPPF', 'rev_NPPF_2024_12', { notes: null, error: null, status: 'active' });
      const cleared = await admin.hgetall(revisionKey);
      expect(Object.keys(cleared).sort()).toEqual([...fields].sort());
      expect(cleared).toMatchObject({ notes: '', error: '', status: 'active' });
      const read = await registry.getRevision('NPPF', 'rev_NPPF_2024_12');
      expect(read).toMatchObject({ notes: null, error: null, effective_to: null, file_path: null, page_count: null });
      // A hash written without the empty fields (before this change) reads the same.
      await admin.hdel(revisionKey, 'notes', 'error', 'effective_to', 'file_path', 'page_count', 'ingested_at');
      expect(await registry.getRevision('NPPF', 'rev_NPPF_2024_12')).toEqual(read);
      expect((await registry.listRevisions('NPPF'))[0]).toEqual(read);
    } finally {
      await registry.close();
      const keys = await keysUnder(keyPrefix);
      if (keys.length > 0) await admin.del(...keys);
    }
  });
});

describe('PolicyRegistry (Redis adapter) when Redis is unreachable', () => {
  it('answers registry_unavailable, without hanging, when nothing listens', async () => {
    const dead = await startRedis();
    const url = dead.url;
    await dead.stop();
    const registry = new RedisPolicyRegistry({ url, keyPrefix: freshPrefix(), timeoutMs: 300 });
    try {
      expect(await appErrorCode(registry.listPolicies())).toBe('registry_unavailable');
      expect(
        await appErrorCode(registry.createPolicy({ source: 'NPPF', title: 'NPPF', category: 'national_policy' })),
      ).toBe('registry_unavailable');
    } finally {
      await registry.close();
    }
  });

  it('answers registry_unavailable while its Redis is stopped and recovers when it is back', async () => {
    const own = await startRedis();
    const registry = new RedisPolicyRegistry({ url: own.url, keyPrefix: freshPrefix(), timeoutMs: 300 });
    let restarted: TestRedis | undefined;
    try {
      await registry.createPolicy({ source: 'NPPF', title: 'NPPF', category: 'national_policy' });
      await own.stop();
      const calls: Array<Promise<unknown>> = [
        registry.listPolicies(),
        registry.getPolicy('NPPF'),
        registry.listRevisions('NPPF'),
        registry.getEffectiveRevision('NPPF', '2024-01-01'),
        registry.createRevision({
          source: 'NPPF',
          revision_id: 'r1',
          version_label: 'r1',
          effective_from: '2024-01-01',
        }),
        registry.updateRevision('NPPF', 'r1', { status: 'active' }),
        registry.deleteRevision('NPPF', 'r1'),
      ];
      for (const call of calls) {
        const error = await call.then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ code: 'registry_unavailable', httpStatus: 503 });
        expect((error as AppError).message).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
      }
      // Same port again (the test server keeps nothing: the registry starts empty there).
      restarted = await startRedis({ port: own.port });
      let policies: unknown = null;
      for (let i = 0; i < 50 && policies === null; i++) {
        policies = await registry.listPolicies().catch(async () => {
          await new Promise((r) => setTimeout(r, 200));
          return null;
        });
      }
      expect(policies).toEqual([]);
      await registry.createPolicy({ source: 'NPPF', title: 'NPPF', category: 'national_policy' });
      const { revision } = await registry.createRevision({
        source: 'NPPF',
        revision_id: 'r1',
        version_label: 'r1',
        effective_from: '2024-01-01',
        status: 'active',
      });
      expect(await registry.getEffectiveRevision('NPPF', '2024-06-01')).toEqual(revision);
    } finally {
      await registry.close();
      await restarted?.stop();
    }
  }, 30_000);
});
