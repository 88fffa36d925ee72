// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { defineTool } from '../tool-definition.js';
import { RevisionStatusSchema, SourceSlugSchema } from './policy-common.schema.js';

export const ListPolicyRevisionsInput = z.object({ source: SourceSlugSchema });

export const PolicyRevisionSummarySchema = z.object({
  revision_id: z.string(),
  version_label: z.string(),
  effective_from: z.string(),
  effective_to: z.string().nullable(),
  status: RevisionStatusSchema,
  chunk_count: z.number().int().nonnegative(),
});

export const ListPolicyRevisionsOutput = z.object({
  status: z.literal('success'),
  source: z.string(),
  revision_count: z.number().int().nonnegative(),
  revisions: z.array(PolicyRevisionSummarySchema),
});

export const listPolicyRevisionsTool = defineTool({
  name: 'list_policy_revisions',
  title: 'List policy revisions',
  description:
    'List the revisions of one policy, newest effective_from first; effective_to is null for the one in force.',
  input: ListPolicyRevisionsInput,
  output: ListPolicyRevisionsOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: ['policy_not_found', 'registry_unavailable', 'invalid_arguments'],
});
