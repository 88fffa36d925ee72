import {
  AppError,
  ChunkMetadataSchema,
  type SearchApplicationDocsInput,
  type SearchApplicationDocsOutput,
} from '@lectern/contracts';
import type { Filter, Hit } from '@lectern/vector-store';
import type { z } from 'zod';
import type { SearchDeps } from './deps.js';
import { requireProjectCollection } from './project-collection.js';

export type SearchDocumentsInput = z.input<typeof SearchApplicationDocsInput>;
export type SearchDocumentsResult = z.infer<typeof SearchApplicationDocsOutput>;
export type SearchResultItem = SearchDocumentsResult['results'][number];
export type SearchMode = NonNullable<SearchDocumentsInput['search_mode']>;

/** Spec 000 FR-002's where clause: application_ref AND document_type $in, each optional. */
export const searchFilter = (
  input: Pick<SearchDocumentsInput, 'application_ref' | 'document_types'>,
): Filter | undefined => {
  const parts: Filter[] = [];
  if (input.application_ref) parts.push({ application_ref: input.application_ref });
  if (input.document_types?.length) parts.push({ document_type: { $in: input.document_types } });
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { $and: parts };
};

const round = (n: number): number => Math.round(n * 10_000) / 10_000;

/**
 * Spec 000 FR-002, in two store calls: the collection, then one search. `relevance_score` is the spec's
 * `max(0, 1 - L2/2)` on unit vectors, i.e. the cosine similarity clipped at 0, in every mode with a dense
 * side (hybrid hits carry their own cosine). In hybrid mode (the default) results are *ordered* by the
 * fused score (z-score convex fusion of BM25 and dense, the measured default of `@lectern/vector-store`),
 * which measurably finds more, so a later result may have a higher relevance_score. Keyword-only results
 * carry the keyword score normalised to 0-1 by the best hit.
 */
export const searchDocuments = async (
  deps: SearchDeps,
  input: SearchDocumentsInput,
): Promise<SearchDocumentsResult> => {
  if (input.query.trim() === '') throw new AppError('invalid_arguments', 'query must not be empty or whitespace');
  const project = input.project ?? deps.defaultProject;
  const mode = input.search_mode ?? 'hybrid';
  const collection = await requireProjectCollection(deps, project);
  if (!collection) return { status: 'success', query: input.query, results_count: 0, results: [] };
  const filter = searchFilter(input);
  const limit = input.max_results ?? 10;

  let hits: Hit[];
  let score: (h: Hit) => number;
  if (mode === 'keyword') {
    hits = await deps.store.searchKeyword(collection.name, input.query, { limit, ...(filter ? { filter } : {}) });
    const best = hits[0]?.score ?? 1;
    score = (h) => (best > 0 ? h.score / best : 0);
  } else {
    const embedder = await deps.embedders.for(collection.fingerprint);
    const vector = await embedder.embed(input.query);
    const opts = { fingerprint: collection.fingerprint, limit, ...(filter ? { filter } : {}) };
    if (mode === 'semantic' || !collection.hybrid) {
      hits = await deps.store.searchDense(collection.name, vector, opts);
      score = (h) => h.score;
    } else {
      hits = await deps.store.searchHybrid(collection.name, { vector, text: input.query }, opts);
      score = (h) => h.denseScore ?? 0;
    }
  }
  const results: SearchResultItem[] = hits.map((h) => ({
    chunk_id: h.id,
    text: h.text,
    relevance_score: round(score(h)),
    metadata: ChunkMetadataSchema.parse(h.payload),
  }));
  return { status: 'success', query: input.query, results_count: results.length, results };
};
