// SPDX-License-Identifier: AGPL-3.0-or-later
import type { StoreDeps } from './deps.js';
import { requireProjectCollection } from './project-collection.js';

export interface ChunkRecord {
  id: string;
  chunk_index: number;
  text: string;
  start_offset?: number;
  end_offset?: number;
  payload: Record<string, unknown>;
}

/** Every stored chunk of a document, ordered by chunk_index. */
export const readDocumentChunks = async (
  deps: StoreDeps,
  project: string,
  documentId: string,
): Promise<ChunkRecord[]> => {
  const collection = await requireProjectCollection(deps, project);
  if (!collection) return [];
  const out: ChunkRecord[] = [];
  let cursor: string | null = null;
  do {
    const page = await deps.store.scroll(collection.name, {
      filter: { document_id: documentId },
      orderBy: 'chunk_index',
      limit: 1000,
      cursor,
    });
    for (const p of page.points) {
      const start = p.payload['start_offset'];
      const end = p.payload['end_offset'];
      out.push({
        id: p.id,
        chunk_index: Number(p.payload['chunk_index']),
        text: p.text,
        ...(typeof start === 'number' && typeof end === 'number' ? { start_offset: start, end_offset: end } : {}),
        payload: p.payload,
      });
    }
    cursor = page.next;
  } while (cursor);
  return out.sort((a, b) => a.chunk_index - b.chunk_index);
};
