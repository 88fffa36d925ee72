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
    const result = await ingestPolicyRevision(
      { ...deps, roots: [...deps.roots, policyUploadsDir(dataDir)] },
      { source: payload.source, revision_id: payload.revision_id, file_path: path, reindex: payload.reindex },
      {
        progress: (done, total, message) =>
          ctx.progress(total ? Math.min(100, (100 * done) / total) : 0, { stage: message }),
        signal: ctx.signal,
      },
    );
    return { version: 1, result };
  };
