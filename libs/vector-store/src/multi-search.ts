// SPDX-License-Identifier: AGPL-3.0-or-later
import type { EmbeddingFingerprint, Filter, Hit, VectorStore } from './vector-store.port.js';

/** One collection of a multi-collection search, with the query embedded by that collection's own model. */
export interface SearchTarget {
  name: string;
  vector: Float32Array | number[];
  fingerprint: EmbeddingFingerprint;
  /** With the query text: a hybrid search of this collection (it must have a full-text index); without: dense. */
  text?: string;
}

/** A hit of a multi-collection search: which collection it came from. */
export type CollectionHit = Hit & { collection: string };

export interface SearchManyOptions {
  limit: number;
  filter?: Filter;
}

/** Most collections one `searchMany` call takes. */
export const MAX_SEARCH_TARGETS = 256;

/**
 * The multi-collection search both adapters run (`VectorStore.searchMany`): every target searched with its own
 * vector (collections may be built by different models), then one list merged by the ranking score — the cosine
 * for dense targets, the fused score for hybrid ones (z-score fusion is centred per list, so fused scores are
 * comparable across lists) — ties broken by collection then id, cut to `limit`.
 */
export const searchAcross = async (
  store: Pick<VectorStore, 'searchDense' | 'searchHybrid'>,
  targets: readonly SearchTarget[],
  opts: SearchManyOptions,
): Promise<CollectionHit[]> => {
  if (targets.length > MAX_SEARCH_TARGETS) throw new RangeError(`at most ${MAX_SEARCH_TARGETS} collections per search`);
  const lists = await Promise.all(
    targets.map(async (t) => {
      const common = { fingerprint: t.fingerprint, limit: opts.limit, ...(opts.filter ? { filter: opts.filter } : {}) };
      const hits =
        t.text !== undefined
          ? await store.searchHybrid(t.name, { vector: t.vector, text: t.text }, common)
          : await store.searchDense(t.name, t.vector, common);
      return hits.map((h): CollectionHit => ({ ...h, collection: t.name }));
    }),
  );
  return lists
    .flat()
    .sort((a, b) => b.score - a.score || a.collection.localeCompare(b.collection) || a.id.localeCompare(b.id))
    .slice(0, opts.limit);
};
