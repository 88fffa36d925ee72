// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, type DeleteDocumentInput, type DeleteDocumentOutput } from '@lectern/contracts';
import type { z } from 'zod';
import type { StoreDeps } from './deps.js';
import type { KeptDocumentFiles } from './kept-files.js';
import type { KeyedMutex } from './keyed-mutex.js';
import { requireProjectCollection } from './project-collection.js';
import { VectorStoreDocumentRegistry } from './registry.js';

/**
 * Remove a document's chunks, its kept original (an upload's, for its pages), then its registry entry; unknown ids
 * are `document_not_found`.
 */
export const deleteDocument = async (
  deps: StoreDeps & { locks: KeyedMutex; keptFiles?: KeptDocumentFiles | undefined },
  input: z.input<typeof DeleteDocumentInput>,
): Promise<z.infer<typeof DeleteDocumentOutput>> => {
  const project = input.project ?? deps.defaultProject;
  const registry = new VectorStoreDocumentRegistry(deps.store, project);
  return deps.locks.run(`${project}:${input.document_id}`, async () => {
    const entry = await registry.get(input.document_id);
    const collection = await requireProjectCollection(deps, project);
    const chunks = collection
      ? await deps.store.deleteByFilter(collection.name, { document_id: input.document_id })
      : 0;
    if (!entry && chunks === 0) {
      throw new AppError('document_not_found', `Document not found: ${input.document_id}`, { httpStatus: 404 });
    }
    // before the registry entry: a failure here leaves the document listed, so a second delete finishes the job
    await deps.keptFiles?.delete(project, input.document_id);
    const removed = (await registry.delete(input.document_id)) ? 1 : 0;
    return {
      status: 'success' as const,
      document_id: input.document_id,
      chunks_deleted: chunks,
      registry_entries_deleted: removed,
    };
  });
};
