// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { ProjectIdSchema } from '../project-id.schema.js';
import { IdField, InputBounds, boundedString } from './input-bounds.schema.js';

/** Spec 004 error codes (FR-012), returned as `error_type`. */
export const ProjectErrorCodes = [
  'INVALID_PROJECT',
  'EMBEDDING_MISMATCH',
  'HYBRID_NOT_SUPPORTED',
  'INDEX_UNAVAILABLE',
  'TIMEOUT',
] as const;

export const ProjectIdField = ProjectIdSchema.describe('Project identifier (one isolated collection per project).');

const citation = (text: (max: number) => z.ZodString, list: <T extends z.ZodType>(item: T) => z.ZodArray<T>) =>
  z.object({
    citekey: text(InputBounds.idChars).optional(),
    title: text(InputBounds.textChars).optional(),
    authors: list(text(InputBounds.idChars)).optional(),
    year: z.number().int().optional(),
    doi: text(InputBounds.idChars).optional(),
    url: text(InputBounds.pathChars).optional(),
    tags: list(text(InputBounds.idChars)).optional(),
    collections: list(text(InputBounds.idChars)).optional(),
  });

/** Spec 004 CitationMeta, as stored and returned. */
export const CitationMetaSchema = citation(
  () => z.string(),
  (item) => z.array(item),
);
/** Spec 004 CitationMeta as a client sends it: every string and list bounded. */
export const CitationMetaInputSchema = citation(
  (max) => z.string().max(max),
  (item) => z.array(item).max(InputBounds.listItems),
);

const idList = z.array(z.string().max(InputBounds.idChars)).max(InputBounds.listItems);

/** Spec 004 Chunk as a client supplies it to store_chunks. */
export const ProjectChunkInputSchema = z.object({
  doc_id: IdField,
  text: boundedString(InputBounds.chunkTextChars),
  chunk_index: z.number().int().nonnegative(),
  page_start: z.number().int().positive().optional(),
  page_end: z.number().int().positive().optional(),
  section_heading: z.string().max(InputBounds.textChars).optional(),
  section_path: z.array(z.string().max(InputBounds.textChars)).max(InputBounds.listItems).optional(),
  tags: idList.optional(),
  citation: CitationMetaInputSchema.optional(),
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
  tags: idList.optional(),
  doc_ids: idList.optional(),
});
