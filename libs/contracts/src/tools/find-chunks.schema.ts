// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { QueryField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import {
  ProjectErrorCodes,
  ProjectIdField,
  RetrievalFiltersSchema,
  RetrievalResultSchema,
} from './project-chunks.schema.js';

export const FindChunksInput = z.object({
  project: ProjectIdField,
  query: QueryField.describe('Natural language query.'),
  top_k: z.number().int().min(1).max(50).default(6).describe('Maximum results (default 6).'),
  filters: RetrievalFiltersSchema.optional(),
  max_chars: z.number().int().min(50).max(20_000).optional().describe('Trim each chunk to this many characters.'),
});

export const FindChunksOutput = z.object({
  status: z.literal('success'),
  project: z.string(),
  query: z.string(),
  results_count: z.number().int().nonnegative(),
  results: z.array(RetrievalResultSchema),
  message: z.string().optional(),
});

export const findChunksTool = defineTool({
  name: 'find_chunks',
  title: 'Find project chunks',
  description:
    'Semantic search within one project. Returns up to top_k chunks (default 6) with trimmed text, citation ' +
    'metadata, page span and section path. Results never come from another project.',
  input: FindChunksInput,
  output: FindChunksOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: [...ProjectErrorCodes, 'invalid_arguments'],
});
