// SPDX-License-Identifier: AGPL-3.0-or-later
import type { z } from 'zod';
import { IngestDocumentInput, IngestDocumentOutput } from '../tools/ingest-document.schema.js';

/**
 * `POST /api/documents` on document-store-mcp: the document in the multipart field `file`, and spec 000's
 * `ingest_document` arguments (all but `file_path`) as text fields. The answer is the tool's result.
 */
export const IngestUploadFieldsSchema = IngestDocumentInput.omit({ file_path: true }).strict();
export type IngestUploadFields = z.infer<typeof IngestUploadFieldsSchema>;

export const IngestUploadResultSchema = IngestDocumentOutput;
export type IngestUploadResult = z.infer<typeof IngestUploadResultSchema>;
