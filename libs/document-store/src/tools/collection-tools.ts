// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  isAppError,
  listCollectionsTool,
  retrieveDocumentChunksTool,
  storeDocumentChunksTool,
} from '@lectern/contracts';
import { listCollectionNames, retrieveDocumentChunks, storeDocumentChunks } from '../collection-tools.js';
import type { DocumentStoreDeps } from '../deps.js';
import { bindTool, type ToolRegistration } from '@lectern/transport';

/** Failures whose reason a client can act on (wait for space, send less): named in spec 002's failure message. */
const STORE_FAILURES = new Set(['insufficient_storage', 'timeout']);

/** Spec 002's tools; a collection is a project collection of the vector store. */
export const collectionTools = (deps: DocumentStoreDeps): ToolRegistration[] => [
  bindTool(retrieveDocumentChunksTool, (input) => retrieveDocumentChunks(deps, input)),
  bindTool(storeDocumentChunksTool, async (input, ctx) => {
    try {
      return await storeDocumentChunks(deps, input, { signal: ctx.signal });
    } catch (error) {
      // Spec 002: this tool reports failures as {success: false}, never as a protocol or tool error.
      ctx.log.error({ err: error }, 'store_document_chunks failed');
      const why = isAppError(error) && STORE_FAILURES.has(error.code) ? ` (${error.code}: ${error.message})` : '';
      return {
        success: false,
        chunks_stored: 0,
        collection: input.collection,
        message: `Storage error: the chunks were not stored${why}`,
      };
    }
  }),
  bindTool(listCollectionsTool, async (_input, ctx) => {
    try {
      return { result: await listCollectionNames(deps) };
    } catch (error) {
      // Spec 002: an empty list on error.
      ctx.log.error({ err: error }, 'list_collections failed');
      return { result: [] };
    }
  }),
];
