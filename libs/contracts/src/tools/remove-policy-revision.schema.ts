// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { defineTool } from '../tool-definition.js';
import { RevisionIdSchema, SourceSlugSchema } from './policy-common.schema.js';

export const RemovePolicyRevisionInput = z.object({ source: SourceSlugSchema, revision_id: RevisionIdSchema });

export const RemovePolicyRevisionOutput = z.object({
  status: z.literal('success'),
  source: z.string(),
  revision_id: z.string(),
  chunks_removed: z.number().int().nonnegative(),
});

export const removePolicyRevisionTool = defineTool({
  name: 'remove_policy_revision',
  title: 'Remove policy revision chunks',
  description:
    'Remove all stored chunks of a policy revision (0 when there are none). The policy registry is not modified ' +
    '(the entry keeps its chunk_count; re-ingest to restore the chunks); registry deletion is an admin REST ' +
    'operation. A revision that is neither registered nor stored is revision_not_found.',
  input: RemovePolicyRevisionInput,
  output: RemovePolicyRevisionOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  errorCodes: ['invalid_arguments', 'revision_not_found', 'registry_unavailable'],
});
