// SPDX-License-Identifier: AGPL-3.0-or-later
import { basename } from 'node:path';
import { AppError, GetDocumentTextInput } from '@lectern/contracts';
import { RESOURCE_TEXT_MAX_CHARS, matchResourceUri, textResource, type McpResourceProvider } from '@lectern/transport';
import type { StoreDeps } from './deps.js';
import { getDocumentText } from './get-document-text.js';
import { pageAfter } from './list-cursor.js';
import { VectorStoreDocumentRegistry } from './registry.js';

export const DOCUMENT_URI_TEMPLATE = 'lectern://documents/{document_id}';
/** Documents per `resources/list` page. */
export const DOCUMENT_RESOURCES_PAGE = 100;

const documentUri = (id: string) => `lectern://documents/${encodeURIComponent(id)}`;

/**
 * The documents of the default project (`DOCUMENT_STORE_PROJECT`) as MCP resources (issue 30):
 * `lectern://documents/{document_id}`, listed by document_id a page at a time, read as two contents — the
 * registry metadata (JSON) and the text (`get_document_text`'s, at most `RESOURCE_TEXT_MAX_CHARS` characters, a
 * marker naming the rest and how to read it when cut).
 */
export const documentResources = (
  deps: StoreDeps,
  options: { maxChars?: number; pageSize?: number } = {},
): McpResourceProvider => ({
  templates: [
    {
      uriTemplate: DOCUMENT_URI_TEMPLATE,
      name: 'document',
      title: 'Ingested document',
      description:
        'An ingested document: its registry metadata (application/json) and its text (text/plain, at most ' +
        `${RESOURCE_TEXT_MAX_CHARS} characters; get_document_text reads on).`,
      mimeType: 'text/plain',
    },
  ],
  list: async (cursor) => {
    const entries = await new VectorStoreDocumentRegistry(deps.store, deps.defaultProject).listAll();
    entries.sort((a, b) => (a.document_id < b.document_id ? -1 : a.document_id > b.document_id ? 1 : 0));
    const { page, next_cursor } = pageAfter(entries, (e) => e.document_id, ['resources/list', deps.defaultProject], {
      cursor,
      limit: options.pageSize ?? DOCUMENT_RESOURCES_PAGE,
    });
    return {
      resources: page.map((e) => ({
        uri: documentUri(e.document_id),
        name: e.document_id,
        title: basename(e.file_path),
        description: `${e.application_ref}: ${e.document_type}, ${e.chunk_count} chunks`,
        mimeType: 'text/plain',
      })),
      nextCursor: next_cursor,
    };
  },
  read: async (uri) => {
    const { vars } = matchResourceUri([DOCUMENT_URI_TEMPLATE], uri);
    const id = GetDocumentTextInput.shape.document_id.safeParse(vars['document_id']);
    if (!id.success) throw new AppError('invalid_arguments', `Not a document id: ${uri.slice(0, 200)}`);
    const registry = new VectorStoreDocumentRegistry(deps.store, deps.defaultProject);
    const entry = await registry.get(id.data);
    if (!entry) throw new AppError('document_not_found', `Document not found: ${id.data}`);
    const text = await getDocumentText(deps, {
      document_id: id.data,
      max_chars: options.maxChars ?? RESOURCE_TEXT_MAX_CHARS,
    });
    const remaining = text.remaining_chars ?? 0;
    const metadata = {
      document_id: entry.document_id,
      application_ref: entry.application_ref,
      file_path: entry.file_path,
      document_type: entry.document_type,
      chunk_count: entry.chunk_count,
      page_count: entry.page_count,
      ingested_at: entry.ingested_at,
      extraction_method: entry.extraction_method,
      contains_drawings: entry.contains_drawings,
      total_chars: text.total_chars ?? text.text.length,
      truncated: remaining > 0,
    };
    return textResource(
      uri,
      metadata,
      text.text,
      remaining,
      () => `call get_document_text with document_id "${id.data}", offset ${text.next_offset ?? 0}`,
    );
  },
});
