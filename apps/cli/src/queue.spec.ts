// SPDX-License-Identifier: AGPL-3.0-or-later
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, conversionQueue, FailedJobSchema, type ConversionJobPayload } from '@lectern/contracts';
import { createPlatform, type Platform } from '@lectern/platform';
import { repoRoot, silentLogger, startRedis, type TestRedis } from '@lectern/testing';
import { z } from 'zod';

/** The real `lectern` binary (node + tsx), as an operator runs it. */
const lectern = (
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(repoRoot(), 'apps', 'cli', 'bin', 'lectern.cjs'), ...args],
      { cwd: repoRoot(), env: { PATH: process.env['PATH'] ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

const payload = (n: number): ConversionJobPayload => ({
  version: 1,
  file: { kind: 'data_dir', path: `uploads/${String(n).repeat(64).slice(0, 64)}/doc-${n}.pdf` },
  filename: `doc-${n}.pdf`,
  sha256: String(n).repeat(64).slice(0, 64),
  byte_size: 10,
  options: {},
});

const ListedSchema = z.object({
  queues: z.array(z.object({ queue: z.string(), total: z.number(), jobs: z.array(FailedJobSchema) })),
});

describe('lectern queue failed|retry (distributed mode, a real redis-server)', () => {
  let redis: TestRedis;
  let dataDir: string;
  let platform: Platform;
  let env: Record<string, string>;
  let failing = true;

  beforeAll(async () => {
    redis = await startRedis();
    dataDir = await mkdtemp(join(tmpdir(), 'lectern-cli-queue-'));
    env = { REDIS_URL: redis.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    // A worker on the conversion queue that fails every job permanently until told otherwise.
    platform = createPlatform({ dataDir, log: silentLogger(), redisUrl: redis.url });
    const queue = platform.queue(conversionQueue);
    queue.process(async (p) => {
      if (failing) throw new AppError('conversion_failed', `${p.filename} could not be read`, { httpStatus: 422 });
      return {
        version: 1,
        kind: 'data_dir',
        file: { path: 'conversions/x.json', byte_size: 2, sha256: p.sha256 },
        fingerprint: p.sha256,
        page_count: 1,
      };
    });
    for (const n of [1, 2, 3]) {
      const handle = await queue.add(payload(n), { jobId: `convert-job-${n}` });
      await handle.result().catch(() => undefined);
    }
  }, 60_000);

  afterAll(async () => {
    await platform.close();
    await redis.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists the failed jobs with their errors, newest first (JSON and text)', async () => {
    const json = await lectern(['queue', 'failed', '--json'], env);
    expect(json.code).toBe(0);
    const listed = ListedSchema.parse(JSON.parse(json.stdout));
    const conversion = listed.queues.find((q) => q.queue === 'conversion');
    expect(conversion?.total).toBe(3);
    expect(conversion?.jobs.map((j) => j.id).sort()).toEqual(['convert-job-1', 'convert-job-2', 'convert-job-3']);
    expect(conversion?.jobs.find((j) => j.id === 'convert-job-2')).toMatchObject({
      attempts: 1,
      error: { code: 'conversion_failed', message: 'doc-2.pdf could not be read', http_status: 422 },
    });

    const text = await lectern(['queue', 'failed', '--queue', 'conversion', '--limit', '1'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^conversion: 3 failed \(showing 1\)\n {2}convert-job-\d {2}failed .* after 1 attempt\(s\) {2}conversion_failed: doc-\d\.pdf could not be read\n$/,
    );
  }, 60_000);

  it('retries one failed job: it runs again and leaves the failed list', async () => {
    failing = false;
    const retried = await lectern(['queue', 'retry', 'convert-job-2'], env);
    expect(retried).toMatchObject({ code: 0, stdout: 'retried conversion/convert-job-2\n' });
    const queue = platform.queue(conversionQueue);
    for (let i = 0; i < 500 && (await queue.getJob('convert-job-2'))?.status !== 'succeeded'; i += 1)
      await new Promise((r) => setTimeout(r, 20));
    expect(await queue.getJob('convert-job-2')).toMatchObject({ status: 'succeeded', attempts: 1 });
    const after = ListedSchema.parse(JSON.parse((await lectern(['queue', 'failed', '--json'], env)).stdout));
    expect(
      after.queues
        .find((q) => q.queue === 'conversion')
        ?.jobs.map((j) => j.id)
        .sort(),
    ).toEqual(['convert-job-1', 'convert-job-3']);
  }, 60_000);

  it('exits 1 naming an id that is not a failed job; --all retries the rest', async () => {
    const wrong = await lectern(['queue', 'retry', 'convert-job-2', 'no-such-job'], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('not a failed job: convert-job-2, no-such-job');
    const all = await lectern(['queue', 'retry', '--all'], env);
    expect(all.code).toBe(0);
    expect(all.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'retried conversion/convert-job-1',
      'retried conversion/convert-job-3',
    ]);
  }, 60_000);

  it('refuses without REDIS_URL (embedded queues live in the service process), and an unknown queue', async () => {
    const embedded = await lectern(['queue', 'failed'], { DATA_DIR: dataDir });
    expect(embedded.code).toBe(1);
    expect(embedded.stderr).toMatch(/REDIS_URL is not set/);
    const unknown = await lectern(['queue', 'failed', '--queue', 'nope'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown queue "nope"; queues: conversion');
  }, 60_000);
});
