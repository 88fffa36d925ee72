// SPDX-License-Identifier: AGPL-3.0-or-later
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import type { PolicyIngestJobPayload, PolicyIngestJobResult, PolicyRevision } from '@lectern/contracts';
import { isInside } from '@lectern/documents';
import type { PolicyRegistry } from '@lectern/policy-registry';
import type { JobQueue } from '@lectern/queue';
import type { Logger } from '@lectern/runtime';
import type { PolicyStoreDeps } from './deps.js';
import { PolicyUploads } from './policy-uploads.js';
import { deleteRevisionChunks } from './revision-chunks.js';

export type PolicyIngestJobs = Pick<JobQueue<PolicyIngestJobPayload, PolicyIngestJobResult>, 'add' | 'listUnfinished'>;

const PAGE = 200;

export const revisionKey = (source: string, revisionId: string): string => `${source}\u0000${revisionId}`;

/**
 * The revisions a queued or running `policy-ingest` job owns, read page by page. Distributed, a job whose worker
 * was killed stays `active` until its lock expires and BullMQ's stall handling re-queues it: it counts as live.
 */
export const liveIngestRevisions = async (jobs: Pick<PolicyIngestJobs, 'listUnfinished'>): Promise<Set<string>> => {
  const live = new Set<string>();
  for (let offset = 0; ; offset += PAGE) {
    const page = await jobs.listUnfinished({ offset, limit: PAGE });
    for (const job of page.jobs) live.add(revisionKey(job.payload.source, job.payload.revision_id));
    if (page.jobs.length < PAGE || offset + PAGE >= page.total) return live;
  }
};

/** Revisions left `processing` that no live job is working on (`live`: `liveIngestRevisions`), policy by policy. */
export const findStuckRevisions = async (
  registry: Pick<PolicyRegistry, 'listPolicies' | 'listRevisions'>,
  live: ReadonlySet<string>,
): Promise<PolicyRevision[]> => {
  const stuck: PolicyRevision[] = [];
  for (const policy of await registry.listPolicies())
    for (const r of await registry.listRevisions(policy.source))
      if (r.status === 'processing' && !live.has(revisionKey(r.source, r.revision_id))) stuck.push(r);
  return stuck;
};

export interface PolicyRecoveryReport {
  /** Re-ingested from their uploaded file: a new `policy-ingest` job each. */
  requeued: Array<{ source: string; revision_id: string; job_id: string }>;
  /** No uploaded file to ingest again: marked `failed` with an `interrupted: …` reason. */
  failed: Array<{ source: string; revision_id: string; error: string }>;
  /** Partial chunks of those revisions removed. */
  removed_chunks: number;
  /** `processing` revisions a live job owns (left to it). */
  left_to_jobs: number;
}

const isFile = async (path: string): Promise<boolean> =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * Start-up recovery of the policy KB (issue 24): a revision left `processing` by a process that died mid-ingest
 * (`kill -9`, power loss) with no queued or running job to finish it. Its partial chunks are removed; when its
 * uploaded file is still under `DATA_DIR/uploads/policies/` it is queued again on `policy-ingest` (the same use case
 * then takes it to `active`, as a clean ingest would), else it is marked `failed` with the reason. Revisions a live
 * job owns are left alone (distributed: BullMQ's stall handling re-queues a killed worker's job). Idempotent: a
 * second run finds nothing stuck (or only what the first queued, now owned by its job).
 */
export const recoverInterruptedRevisions = async (
  deps: PolicyStoreDeps & { log: Logger },
  o: { jobs: PolicyIngestJobs; dataDir: string; uploads?: PolicyUploads },
): Promise<PolicyRecoveryReport> => {
  const report: PolicyRecoveryReport = { requeued: [], failed: [], removed_chunks: 0, left_to_jobs: 0 };
  const processing = await findStuckRevisions(deps.registry, new Set());
  if (processing.length === 0) return report;
  // The jobs are read after the registry: a revision uploaded meanwhile (entry first, then its job) is not stuck.
  const live = await liveIngestRevisions(o.jobs);
  const uploads = o.uploads ?? new PolicyUploads({ dataDir: o.dataDir });
  for (const candidate of processing) {
    const { source, revision_id: revisionId } = candidate;
    if (live.has(revisionKey(source, revisionId))) {
      report.left_to_jobs += 1;
      continue;
    }
    const current = await deps.registry.getRevision(source, revisionId);
    if (current?.status !== 'processing') continue; // finished or deleted meanwhile
    report.removed_chunks += await deleteRevisionChunks(deps, source, revisionId);
    const file = current.file_path;
    // the upload under this DATA_DIR, or (distributed) fetched from the blob store
    const local = file ? await uploads.localPath(file) : undefined;
    if (local && isInside(local, uploads.dir) && (await isFile(local))) {
      const jobId = `policy-ingest-recovered-${randomUUID()}`;
      await o.jobs.add(
        {
          version: 1,
          source,
          revision_id: revisionId,
          file: { kind: 'data_dir', path: relative(o.dataDir, local) },
          reindex: true,
        },
        { jobId },
      );
      report.requeued.push({ source, revision_id: revisionId, job_id: jobId });
      deps.log.warn(
        { source, revision_id: revisionId, job_id: jobId },
        'interrupted policy revision ingest queued again',
      );
    } else {
      const error = file
        ? 'interrupted: the service stopped during the ingest and the file is not an upload kept under DATA_DIR; ingest it again'
        : 'interrupted: the service stopped during the ingest; ingest it again';
      await deps.registry.updateRevision(source, revisionId, { status: 'failed', error, chunk_count: 0 });
      report.failed.push({ source, revision_id: revisionId, error });
      deps.log.warn({ source, revision_id: revisionId, reason: error }, 'interrupted policy revision marked failed');
    }
  }
  deps.log.info(
    {
      requeued: report.requeued.length,
      failed: report.failed.length,
      removed_chunks: report.removed_chunks,
      left_to_jobs: report.left_to_jobs,
    },
    'policy KB recovery at start done',
  );
  return report;
};
