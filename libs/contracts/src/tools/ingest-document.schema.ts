// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { ProjectIdSchema } from '../project-id.schema.js';
import { IdField, PathField } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import { ExtractionMethodSchema } from '../conversion.schema.js';

export const DocumentTypeSchema = z.enum([
  'transport_assessment',
  'design_access_statement',
  'site_plan',
  'floor_plan',
  'elevation',
  'planning_statement',
  'environmental_statement',
  'noise_assessment',
  'flood_risk_assessment',
  'ecology_report',
  'heritage_statement',
  'arboricultural_report',
  'other',
]);
export type DocumentType = z.infer<typeof DocumentTypeSchema>;

/** Optional project selector shared by spec 000's tools (default: `DOCUMENT_STORE_PROJECT`). */
export const OptionalProjectField = ProjectIdSchema.optional().describe(
  'Project to work in (default: the server\'s DOCUMENT_STORE_PROJECT, "application_docs").',
);

export const IngestDocumentInput = z.object({
  file_path: PathField.describe('Absolute path to the document file on disk (inside an allowed root).'),
  application_ref: IdField.describe('Planning application reference (e.g. "25/01178/REM").'),
  document_type: IdField.optional().describe(
    'Document type override (e.g. "transport_assessment"). Auto-classified from filename/content if omitted.',
  ),
  project: OptionalProjectField,
});

export const IngestDocumentOutput = z.object({
  status: z.enum(['success', 'already_ingested', 'skipped']),
  document_id: z.string().optional(),
  chunks_created: z.number().int().nonnegative().optional(),
  extraction_method: ExtractionMethodSchema.optional(),
  contains_drawings: z.boolean().optional(),
  total_chars: z.number().int().nonnegative().optional(),
  total_words: z.number().int().nonnegative().optional(),
  message: z.string().optional(),
  reason: z.literal('image_based').optional(),
  image_ratio: z.number().min(0).max(1).optional(),
  total_pages: z.number().int().nonnegative().optional(),
});

export const ingestDocumentTool = defineTool({
  name: 'ingest_document',
  title: 'Ingest document',
  description:
    'Ingest a document (PDF or image) into the document store: validate, hash, classify, extract text ' +
    '(text layer, OCR fallback for scanned pages), chunk, embed and store. Idempotent: the same file for the ' +
    'same application returns "already_ingested". Image-based documents (drawings, plans) are "skipped".',
  input: IngestDocumentInput,
  output: IngestDocumentOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  errorCodes: [
    'file_not_found',
    'unsupported_file_type',
    'extraction_failed',
    'conversion_failed',
    'no_content',
    'no_chunks',
    'forbidden_path',
    'timeout',
    'invalid_arguments',
  ],
});
