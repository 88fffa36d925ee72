// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { PathField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import { RevisionIdSchema, SourceSlugSchema } from './policy-common.schema.js';

export const IngestPolicyRevisionInput = z.object({
  source: SourceSlugSchema,
  revision_id: RevisionIdSchema,
  file_path: PathField.describe('Path to the revision PDF (inside an allowed root).'),
  reindex: z.boolean().default(false).describe("Delete the revision's existing chunks first."),
});

export const IngestPolicyRevisionOutput = z.object({
  status: z.literal('success'),
  source: z.string(),
  revision_id: z.string(),
  chunks_created: z.number().int().nonnegative(),
  page_count: z.number().int().nonnegative(),
  extraction_method: z.string(),
});

export const ingestPolicyRevisionTool = defineTool({
  name: 'ingest_policy_revision',
  title: 'Ingest policy revision',
  description:
    "Extract, chunk, embed and store a registered policy revision's PDF with its effective dates, so that " +
    "temporal searches find it. With reindex, the revision's existing chunks are replaced.",
  input: IngestPolicyRevisionInput,
  output: IngestPolicyRevisionOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  errorCodes: [
    'file_not_found',
    'revision_not_found',
    'no_content',
    'extraction_failed',
    'conversion_failed',
    'forbidden_path',
    'too_large',
    'timeout',
    'invalid_arguments',
    'registry_unavailable',
  ],
});
