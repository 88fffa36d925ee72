import { z } from 'zod';
import { ProjectIdSchema } from '../project-id.schema.js';

/** Spec 004 error codes (FR-012), returned as `error_type`. */
export const ProjectErrorCodes = [
  'INVALID_PROJECT',
  'EMBEDDING_MISMATCH',
  'HYBRID_NOT_SUPPORTED',
  'INDEX_UNAVAILABLE',
  'TIMEOUT',
] as const;

export const ProjectIdField = ProjectIdSchema.describe('Project identifier (one isolated collection per project).');

/** Spec 004 CitationMeta. */
export const CitationMetaSchema = z.object({
  citekey: z.string().optional(),
  title: z.string().optional(),
  authors: z.array(z.string()).optional(),
  year: z.number().int().optional(),
  doi: z.string().optional(),
  url: z.string().optional(),
  tags: z.array(z.string()).optional(),
  collections: z.array(z.string()).optional(),
});

/** Spec 004 Chunk as a client supplies it to store_chunks. */
export const ProjectChunkInputSchema = z.object({
  doc_id: z.string().min(1),
  text: z.string().min(1),
  chunk_index: z.number().int().nonnegative(),
  page_start: z.number().int().positive().optional(),
  page_end: z.number().int().positive().optional(),
  section_heading: z.string().optional(),
  section_path: z.array(z.string()).optional(),
  tags: z.array(z.string()).optional(),
  citation: CitationMetaSchema.optional(),
});

/** Spec 004 RetrievalResult. */
export const RetrievalResultSchema = z.object({
  chunk_id: z.string(),
  doc_id: z.string(),
  text: z.string().describe('Chunk text trimmed at a word boundary to max_chars ("..." appended when cut).'),
  score: z.number(),
  page_start: z.number().int().nullable(),
  page_end: z.number().int().nullable(),
  section_heading: z.string().nullable(),
  section_path: z.array(z.string()),
  citation: CitationMetaSchema.nullable(),
  citation_text: z.string().describe('Formatted citation, e.g. "(smith2020, pp. 3–4)".'),
  dense_rank: z.number().int().positive().nullable().optional(),
  keyword_rank: z.number().int().positive().nullable().optional(),
});

export const RetrievalFiltersSchema = z.object({
  tags: z.array(z.string()).optional(),
  doc_ids: z.array(z.string()).optional(),
});
