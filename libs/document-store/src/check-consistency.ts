// SPDX-License-Identifier: AGPL-3.0-or-later
import type { StoreDeps } from './deps.js';
import { invalidProject, requireProjectCollection } from './project-collection.js';
import { registryCollection, VectorStoreDocumentRegistry } from './registry.js';

export interface ConsistencyReport {
  project: string;
  /**
   * `documents`: a document-store project (spec 000/004: chunks with a `document_id`, a registry beside them).
   * `collection`: a spec 002 collection (`store_document_chunks`): caller-made chunks, no registry — nothing to
   * reconcile, so it is never reported broken.
   */
  kind: 'documents' | 'collection';
  documents: number;
  chunks: number;
  /** Chunks without a `document_id` (stored by `store_document_chunks`); not orphans: no registry manages them. */
  unmanaged_chunks: number;
  /** Chunks whose document has no registry entry (e.g. a process killed between chunk upsert and registry write). */
  orphan_chunks: number;
  orphan_document_ids: string[];
  /** Registry entries whose chunk_count differs from the chunks actually stored. */
  count_mismatches: Array<{ document_id: string; registered: number; stored: number }>;
  /** With `repair`: the orphan chunks deleted (0 without `repair`). */
  removed_chunks: number;
  repaired: boolean;
  /** The state after this call: no orphans and no count mismatches (after a repair, re-checked from the store). */
  consistent: boolean;
}

interface Scan {
  documents: number;
  chunks: number;
  unmanaged: number;
  orphans: Map<string, string[]>;
  mismatches: ConsistencyReport['count_mismatches'];
}

const scan = async (deps: StoreDeps, project: string, collection: string | null): Promise<Scan> => {
  const entries = await new VectorStoreDocumentRegistry(deps.store, project).listAll();
  const registered = new Set(entries.map((e) => e.document_id));
  const stored = new Map<string, number>();
  const orphans = new Map<string, string[]>();
  let chunks = 0;
  let unmanaged = 0;
  if (collection) {
    let cursor: string | null = null;
    do {
      const page = await deps.store.scroll(collection, { limit: 1000, cursor });
      for (const p of page.points) {
        chunks += 1;
        const documentId = p.payload['document_id'];
        // Chunks of spec 004 writes (`origin`: project_ingest, store_chunks) have no registry entry by design.
        if (typeof documentId !== 'string' || documentId === '' || typeof p.payload['origin'] === 'string') {
          unmanaged += 1;
          continue;
        }
        stored.set(documentId, (stored.get(documentId) ?? 0) + 1);
        if (!registered.has(documentId)) orphans.set(documentId, [...(orphans.get(documentId) ?? []), p.id]);
      }
      cursor = page.next;
    } while (cursor);
  }
  const mismatches = entries
    .filter((e) => (stored.get(e.document_id) ?? 0) !== e.chunk_count)
    .map((e) => ({ document_id: e.document_id, registered: e.chunk_count, stored: stored.get(e.document_id) ?? 0 }));
  return { documents: entries.length, chunks, unmanaged, orphans, mismatches };
};

/**
 * Registry/store consistency (spec 001 NFR-003's rule applied to documents): zero orphan chunks, and every
 * registry entry's chunk_count equal to the chunks stored. With `repair`, orphan chunks are deleted by id (a retry
 * of the interrupted ingest would overwrite them anyway; repair makes search stop returning them now) and the
 * store is checked again, so `consistent` says what is true after the repair. An unknown project (neither
 * chunks nor registry) is `INVALID_PROJECT`.
 */
export const checkConsistency = async (
  deps: StoreDeps,
  input: { project?: string | undefined; repair?: boolean },
): Promise<ConsistencyReport> => {
  const project = input.project ?? deps.defaultProject;
  const [chunksCollection, registry] = await Promise.all([
    requireProjectCollection(deps, project),
    deps.store.getCollection(registryCollection(project)),
  ]);
  if (!chunksCollection && !registry) throw invalidProject(project);
  const name = chunksCollection?.name ?? null;
  const found = await scan(deps, project, name);
  let removed = 0;
  let after = found;
  if (input.repair && name && found.orphans.size > 0) {
    for (const ids of found.orphans.values()) removed += await deps.store.deleteByIds(name, ids);
    after = await scan(deps, project, name);
  }
  const orphanIds = [...found.orphans.keys()].sort();
  return {
    project,
    kind: !registry && found.chunks === found.unmanaged ? 'collection' : 'documents',
    documents: found.documents,
    chunks: found.chunks,
    unmanaged_chunks: found.unmanaged,
    orphan_chunks: [...found.orphans.values()].reduce((n, ids) => n + ids.length, 0),
    orphan_document_ids: orphanIds,
    count_mismatches: found.mismatches,
    removed_chunks: removed,
    repaired: removed > 0,
    consistent: after.orphans.size === 0 && after.mismatches.length === 0,
  };
};
