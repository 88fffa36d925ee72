// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '@lectern/contracts';
import { silentLogger, startRedis, type TestRedis } from '@lectern/testing';
import { createPlatform } from './platform.js';

describe('platform.policyRegistry', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-platform-registry-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('embedded: one SQLite registry under DATA_DIR, closed with the stores, kept across restarts', async () => {
    const platform = createPlatform({ dataDir, log: silentLogger() });
    platform.vectorStore();
    const registry = platform.policyRegistry();
    expect(platform.policyRegistry()).toBe(registry);
    await registry.createPolicy({ source: 'NPPF', title: 'NPPF', category: 'national_policy' });
    expect(existsSync(join(dataDir, 'policy-registry.sqlite'))).toBe(true);
    expect(platform.shutdownSteps().map((s) => s.name)).toEqual(['vector store', 'policy registry']);
    await platform.close();
    await expect(registry.listPolicies()).rejects.toMatchObject({ code: 'registry_unavailable' });

    const again = createPlatform({ dataDir, log: silentLogger() });
    expect((await again.policyRegistry().listPolicies()).map((p) => p.source)).toEqual(['NPPF']);
    await again.close();
  });

  it('embedded: sqlitePath puts the file elsewhere', async () => {
    const platform = createPlatform({ dataDir, log: silentLogger() });
    await platform.policyRegistry({ sqlitePath: join(dataDir, 'elsewhere', 'reg.db') }).listPolicies();
    expect(existsSync(join(dataDir, 'elsewhere', 'reg.db'))).toBe(true);
    expect(existsSync(join(dataDir, 'policy-registry.sqlite'))).toBe(false);
    await platform.close();
  });

  describe('distributed', () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => redis.stop());

    it("uses the platform's Redis with spec 001's keys and no SQLite file; closed with the stores", async () => {
      const platform = createPlatform({
        dataDir,
        log: silentLogger(),
        redisUrl: redis.url,
        redisPrefix: 'platform-test',
      });
      const registry = platform.policyRegistry({ sqlitePath: join(dataDir, 'unused.sqlite') });
      await registry.createPolicy({ source: 'LTN_1_20', title: 'LTN 1/20', category: 'national_guidance' });
      const other = createPlatform({ dataDir: join(dataDir, 'other'), log: silentLogger(), redisUrl: redis.url });
      expect((await other.policyRegistry().listPolicies()).map((p) => p.source)).toEqual(['LTN_1_20']);
      expect(existsSync(join(dataDir, 'unused.sqlite'))).toBe(false);
      expect(existsSync(join(dataDir, 'policy-registry.sqlite'))).toBe(false);
      platform.vectorStore();
      expect(platform.shutdownSteps().map((s) => s.name)).toEqual(['policy registry', 'vector store']);
      await other.close();
      await platform.close();
      await expect(registry.listPolicies()).rejects.toBeInstanceOf(AppError);
    });
  });
});
