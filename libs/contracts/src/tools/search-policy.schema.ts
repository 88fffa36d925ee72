// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { InputBounds, QueryField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import { IsoDateString, SourceSlugSchema } from './policy-common.schema.js';

export const SearchPolicyInput = z.object({
  query: QueryField.describe('Natural language search query.'),
  sources: z
    .array(SourceSlugSchema)
    .min(1)
    .max(InputBounds.listItems)
    .nullable()
    .optional()
    .describe('Only these policy sources.'),
  effective_date: IsoDateString.nullable()
    .optional()
    .describe('Only chunks of revisions in force on this date (YYYY-MM-DD, both bounds inclusive).'),
  n_results: z.number().int().min(1).max(100).default(10).describe('Maximum number of results (default 10).'),
  queries: z
    .array(QueryField)
    .min(1)
    .max(20)
    .optional()
    .describe(
      'Batch search: more queries answered in the same call, with the same filters (results per query in `batch`).',
    ),
});

export const PolicySearchResultSchema = z.object({
  chunk_id: z.string(),
  text: z.string(),
  relevance_score: z.number().describe('Cosine similarity of chunk and query (spec 001: max(0, 1 - L2/2)), 0-1.'),
  rank_score: z
    .number()
    .describe(
      'The score the results are ordered by, highest first: the fused keyword (BM25) + semantic score of the hybrid ' +
        'search (a weighted sum of z-scores, may be negative).',
    ),
  source: z.string(),
  revision_id: z.string(),
  version_label: z.string(),
  section_ref: z.string(),
  page_number: z.number().int(),
});

export const SearchPolicyOutput = z.object({
  status: z.literal('success'),
  query: z.string(),
  effective_date: z.string().nullable(),
  results_count: z.number().int().nonnegative(),
  results: z.array(PolicySearchResultSchema),
  /** Present when `queries` was given: one answer per query, in order. */
  batch: z
    .array(
      z.object({
        query: z.string(),
        results_count: z.number().int().nonnegative(),
        results: z.array(PolicySearchResultSchema),
      }),
    )
    .optional(),
});

export const searchPolicyTool = defineTool({
  name: 'search_policy',
  title: 'Search policy',
  description:
    'Semantic search across policy document chunks, optionally restricted to sources and to the revisions in ' +
    'force on effective_date ("as in force on date X"). Hybrid retrieval (keywords and meaning): results are ' +
    'ordered by rank_score, the fused score, highest first; relevance_score is the cosine similarity (0-1) and need ' +
    'not decrease down the list.',
  input: SearchPolicyInput,
  output: SearchPolicyOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: ['invalid_date', 'invalid_arguments', 'registry_unavailable'],
});
