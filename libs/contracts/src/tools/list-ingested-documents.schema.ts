// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { IdField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import { ExtractionMethodSchema } from '../conversion.schema.js';
import { OptionalProjectField } from './ingest-document.schema.js';
import { CursorField, NextCursorField, pageLimitField } from './paging.schema.js';

export const LIST_DOCUMENTS_PAGE = { default: 200, max: 1000 } as const;

export const ListIngestedDocumentsInput = z.object({
  application_ref: IdField.describe('Application reference to list documents for (e.g. "25/01178/REM").'),
  project: OptionalProjectField,
  cursor: CursorField.optional(),
  limit: pageLimitField(LIST_DOCUMENTS_PAGE.default, LIST_DOCUMENTS_PAGE.max),
});

export const RegisteredDocumentSchema = z.object({
  document_id: z.string(),
  file_path: z.string(),
  document_type: z.string(),
  chunk_count: z.number().int().nonnegative(),
  ingested_at: z.string().describe('ISO-8601 with offset, e.g. "2026-02-14T10:30:00+00:00".'),
  extraction_method: ExtractionMethodSchema,
  contains_drawings: z.boolean(),
});

export const ListIngestedDocumentsOutput = z.object({
  status: z.literal('success'),
  application_ref: z.string(),
  document_count: z.number().int().nonnegative().describe('Documents of the application in all (not only this page).'),
  documents: z.array(RegisteredDocumentSchema),
  next_cursor: NextCursorField,
});

export const listIngestedDocumentsTool = defineTool({
  name: 'list_ingested_documents',
  title: 'List ingested documents',
  description:
    'List every document ingested for a planning application reference (empty list when there are none), ' +
    'ordered by document_id, in pages: when `next_cursor` is present, pass it as `cursor` for the next page.',
  input: ListIngestedDocumentsInput,
  output: ListIngestedDocumentsOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: ['invalid_arguments'],
});
