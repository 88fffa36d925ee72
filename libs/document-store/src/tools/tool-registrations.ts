// SPDX-License-Identifier: AGPL-3.0-or-later
import { documentStoreTools } from '@lectern/contracts';
import type { DocumentStoreDeps } from '../deps.js';
import { notImplemented, type ToolRegistration } from '@lectern/transport';
import { collectionTools } from './collection-tools.js';
import { documentTools } from './document-tools.js';
import { projectTools } from './project-tools.js';

/**
 * Every tool of specs 000 (+ delete_document), 002 and 004 with its full contract (without deps, e.g. to list
 * them, every tool answers `not_implemented`).
 */
export const documentStoreToolRegistrations = (deps?: DocumentStoreDeps): ToolRegistration[] => {
  const implemented = deps ? [...documentTools(deps), ...collectionTools(deps), ...projectTools(deps)] : [];
  const names = new Set(implemented.map((t) => t.definition.name));
  const pending = documentStoreTools
    .filter((d) => !names.has(d.name))
    .map((definition) => ({ definition, handler: notImplemented(definition.name) }));
  const order = documentStoreTools.map((d) => d.name);
  return [...implemented, ...pending].sort(
    (a, b) => order.indexOf(a.definition.name) - order.indexOf(b.definition.name),
  );
};
