// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePolicyPdf, spawnService, startRedis, type SpawnedService, type TestRedis } from '@lectern/testing';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * QUEUE_LOCK_MS is read by every service that runs a queue worker, not only the converter: policy-kb-mcp's
 * `policy-ingest` worker (distributed mode, a real redis-server) holds its running job under a BullMQ lock of that
 * length. No converter runs here, so the ingest waits on its conversion job and stays running while we look.
 */
describe('policy-kb-mcp honours the queue settings of its environment', () => {
  let redis: TestRedis;
  let service: SpawnedService | undefined;
  let dataDir: string;

  beforeAll(async () => {
    redis = await startRedis();
    dataDir = mkdtempSync(join(tmpdir(), 'policy-queue-settings-'));
  });
  afterAll(async () => {
    await service?.stop();
    await redis.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("the policy-ingest worker's job lock is QUEUE_LOCK_MS long (not the 60 s default)", async () => {
    const lockMs = 987_654;
    service = await spawnService('apps/policy-kb-mcp/src/main.ts', 'POLICY_KB_PORT', {
      DATA_DIR: dataDir,
      REDIS_URL: redis.url,
      QUEUE_LOCK_MS: String(lockMs),
      QUEUE_SHUTDOWN_GRACE_MS: '0',
      EMBEDDING_MODEL: 'universal-sentence-encoder-lite',
    });
    const created = await fetch(`${service.baseUrl}/api/policies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'LOCAL_PLAN', title: 'Local Plan', category: 'local_plan' }),
    });
    expect(created.status).toBe(201);
    const form = new FormData();
    form.append('version_label', 'December 2024');
    form.append('effective_from', '2024-12-12');
    form.append('file', new Blob([makePolicyPdf('adopted')]), 'policy.pdf');
    const accepted = await fetch(`${service.baseUrl}/api/policies/LOCAL_PLAN/revisions`, {
      method: 'POST',
      body: form,
    });
    expect(accepted.status).toBe(202);
    const jobId = ((await accepted.json()) as { job_id: string }).job_id;

    const pttl = async (): Promise<number> =>
      Number(
        (await run('redis-cli', ['-p', String(redis.port), 'PTTL', `lectern:policy-ingest:${jobId}:lock`])).stdout,
      );
    let ttl = await pttl();
    for (let i = 0; i < 200 && ttl < 0; i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      ttl = await pttl();
    }
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(lockMs);
  }, 60_000);
});
