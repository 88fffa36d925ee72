import { documentStoreTools } from '@lectern/contracts';
import type { DocumentStoreDeps } from '../deps.js';
import { notImplemented, type ToolRegistration } from '@lectern/transport';
import { collectionTools } from './collection-tools.js';
import { documentTools } from './document-tools.js';

/**
 * Every tool of specs 000 (+ delete_document), 002 and 004 with its full contract. Spec 004's project
 * tools (store_chunks, find_chunks, query_hybrid, inspect_collection, list_projects) arrive with their
 * own issue; until then they answer a clear `not_implemented` error.
 */
export const documentStoreToolRegistrations = (deps?: DocumentStoreDeps): ToolRegistration[] => {
  const implemented = deps ? [...documentTools(deps), ...collectionTools(deps)] : [];
  const names = new Set(implemented.map((t) => t.definition.name));
  const pending = documentStoreTools
    .filter((d) => !names.has(d.name))
    .map((definition) => ({ definition, handler: notImplemented(definition.name) }));
  const order = documentStoreTools.map((d) => d.name);
  return [...implemented, ...pending].sort((a, b) => order.indexOf(a.definition.name) - order.indexOf(b.definition.name));
};
