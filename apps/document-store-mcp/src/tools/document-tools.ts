import {
  deleteDocumentTool,
  getDocumentTextTool,
  ingestDocumentTool,
  listIngestedDocumentsTool,
  searchApplicationDocsTool,
} from '@lectern/contracts';
import {
  deleteDocument,
  getDocumentText,
  ingestDocument,
  listIngestedDocuments,
  searchDocuments,
  type DocumentStoreDeps,
} from '@lectern/document-store';
import { bindTool, type ToolRegistration } from '@lectern/transport';

/** Spec 000's four tools and delete_document: parse (done by the transport), call the use case, return. */
export const documentTools = (deps: DocumentStoreDeps): ToolRegistration[] => [
  bindTool(ingestDocumentTool, (input, ctx) =>
    ingestDocument(deps, input, (progress, total, message) => ctx.progress(progress, total, message)),
  ),
  bindTool(searchApplicationDocsTool, (input) => searchDocuments(deps, input)),
  bindTool(getDocumentTextTool, (input) => getDocumentText(deps, input)),
  bindTool(listIngestedDocumentsTool, (input) => listIngestedDocuments(deps, input)),
  bindTool(deleteDocumentTool, (input) => deleteDocument(deps, input)),
];
