// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConversionTaskCreatedSchema,
  FailedJobsPageSchema,
  QueueListResponseSchema,
  RetryJobResponseSchema,
} from '@lectern/contracts';
import { spawnService, startRedis, type SpawnedService, type TestRedis } from '@lectern/testing';
import { pollTask, postFile } from './converter.testkit.js';

/**
 * The admin queue API as `npm start` wires it (the converter's main.ts, its own process) in distributed mode: BullMQ
 * on a real redis-server on loopback. A damaged PDF fails its conversion job for real; the API lists it with its
 * reason, and a retry runs it again from its first attempt.
 */
describe('converter admin queue API (distributed, its own process)', () => {
  const key = 'queue-admin-converter-key-0123';
  const auth = { authorization: `Bearer ${key}` };
  let redis: TestRedis;
  let converter: SpawnedService;
  let dataDir: string;
  beforeAll(async () => {
    redis = await startRedis();
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-converter-admin-'));
    converter = await spawnService('apps/converter/src/main.ts', 'CONVERTER_PORT', {
      DATA_DIR: dataDir,
      REDIS_URL: redis.url,
      MCP_API_KEY: key,
      ENABLE_OCR: 'false',
    });
  }, 60_000);
  afterAll(async () => {
    await converter?.stop();
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = async (path: string) => (await fetch(`${converter.baseUrl}${path}`, { headers: auth })).json();

  it('lists the failed conversion with its reason, and retries it from its first attempt', async () => {
    const created = await postFile(
      converter.baseUrl,
      '/tasks',
      { bytes: new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog garbage'), filename: 'broken.pdf' },
      { headers: auth },
    );
    expect(created.status).toBe(202);
    const { task_id } = ConversionTaskCreatedSchema.parse(await created.json());
    expect((await pollTask(converter.baseUrl, task_id, auth)).at(-1)).toMatchObject({ status: 'failed' });

    expect(QueueListResponseSchema.parse(await get('/admin/queues'))).toEqual({
      service: 'converter',
      mode: 'distributed',
      queues: [{ queue: 'conversion', unfinished: 0, queued: 0, running: 0, failed: 1 }],
    });
    const first = FailedJobsPageSchema.parse(await get('/admin/queues/conversion/failed'));
    expect(first.jobs).toEqual([
      expect.objectContaining({
        queue: 'conversion',
        id: task_id,
        attempts: 1,
        error: expect.objectContaining({ code: 'extraction_failed', http_status: 422 }),
      }),
    ]);
    expect(JSON.stringify(first)).not.toContain(dataDir);

    const retried = await fetch(`${converter.baseUrl}/admin/queues/conversion/jobs/${task_id}/retry`, {
      method: 'POST',
      headers: auth,
    });
    expect(retried.status).toBe(202);
    expect(RetryJobResponseSchema.parse(await retried.json())).toEqual({
      queue: 'conversion',
      id: task_id,
      status: 'queued',
    });
    // it runs again, later: a permanent failure (a damaged file) removed its upload when it failed
    // (conversion.processor.ts), so the run finds no file and says so (a transient failure keeps it for a retry)
    let again = first;
    for (let i = 0; i < 300; i++) {
      again = FailedJobsPageSchema.parse(await get('/admin/queues/conversion/failed'));
      if (again.jobs[0] && again.jobs[0].failed_at !== first.jobs[0]!.failed_at) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(Date.parse(again.jobs[0]!.failed_at)).toBeGreaterThan(Date.parse(first.jobs[0]!.failed_at));
    expect(again.jobs[0]!.error.code).toBe('upload_missing');

    const unknown = await fetch(`${converter.baseUrl}/admin/queues/conversion/jobs/convert-nope/retry`, {
      method: 'POST',
      headers: auth,
    });
    expect([unknown.status, ((await unknown.json()) as { error: { code: string } }).error.code]).toEqual([
      404,
      'job_not_found',
    ]);
    // the key is needed
    expect((await fetch(`${converter.baseUrl}/admin/queues`)).status).toBe(401);
  }, 90_000);
});
