// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { IdField, InputBounds, QueryField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import { ExtractionMethodSchema } from '../conversion.schema.js';
import { OptionalProjectField } from './ingest-document.schema.js';

export const SearchModeSchema = z.enum(['hybrid', 'semantic', 'keyword']);

export const SearchApplicationDocsInput = z.object({
  query: QueryField.describe('Natural language search query.'),
  application_ref: IdField.optional().describe('Filter results to a specific application.'),
  document_types: z
    .array(IdField)
    .min(1)
    .max(InputBounds.listItems)
    .optional()
    .describe('Filter by document types (any of).'),
  max_results: z.number().int().min(1).max(100).default(10).describe('Maximum number of results (1-100, default 10).'),
  search_mode: SearchModeSchema.optional().describe('hybrid (default: BM25 + dense, fused), semantic, or keyword.'),
  project: OptionalProjectField,
});

export const ChunkMetadataSchema = z.object({
  application_ref: z.string(),
  document_id: z.string(),
  source_file: z.string(),
  document_type: z.string(),
  page_numbers: z.string().describe('Comma-separated page numbers the chunk spans, e.g. "14,15".'),
  chunk_index: z.number().int().nonnegative(),
  total_chunks: z.number().int().nonnegative(),
  extraction_method: ExtractionMethodSchema,
  char_count: z.number().int().nonnegative(),
  word_count: z.number().int().nonnegative(),
});
export type ChunkMetadata = z.infer<typeof ChunkMetadataSchema>;

/**
 * A search result's metadata. Spec 000's chunks carry every field of `ChunkMetadataSchema`; chunks a project got
 * from spec 002's store_document_chunks or spec 004's ingest and store_chunks lack some, so a result derives what it
 * can (document id from the source file name, page numbers from the page span, counts from the text) and gives null
 * for what it cannot (application_ref, document_type, total_chunks, extraction_method).
 */
export const SearchResultMetadataSchema = ChunkMetadataSchema.extend({
  application_ref: z.string().nullable(),
  document_type: z.string().nullable(),
  total_chunks: z.number().int().nonnegative().nullable(),
  extraction_method: ExtractionMethodSchema.nullable(),
});

export const SearchApplicationDocsOutput = z.object({
  status: z.literal('success'),
  query: z.string(),
  results_count: z.number().int().nonnegative(),
  results: z.array(
    z.object({
      chunk_id: z.string(),
      text: z.string(),
      relevance_score: z.number(),
      rank_score: z
        .number()
        .describe(
          'The score the results are ordered by, highest first: in hybrid mode the fused keyword + semantic score ' +
            '(a weighted sum of z-scores, may be negative), in semantic and keyword mode equal to relevance_score.',
        ),
      metadata: SearchResultMetadataSchema,
    }),
  ),
});

export const searchApplicationDocsTool = defineTool({
  name: 'search_application_docs',
  title: 'Search application documents',
  description:
    'Search ingested document chunks by meaning (and keywords, in hybrid mode). Optional filters: ' +
    'application_ref and document_types, combined with AND. Each result carries relevance_score (the cosine ' +
    'similarity of chunk and query, 0-1; in keyword mode the keyword score relative to the best hit), page numbers ' +
    'and document metadata for citation. Results are ordered by rank_score, highest first: in hybrid mode (default) ' +
    'rank_score is the fused keyword + semantic score that decides the order (so relevance_score need not decrease ' +
    'down the list); in semantic and keyword mode rank_score equals relevance_score.',
  input: SearchApplicationDocsInput,
  output: SearchApplicationDocsOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: ['invalid_arguments', 'search_failed', 'EMBEDDING_MISMATCH', 'timeout'],
});
