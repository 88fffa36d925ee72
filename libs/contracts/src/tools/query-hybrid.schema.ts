// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { QueryField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import { FindChunksOutput } from './find-chunks.schema.js';
import { ProjectErrorCodes, ProjectIdField, RetrievalFiltersSchema } from './project-chunks.schema.js';

export const QueryHybridInput = z.object({
  project: ProjectIdField,
  query: QueryField,
  top_k: z.number().int().min(1).max(50).default(6),
  filters: RetrievalFiltersSchema.optional(),
  max_chars: z.number().int().min(50).max(20_000).optional(),
  dense_weight: z.number().min(0).max(10).optional().describe('Weight of the dense ranking in the fusion.'),
  keyword_weight: z.number().min(0).max(10).optional().describe('Weight of the keyword (BM25) ranking in the fusion.'),
});

export const QueryHybridOutput = FindChunksOutput;

export const queryHybridTool = defineTool({
  name: 'query_hybrid',
  title: 'Hybrid query',
  description:
    'Hybrid search within one project: BM25 keyword scores and dense (cosine) scores fused at query time by the ' +
    "store's measured default (a weighted sum of z-scores, with the store's measured weights unless dense_weight/keyword_weight " +
    'say otherwise). Results are ordered by the fused score, which is `score`; each carries both component ranks. ' +
    'HYBRID_NOT_SUPPORTED when the project has no full-text index.',
  input: QueryHybridInput,
  output: QueryHybridOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: [...ProjectErrorCodes, 'invalid_arguments'],
});
