// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { policyIngestQueue } from '@lectern/contracts';
import {
  checkPolicyConsistency,
  createPolicyRevision,
  liveIngestRevisions,
  policyUploadsDir,
  recoverInterruptedRevisions,
  revisionFilter,
} from '@lectern/policy-kb';
import { createBullmqQueue, createInProcessQueue, connectRedis, closeRedis, type JobQueue } from '@lectern/queue';
import { makePolicyPdf, silentLogger, startRedis, type TestRedis } from '@lectern/testing';
import type { PolicyIngestJobPayload, PolicyIngestJobResult } from '@lectern/contracts';
import { startPolicyKb, type RunningPolicyKb } from './policy-kb.testkit.js';

type IngestJobs = JobQueue<PolicyIngestJobPayload, PolicyIngestJobResult>;

/**
 * Recovery at start (issue 24) on the real registry, store and queue of each mode, with the interrupted states planted
 * as a killed process leaves them: revisions `processing` with partial chunks and no job (one with its upload kept,
 * one whose file is not an upload), and one a live job still owns. The queue here has no worker, so what recovery
 * queues stays visible (the kill test, `kill-recovery.spec.ts`, shows a re-queued revision reaching `active`).
 */
describe.each([
  ['embedded', false],
  ['distributed', true],
] as const)('policy KB recovery at start (%s)', (_mode, distributed) => {
  let redis: TestRedis | undefined;
  let kb: RunningPolicyKb;
  let jobs: IngestJobs;
  let closeJobs: () => Promise<void>;

  beforeAll(async () => {
    if (distributed) redis = await startRedis();
    const run = `recovery-${process.pid}`;
    kb = await startPolicyKb(redis ? { REDIS_URL: redis.url } : {}, 'streamable-http', {
      redisPrefix: run,
      redisKeyPrefix: `${run}:`,
      convertHere: true,
    });
    if (redis) {
      const connection = connectRedis(redis.url);
      // a queue of its own, without a worker: the jobs recovery adds stay queued for the assertions
      jobs = createBullmqQueue({ definition: policyIngestQueue, connection, prefix: `${run}-no-worker` });
      closeJobs = async () => {
        await jobs.close();
        await closeRedis(connection);
      };
    } else {
      jobs = createInProcessQueue({ definition: policyIngestQueue });
      closeJobs = () => jobs.close();
    }
  }, 60_000);
  afterAll(async () => {
    await closeJobs?.();
    await kb?.stop();
    await redis?.stop();
  });

  it('re-queues an interrupted upload, fails an interrupted non-upload, leaves a live job alone; idempotent', async () => {
    const { deps, dataDir } = kb;
    await deps.registry.createPolicy({
      source: 'RECOVERY_PLAN',
      title: 'Recovery plan',
      description: 'planted interrupted revisions',
      category: 'local_plan',
    });
    const uploadDir = join(policyUploadsDir(dataDir), 'RECOVERY_PLAN', 'upload-1');
    mkdirSync(uploadDir, { recursive: true });
    const uploaded = join(uploadDir, 'plan.pdf');
    writeFileSync(uploaded, makePolicyPdf('recovery'));
    const elsewhere = join(dataDir, 'plan-2021.pdf');
    writeFileSync(elsewhere, makePolicyPdf('recovery 2021'));
    const revision = (id: string, from: string, to: string | null, file: string) =>
      createPolicyRevision(deps, {
        source: 'RECOVERY_PLAN',
        revision_id: id,
        version_label: id,
        effective_from: from,
        effective_to: to,
        file_path: file,
        file_size_bytes: 1,
      });
    await revision('rev_upload', '2020-01-01', '2020-12-31', uploaded);
    await revision('rev_elsewhere', '2021-01-01', '2021-12-31', elsewhere);
    await revision('rev_live', '2022-01-01', null, uploaded);
    // partial chunks, as a process killed between the store write and the registry update leaves them
    const fingerprint = (await deps.embedders.configured()).fingerprint;
    await deps.store.ensureCollection(deps.collection, { fingerprint, hybrid: true });
    const vector = new Float32Array(fingerprint.dimension).fill(1 / Math.sqrt(fingerprint.dimension));
    for (const id of ['rev_upload', 'rev_elsewhere', 'rev_live'])
      await deps.store.upsert(
        deps.collection,
        [1, 2].map((n) => ({
          id: `RECOVERY_PLAN__${id}__partial__00${n}`,
          vector,
          text: `partial chunk ${n}`,
          payload: { source: 'RECOVERY_PLAN', revision_id: id },
        })),
        { fingerprint },
      );
    await jobs.add(
      {
        version: 1,
        source: 'RECOVERY_PLAN',
        revision_id: 'rev_live',
        file: { kind: 'data_dir', path: 'uploads/policies/RECOVERY_PLAN/upload-1/plan.pdf' },
        reindex: false,
      },
      { jobId: 'policy-ingest-live' },
    );

    const before = await checkPolicyConsistency(deps, { live: await liveIngestRevisions(jobs) });
    expect(before.stuck_revisions.map((r) => [r.revision_id, r.chunks]).sort()).toEqual([
      ['rev_elsewhere', 2],
      ['rev_upload', 2],
    ]);
    expect(before.consistent).toBe(false);

    const report = await recoverInterruptedRevisions({ ...deps, log: silentLogger() }, { jobs, dataDir });
    expect(report).toMatchObject({
      requeued: [{ source: 'RECOVERY_PLAN', revision_id: 'rev_upload' }],
      failed: [{ source: 'RECOVERY_PLAN', revision_id: 'rev_elsewhere' }],
      removed_chunks: 4,
      left_to_jobs: 1,
    });
    const requeued = await jobs.getJob(report.requeued[0]?.job_id ?? '');
    expect(requeued).toMatchObject({
      status: 'queued',
      payload: {
        source: 'RECOVERY_PLAN',
        revision_id: 'rev_upload',
        file: { kind: 'data_dir', path: 'uploads/policies/RECOVERY_PLAN/upload-1/plan.pdf' },
        reindex: true,
      },
    });
    const failed = await deps.registry.getRevision('RECOVERY_PLAN', 'rev_elsewhere');
    expect(failed).toMatchObject({ status: 'failed', chunk_count: 0 });
    expect(failed?.error).toMatch(/^interrupted: /);
    const count = (id: string) => deps.store.count(deps.collection, revisionFilter('RECOVERY_PLAN', id));
    expect([await count('rev_upload'), await count('rev_elsewhere'), await count('rev_live')]).toEqual([0, 0, 2]);
    expect(await deps.registry.getRevision('RECOVERY_PLAN', 'rev_live')).toMatchObject({ status: 'processing' });

    // Run again (a second start): everything left is owned by a job; nothing changes.
    const again = await recoverInterruptedRevisions({ ...deps, log: silentLogger() }, { jobs, dataDir });
    expect(again).toEqual({ requeued: [], failed: [], removed_chunks: 0, left_to_jobs: 2 });
    expect((await jobs.listUnfinished()).total).toBe(2);
    const after = await checkPolicyConsistency(deps, { live: await liveIngestRevisions(jobs) });
    expect(after).toMatchObject({ stuck_revisions: [], orphan_chunks: 0, count_mismatches: [], consistent: true });
  }, 60_000);
});
