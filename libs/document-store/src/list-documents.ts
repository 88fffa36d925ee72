// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  LIST_DOCUMENTS_PAGE,
  type ListIngestedDocumentsInput,
  type ListIngestedDocumentsOutput,
} from '@lectern/contracts';
import type { z } from 'zod';
import type { StoreDeps } from './deps.js';
import { pageAfter } from './list-cursor.js';
import { VectorStoreDocumentRegistry } from './registry.js';

/**
 * Spec 000 FR-004: the registry entries of one application (empty list when there are none), by document_id,
 * a page at a time (`limit`, default 200; `next_cursor` while more remain; `document_count` counts them all).
 */
export const listIngestedDocuments = async (
  deps: StoreDeps,
  input: z.input<typeof ListIngestedDocumentsInput>,
): Promise<z.infer<typeof ListIngestedDocumentsOutput>> => {
  const project = input.project ?? deps.defaultProject;
  const entries = await new VectorStoreDocumentRegistry(deps.store, project).listByApplication(input.application_ref);
  const { page, next_cursor } = pageAfter(
    entries,
    (e) => e.document_id,
    ['list_ingested_documents', project, input.application_ref],
    {
      cursor: input.cursor,
      limit: input.limit ?? LIST_DOCUMENTS_PAGE.default,
    },
  );
  return {
    status: 'success' as const,
    application_ref: input.application_ref,
    document_count: entries.length,
    ...(next_cursor ? { next_cursor } : {}),
    documents: page.map((e) => ({
      document_id: e.document_id,
      file_path: e.file_path,
      document_type: e.document_type,
      chunk_count: e.chunk_count,
      ingested_at: e.ingested_at,
      extraction_method: e.extraction_method,
      contains_drawings: e.contains_drawings,
    })),
  };
};
