// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { PolicyRevisionSchema, PolicySchema } from '../policy-registry.schema.js';
import { InputBounds } from '../tools/input-bounds.schema.js';
import { IsoDateString, RevisionIdSchema } from '../tools/policy-common.schema.js';

/**
 * policy-kb-mcp's admin REST API (under `/api`, the MCP server's port and token): policies and revisions in
 * the registry, revision files uploaded and ingested through the `policy-ingest` queue. The spec 001 "policy
 * knowledge base" REST routes, with Lectern's error shape (`{"error":{"code","message"}}`).
 */

/** `POST /api/policies/{source}/revisions` multipart text fields (with the `file`). */
export const PolicyRevisionUploadFieldsSchema = z.object({
  revision_id: RevisionIdSchema.optional().describe('Default: rev_{source}_{YYYY}_{MM} of effective_from.'),
  version_label: z.string().min(1).max(InputBounds.textChars).describe('Human-readable version, e.g. "December 2024".'),
  effective_from: IsoDateString.describe('First day in force, YYYY-MM-DD.'),
  effective_to: IsoDateString.optional().describe('Last day in force (inclusive); omit for open-ended.'),
  notes: z.string().max(InputBounds.textChars).optional(),
});
export type PolicyRevisionUploadFields = z.infer<typeof PolicyRevisionUploadFieldsSchema>;

export const PolicyListResponseSchema = z.object({ policies: z.array(PolicySchema) });
export const PolicyDetailResponseSchema = PolicySchema.extend({ revisions: z.array(PolicyRevisionSchema) });
export const RevisionListResponseSchema = z.object({ source: z.string(), revisions: z.array(PolicyRevisionSchema) });
/** 202: the revision as registered (`processing`) and the ingest job that moves it on. */
export const RevisionAcceptedResponseSchema = z.object({ revision: PolicyRevisionSchema, job_id: z.string() });
export const RevisionDeletedResponseSchema = z.object({
  revision: PolicyRevisionSchema,
  chunks_removed: z.number().int().nonnegative(),
});

/** `rev_{source}_{YYYY}_{MM}` from a `YYYY-MM-DD` day (the admin API's default revision id). */
export const defaultRevisionId = (source: string, effectiveFrom: string): string =>
  `rev_${source}_${effectiveFrom.slice(0, 4)}_${effectiveFrom.slice(5, 7)}`;
