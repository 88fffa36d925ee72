import type { StoreDeps } from './deps.js';
import { VectorStoreDocumentRegistry } from './registry.js';

export interface ConsistencyReport {
  project: string;
  documents: number;
  chunks: number;
  /** Chunks whose document has no registry entry (e.g. a process killed between chunk upsert and registry write). */
  orphan_chunks: number;
  orphan_document_ids: string[];
  /** Registry entries whose chunk_count differs from the chunks actually stored. */
  count_mismatches: Array<{ document_id: string; registered: number; stored: number }>;
  repaired: boolean;
}

/**
 * Registry/store consistency (spec 001 NFR-003's rule applied to documents): zero orphan chunks, and every
 * registry entry's chunk_count equal to the chunks stored. With `repair`, orphan chunks are deleted (a retry
 * of the interrupted ingest would overwrite them anyway; repair makes search stop returning them now).
 */
export const checkConsistency = async (
  deps: StoreDeps,
  input: { project?: string | undefined; repair?: boolean },
): Promise<ConsistencyReport> => {
  const project = input.project ?? deps.defaultProject;
  const entries = await new VectorStoreDocumentRegistry(deps.store, project).listAll();
  const stored = new Map<string, number>();
  let chunks = 0;
  if (await deps.store.getCollection(project)) {
    let cursor: string | null = null;
    do {
      const page = await deps.store.scroll(project, { limit: 1000, cursor });
      for (const p of page.points) {
        const id = String(p.payload['document_id'] ?? '');
        stored.set(id, (stored.get(id) ?? 0) + 1);
        chunks += 1;
      }
      cursor = page.next;
    } while (cursor);
  }
  const registered = new Set(entries.map((e) => e.document_id));
  const orphanIds = [...stored.keys()].filter((id) => !registered.has(id)).sort();
  const orphanChunks = orphanIds.reduce((n, id) => n + (stored.get(id) ?? 0), 0);
  const mismatches = entries
    .filter((e) => (stored.get(e.document_id) ?? 0) !== e.chunk_count)
    .map((e) => ({ document_id: e.document_id, registered: e.chunk_count, stored: stored.get(e.document_id) ?? 0 }));
  if (input.repair) {
    for (const id of orphanIds) await deps.store.deleteByFilter(project, { document_id: id });
  }
  return {
    project,
    documents: entries.length,
    chunks,
    orphan_chunks: orphanChunks,
    orphan_document_ids: orphanIds,
    count_mismatches: mismatches,
    repaired: Boolean(input.repair) && orphanIds.length > 0,
  };
};
