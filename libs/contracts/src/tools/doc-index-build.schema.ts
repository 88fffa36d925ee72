// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { PathField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import { CacheKeyField, DocTypeSchema, LocatorSchema } from './doc-common.schema.js';

export const DocIndexBuildInput = z.object({
  file_path: PathField.describe("Path of the document (inside the server's document roots)."),
  cache_key: CacheKeyField.nullable()
    .default(null)
    .describe(
      'null: the index is named by the SHA-256 of the file bytes (the same file is indexed once). A key: named by ' +
        'the SHA-256 of bytes and key, so a new key builds a fresh index of the same file.',
    ),
});

export const TocEntrySchema = z.object({
  locator: LocatorSchema,
  title: z.string(),
  level: z.number().int().min(1).max(6),
});

export const DocIndexBuildOutput = z.object({
  index_id: z.string().describe('SHA-256 naming the index (pass it to doc_search and doc_read).'),
  doc_fingerprint: z.string().describe('SHA-256 (hex) of the file bytes.'),
  doc_type: DocTypeSchema,
  page_count: z.number().int().nonnegative().nullable(),
  chunk_count: z.number().int().nonnegative(),
  toc: z.array(TocEntrySchema),
  notes: z.array(z.string()),
});

export const docIndexBuildTool = defineTool({
  name: 'doc_index_build',
  title: 'Build a document index',
  description:
    'Convert a document (PDF, DOCX, TXT, MD, HTML) to Markdown, chunk it by headings into text and table chunks ' +
    "(locators h{n}, h{n}-c{m}, h{n}-t{m}) and index them for search. Cached by the file's fingerprint: the same " +
    'file returns its index at once. Returns index_id, the table of contents and the chunk count.',
  input: DocIndexBuildInput,
  output: DocIndexBuildOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  errorCodes: [
    'invalid_arguments',
    'file_not_found',
    'forbidden_path',
    'unsupported_file_type',
    'too_large',
    'encrypted',
    'extraction_failed',
    'no_content',
    'conversion_failed',
    'timeout',
  ],
});
