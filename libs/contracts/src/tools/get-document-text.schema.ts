// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { DocumentIdField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import { OptionalProjectField } from './ingest-document.schema.js';

/** The most characters one answer carries when `max_chars` is given (about 25k tokens). */
export const GET_DOCUMENT_TEXT_MAX_CHARS = 100_000;

export const GetDocumentTextInput = z.object({
  document_id: DocumentIdField.describe('Document ID (e.g. "25_01178_REM_a1b2c3").'),
  project: OptionalProjectField,
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Character offset to start at (default 0); pass the previous answer's `next_offset` to continue."),
  max_chars: z
    .number()
    .int()
    .min(1)
    .max(GET_DOCUMENT_TEXT_MAX_CHARS)
    .optional()
    .describe(`At most this many characters of text (default: all of it; at most ${GET_DOCUMENT_TEXT_MAX_CHARS}).`),
  page_from: z.number().int().min(1).optional().describe('Only the text of chunks on this page or later (1-based).'),
  page_to: z.number().int().min(1).optional().describe('Only the text of chunks on this page or earlier (1-based).'),
});

export const GetDocumentTextOutput = z.object({
  status: z.literal('success'),
  document_id: z.string(),
  file_path: z.string(),
  document_type: z.string(),
  chunk_count: z.number().int().nonnegative(),
  text: z.string(),
  total_chars: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Characters in the whole text (of the page range, if one was asked for).'),
  offset: z.number().int().nonnegative().optional().describe('Where `text` starts in the whole text.'),
  next_offset: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Pass as `offset` to read on; absent when `text` reaches the end.'),
  remaining_chars: z.number().int().nonnegative().optional().describe("Characters after this answer's `text`."),
});

export const getDocumentTextTool = defineTool({
  name: 'get_document_text',
  title: 'Get document text',
  description:
    'Return the full text of an ingested document, reassembled from its chunks in order with the ' +
    'overlap between consecutive chunks removed. Long documents: pass `max_chars` (and then `offset` = the ' +
    "answer's `next_offset`) to read in parts; `total_chars` and `remaining_chars` say how much there is; " +
    '`page_from`/`page_to` limit the text to a page range.',
  input: GetDocumentTextInput,
  output: GetDocumentTextOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: ['document_not_found', 'no_chunks', 'invalid_arguments'],
});
