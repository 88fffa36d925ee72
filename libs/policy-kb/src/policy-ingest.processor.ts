// SPDX-License-Identifier: AGPL-3.0-or-later
import type { PolicyIngestJobPayload, PolicyIngestJobResult } from '@lectern/contracts';
import { resolveDataPath } from '@lectern/conversion-job';
import type { JobHandler } from '@lectern/queue';
import type { PolicyKbDeps } from './deps.js';
import { ingestPolicyRevision } from './ingest-policy-revision.js';
import { policyUploadsDir, PolicyUploads } from './policy-uploads.js';

/**
 * The `policy-ingest` worker: the uploaded file (inside DATA_DIR) through `ingest_policy_revision`'s use case, so
 * the revision moves `processing` -> `active`/`failed` as the job runs; progress is the job's progress.
 */
export const createPolicyIngestProcessor =
  (
    deps: PolicyKbDeps,
    dataDir: string,
    uploads: PolicyUploads = new PolicyUploads({ dataDir }),
  ): JobHandler<PolicyIngestJobPayload, PolicyIngestJobResult> =>
  async (payload, ctx) => {
    const inDataDir = await resolveDataPath(dataDir, payload.file.path);
    // distributed: the replica that received the upload may be another; the file comes from the blob store (a
    // file that is nowhere fails the ingest as a missing file does)
    const path = (await uploads.localPath(inDataDir)) ?? inDataDir;
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
