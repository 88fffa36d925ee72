// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { QueryField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import { ChunkKindSchema, DocSearchModeSchema, IndexIdField, LocatorSchema } from './doc-common.schema.js';

/** Characters of a chunk a search hit shows (spec 003: a 200-char snippet). */
export const DOC_SNIPPET_CHARS = 200;

export const DocSearchInput = z.object({
  index_id: IndexIdField,
  query: QueryField.describe('What to look for, e.g. "max DC voltage".'),
  top_k: z.number().int().min(1).max(50).default(5).describe('Maximum hits (default 5).'),
  scope: z.enum(['text', 'tables', 'all']).default('all').describe('Text chunks, table chunks, or both (default).'),
  mode: DocSearchModeSchema.optional().describe(
    "Scoring: tfidf (spec 003 section 6), bm25, or hybrid (BM25 fused with embeddings). Default: the server's.",
  ),
});

export const DocSearchHitSchema = z.object({
  locator: LocatorSchema,
  kind: ChunkKindSchema,
  snippet: z
    .string()
    .describe(
      `${DOC_SNIPPET_CHARS} characters of the chunk, from shortly before the first query term it contains (else its start).`,
    ),
  score: z.number(),
  heading_path: z.string(),
});

export const DocSearchOutput = z.object({ result: z.array(DocSearchHitSchema) });

export const docSearchTool = defineTool({
  name: 'doc_search',
  title: 'Search a document index',
  description:
    'Keyword search over one indexed document. Returns up to top_k hits [{locator, kind, snippet, score}], best ' +
    'first, each with a 200-character snippet; read a hit in full with doc_read.',
  input: DocSearchInput,
  output: DocSearchOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  errorCodes: ['invalid_arguments', 'index_not_found'],
  textShape: 'result',
});
