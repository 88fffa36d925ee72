// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { defineTool } from '../tool-definition.js';
import { PolicyCategorySchema } from './policy-common.schema.js';

export const ListPolicyDocumentsInput = z.object({});

export const ListPolicyDocumentsOutput = z.object({
  status: z.literal('success'),
  policy_count: z.number().int().nonnegative(),
  policies: z.array(z.object({ source: z.string(), title: z.string(), category: PolicyCategorySchema })),
});

export const listPolicyDocumentsTool = defineTool({
  name: 'list_policy_documents',
  title: 'List policy documents',
  description: 'List every registered policy document with its source slug, title and category.',
  input: ListPolicyDocumentsInput,
  output: ListPolicyDocumentsOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: ['registry_unavailable'],
});
