import { z } from 'zod';
import { IdField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import { OptionalProjectField } from './ingest-document.schema.js';

export const GetDocumentTextInput = z.object({
  document_id: IdField.describe('Document ID (e.g. "25_01178_REM_a1b2c3").'),
  project: OptionalProjectField,
});

export const GetDocumentTextOutput = z.object({
  status: z.literal('success'),
  document_id: z.string(),
  file_path: z.string(),
  document_type: z.string(),
  chunk_count: z.number().int().nonnegative(),
  text: z.string(),
});

export const getDocumentTextTool = defineTool({
  name: 'get_document_text',
  title: 'Get document text',
  description:
    'Return the full text of an ingested document, reassembled from its chunks in order with the ' +
    'overlap between consecutive chunks removed.',
  input: GetDocumentTextInput,
  output: GetDocumentTextOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: ['document_not_found', 'no_chunks', 'invalid_arguments'],
});
