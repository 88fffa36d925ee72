// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { DocumentIdField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import { OptionalProjectField } from './ingest-document.schema.js';

export const DeleteDocumentInput = z.object({
  document_id: DocumentIdField.describe('Document ID to delete (e.g. "25_01178_REM_a1b2c3").'),
  project: OptionalProjectField,
});

export const DeleteDocumentOutput = z.object({
  status: z.literal('success'),
  document_id: z.string(),
  chunks_deleted: z.number().int().nonnegative(),
  registry_entries_deleted: z.number().int().nonnegative(),
});

export const deleteDocumentTool = defineTool({
  name: 'delete_document',
  title: 'Delete document',
  description: 'Delete an ingested document: all its chunks and its registry entry. Returns the counts removed.',
  input: DeleteDocumentInput,
  output: DeleteDocumentOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  errorCodes: ['document_not_found', 'invalid_arguments'],
});
