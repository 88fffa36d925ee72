import { resolve } from 'node:path';
import type { PolicyIngestJobPayload, PolicyIngestJobResult } from '@lectern/contracts';
import { resolveDataPath } from '@lectern/conversion-job';
import type { JobHandler } from '@lectern/queue';
import type { PolicyKbDeps } from './deps.js';
import { ingestPolicyRevision } from './ingest-policy-revision.js';

/** Where the admin API keeps uploaded revision files (kept: a reindex reads them again). */
export const policyUploadsDir = (dataDir: string): string => resolve(dataDir, 'uploads', 'policies');

/**
 * The `policy-ingest` worker: the uploaded file (inside DATA_DIR) through `ingest_policy_revision`'s use case, so
 * the revision moves `processing` -> `active`/`failed` as the job runs; progress is the job's progress.
 */
export const createPolicyIngestProcessor =
  (deps: PolicyKbDeps, dataDir: string): JobHandler<PolicyIngestJobPayload, PolicyIngestJobResult> =>
  async (payload, ctx) => {
    const path = await resolveDataPath(dataDir, payload.file.path);
    // One log line per stage (converting, <conversion stage>, embedded, storing): an operator, or a test killing
    // the process mid-ingest, sees how far a job got without a line per page.
    const logged = new Set<string>();
    const result = await ingestPolicyRevision(
      { ...deps, roots: [...deps.roots, policyUploadsDir(dataDir)] },
      { source: payload.source, revision_id: payload.revision_id, file_path: path, reindex: payload.reindex },
      {
        progress: (done, total, message) => {
          const stage = message.split(' ')[0] ?? message;
          if (!logged.has(stage)) {
            logged.add(stage);
            deps.log.info(
              { source: payload.source, revision_id: payload.revision_id, job_id: ctx.jobId, stage },
              `policy ingest: ${stage}`,
            );
          }
          return ctx.progress(total ? Math.min(100, (100 * done) / total) : 0, { stage: message });
        },
        signal: ctx.signal,
      },
    );
    return { version: 1, result };
  };
