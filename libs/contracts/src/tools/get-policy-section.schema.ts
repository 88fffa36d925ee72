// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { IdField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import { RevisionIdSchema, SourceSlugSchema } from './policy-common.schema.js';

export const GetPolicySectionInput = z.object({
  source: SourceSlugSchema,
  section_ref: IdField.describe('Section reference, e.g. "Chapter 5", "Table 5-2", "Para 116".'),
  revision_id: RevisionIdSchema.nullable().optional().describe('Specific revision; default: the latest effective one.'),
});

export const GetPolicySectionOutput = z.object({
  status: z.literal('success'),
  source: z.string(),
  section_ref: z.string(),
  revision_id: z.string(),
  version_label: z.string(),
  text: z.string(),
  page_numbers: z.array(z.number().int()),
});

export const getPolicySectionTool = defineTool({
  name: 'get_policy_section',
  title: 'Get policy section',
  description:
    'Return the text of one section of a policy (e.g. "Para 116" of the NPPF), from a given revision or the ' +
    'latest effective one, with its sorted page numbers.',
  input: GetPolicySectionInput,
  output: GetPolicySectionOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: [
    'section_not_found',
    'policy_not_found',
    'revision_not_found',
    'invalid_arguments',
    'registry_unavailable',
  ],
});
