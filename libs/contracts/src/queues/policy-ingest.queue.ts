// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { IngestPolicyRevisionOutput } from '../tools/ingest-policy-revision.schema.js';
import { RevisionIdSchema, SourceSlugSchema } from '../tools/policy-common.schema.js';
import { defineQueue } from './job.schema.js';

/**
 * The `policy-ingest` queue: a policy revision's uploaded file (under the shared DATA_DIR) -> the
 * `ingest_policy_revision` result. The admin REST API produces it; the policy KB's worker runs the same use case
 * as the tool, so the revision's status (`processing` -> `active`/`failed`) follows the job.
 */
export const POLICY_INGEST_QUEUE_NAME = 'policy-ingest';

export const PolicyIngestJobPayloadSchema = z.object({
  version: z.literal(1),
  source: SourceSlugSchema,
  revision_id: RevisionIdSchema,
  file: z.object({
    kind: z.literal('data_dir'),
    path: z
      .string()
      .min(1)
      .max(1024)
      .describe('Relative to the shared DATA_DIR (e.g. "uploads/policies/NPPF/<uuid>/nppf.pdf").'),
  }),
  reindex: z.boolean().default(false),
});
export type PolicyIngestJobPayload = z.infer<typeof PolicyIngestJobPayloadSchema>;

export const PolicyIngestJobResultSchema = z.object({ version: z.literal(1), result: IngestPolicyRevisionOutput });
export type PolicyIngestJobResult = z.infer<typeof PolicyIngestJobResultSchema>;

const definition = {
  name: POLICY_INGEST_QUEUE_NAME,
  jobName: 'ingest',
  payload: PolicyIngestJobPayloadSchema,
  result: PolicyIngestJobResultSchema,
};
export const policyIngestQueue = defineQueue(definition);
