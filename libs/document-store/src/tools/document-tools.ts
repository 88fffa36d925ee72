// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  deleteDocumentTool,
  getDocumentTextTool,
  ingestDocumentTool,
  listIngestedDocumentsTool,
  searchApplicationDocsTool,
} from '@lectern/contracts';
import { deleteDocument } from '../delete-document.js';
import type { DocumentStoreDeps } from '../deps.js';
import { getDocumentText } from '../get-document-text.js';
import { ingestDocument } from '../ingest-document.js';
import { listIngestedDocuments } from '../list-documents.js';
import { searchDocuments } from '../search-documents.js';
import { bindTool, type ToolRegistration } from '@lectern/transport';

/** Spec 000's four tools and delete_document: parse (done by the transport), call the use case, return. */
export const documentTools = (deps: DocumentStoreDeps): ToolRegistration[] => [
  bindTool(ingestDocumentTool, (input, ctx) =>
    ingestDocument(deps, input, { progress: (...p) => ctx.progress(...p), signal: ctx.signal }),
  ),
  bindTool(searchApplicationDocsTool, (input) => searchDocuments(deps, input)),
  bindTool(getDocumentTextTool, (input) => getDocumentText(deps, input)),
  bindTool(listIngestedDocumentsTool, (input) => listIngestedDocuments(deps, input)),
  bindTool(deleteDocumentTool, (input) => deleteDocument(deps, input)),
];
