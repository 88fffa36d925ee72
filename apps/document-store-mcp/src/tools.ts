import { documentStoreTools } from '@lectern/contracts';
import { notImplemented, type ToolRegistration } from '@lectern/transport';

/**
 * Every tool of specs 000 (+ delete_document), 002 and 004 with its full contract. Handlers arrive with
 * their issues; until then each answers with a clear `not_implemented` error.
 */
export const documentStoreToolRegistrations = (): ToolRegistration[] =>
  documentStoreTools.map((definition) => ({ definition, handler: notImplemented(definition.name) }));
