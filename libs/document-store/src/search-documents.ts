import { AppError, ChunkMetadataSchema, type ChunkMetadata } from '@lectern/contracts';
import type { Filter, Hit } from '@lectern/vector-store';
import type { DocumentStoreDeps } from './deps.js';

export type SearchMode = 'hybrid' | 'semantic' | 'keyword';

export interface SearchDocumentsInput {
  query: string;
  application_ref?: string | undefined;
  document_types?: string[] | undefined;
  max_results: number;
  search_mode?: SearchMode | undefined;
  project?: string | undefined;
}

export interface SearchResultItem {
  chunk_id: string;
  text: string;
  relevance_score: number;
  metadata: ChunkMetadata;
}

/** Spec 000 FR-002's where clause: application_ref AND document_type $in, each optional. */
export const searchFilter = (input: Pick<SearchDocumentsInput, 'application_ref' | 'document_types'>): Filter | undefined => {
  const parts: Filter[] = [];
  if (input.application_ref) parts.push({ application_ref: input.application_ref });
  if (input.document_types?.length) parts.push({ document_type: { $in: input.document_types } });
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { $and: parts };
};

const round = (n: number): number => Math.round(n * 10_000) / 10_000;

/**
 * Spec 000 FR-002. `relevance_score` is the spec's `max(0, 1 - L2/2)` on unit vectors, i.e. the cosine
 * similarity clipped at 0, for every mode that has a dense side. In hybrid mode (the default) results are
 * *ordered* by the fused score (z-score convex fusion of BM25 and dense, the measured default of
 * `@lectern/vector-store`), which measurably finds more; each carries its own cosine.
 * Keyword-only results carry the keyword score normalised to 0-1 by the best hit.
 */
export const searchDocuments = async (deps: DocumentStoreDeps, input: SearchDocumentsInput) => {
  if (input.query.trim() === '') throw new AppError('invalid_arguments', 'query must not be empty or whitespace');
  const project = input.project ?? deps.defaultProject;
  const mode = input.search_mode ?? 'hybrid';
  const collection = await deps.store.getCollection(project);
  const empty = { status: 'success' as const, query: input.query, results_count: 0, results: [] as SearchResultItem[] };
  if (!collection) return empty;
  const filter = searchFilter(input);
  const limit = input.max_results;

  let hits: Hit[];
  const cosine = new Map<string, number>();
  if (mode === 'keyword') {
    hits = await deps.store.searchKeyword(project, input.query, { limit, ...(filter ? { filter } : {}) });
    const best = hits[0]?.score ?? 1;
    for (const h of hits) cosine.set(h.id, best > 0 ? h.score / best : 0);
  } else {
    const embedder = await deps.embedders.for(collection.fingerprint);
    const vector = await embedder.embed(input.query);
    const opts = { fingerprint: collection.fingerprint, limit, ...(filter ? { filter } : {}) };
    if (mode === 'semantic' || !collection.hybrid) {
      hits = await deps.store.searchDense(project, vector, opts);
      for (const h of hits) cosine.set(h.id, h.score);
    } else {
      hits = await deps.store.searchHybrid(project, { vector, text: input.query }, opts);
      // Each hybrid hit's own cosine similarity (the spec's relevance score), from the dense side.
      const dense = await deps.store.searchDense(project, vector, { ...opts, limit: Math.max(limit * 10, 100) });
      for (const h of dense) cosine.set(h.id, h.score);
      for (const h of hits) {
        if (!cosine.has(h.id)) {
          const stored = await deps.store.scroll(project, { filter: { chunk_index: Number(h.payload['chunk_index']), document_id: String(h.payload['document_id']) }, limit: 1, withVector: true });
          const v = stored.points[0]?.vector;
          cosine.set(h.id, v ? Math.max(0, v.reduce((s, x, i) => s + x * (vector[i] ?? 0), 0)) : 0);
        }
      }
    }
  }
  const results: SearchResultItem[] = hits.map((h) => ({
    chunk_id: h.id,
    text: h.text,
    relevance_score: round(cosine.get(h.id) ?? 0),
    metadata: ChunkMetadataSchema.parse(h.payload),
  }));
  return { status: 'success' as const, query: input.query, results_count: results.length, results };
};
