// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { IdField, QueryField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';

/** Spec 002: per-chunk document metadata (all optional; extra keys are kept). */
export const CollectionChunkMetadataSchema = z
  .object({
    file_size: z.number().optional(),
    page_count: z.number().optional(),
    creation_date: z.number().optional(),
    modification_date: z.number().optional(),
    ingestion_date: z.number().optional(),
    title: z.string().optional(),
    author: z.string().optional(),
  })
  .passthrough();

export const RetrieveDocumentChunksInput = z.object({
  query: QueryField.describe('The search query text.'),
  top_k: z.number().int().min(1).max(100).default(5).describe('Number of top results to return (default 5).'),
  collection: IdField.nullable().default(null).describe('Collection name to search. null searches all collections.'),
});

export const RetrievedChunkSchema = z.object({
  text: z.string(),
  source_filename: z.string(),
  chunk_index: z.number().int().nonnegative(),
  score: z.number().describe('Cosine similarity of chunk and query (0-1).'),
  rank_score: z
    .number()
    .describe(
      'The score the list is ordered by, highest first: the fused keyword + semantic score for a hybrid ' +
        'collection (a weighted sum of z-scores), else equal to score.',
    ),
  metadata: CollectionChunkMetadataSchema,
});

export const RetrieveDocumentChunksOutput = z.object({ result: z.array(RetrievedChunkSchema) });

export const retrieveDocumentChunksTool = defineTool({
  name: 'retrieve_document_chunks',
  title: 'Retrieve document chunks',
  description:
    'Search stored document chunks for a query by meaning and keywords (hybrid: BM25 + semantic, fused), in one ' +
    'collection or all. Returns a list of {text, source_filename, chunk_index, score, rank_score, metadata} ordered ' +
    'by rank_score, highest first (the fused score; equal to score where no fusion ran, e.g. with ' +
    'RETRIEVE_SEARCH_MODE=dense); score is the cosine similarity of chunk and query (0-1), so it need not decrease ' +
    'down the list.',
  input: RetrieveDocumentChunksInput,
  output: RetrieveDocumentChunksOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: ['invalid_arguments', 'collection_not_found', 'EMBEDDING_MISMATCH'],
  textShape: 'result',
});
