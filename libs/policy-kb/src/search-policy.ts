// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, type SearchPolicyInput, type SearchPolicyOutput } from '@lectern/contracts';
import { EffectiveDateResolver, parseDay } from '@lectern/policy-registry';
import type { Filter, Hit } from '@lectern/vector-store';
import type { z } from 'zod';
import type { PolicySearchDeps } from './deps.js';

export type SearchPolicyResult = z.infer<typeof SearchPolicyOutput>;
type Result = SearchPolicyResult['results'][number];

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const int = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) ? v : 0);

const toResult = (h: Hit): Result => ({
  chunk_id: h.id,
  text: h.text,
  // Spec 001: max(0, 1 - d/2) of the squared L2 distance of unit vectors, which is their cosine (clipped).
  relevance_score: Number((h.denseScore ?? h.score).toFixed(6)),
  // The fused score of the hybrid search, which decides the order (issue 25: order = a score shown).
  rank_score: Number(h.score.toFixed(6)),
  source: str(h.payload['source']),
  revision_id: str(h.payload['revision_id']),
  version_label: str(h.payload['version_label']),
  section_ref: str(h.payload['section_ref']),
  page_number: int(h.payload['page_number']),
});

/**
 * FR-001: "ranked results ordered by relevance score". The store's hybrid search ranks by the fused score while
 * the spec's `relevance_score` is the cosine; re-sorting the fused top-n by cosine would undo the fusion inside
 * the page, so the results keep the fused order and report the fused score as `rank_score` (issue 25: every
 * search tool orders by a score it shows). A stable sort: equal fused scores keep the store's tie order.
 */
const byRank = (results: Result[]): Result[] => results.sort((a, b) => b.rank_score - a.rank_score);

/**
 * Spec 001 FR-001, temporal search that cannot disagree with the registry: with `effective_date`, the
 * `EffectiveDateResolver` names the revision of each policy in force on that day and the store search is
 * restricted to exactly those revisions' chunks (none in force: no results, no store call). Hybrid retrieval
 * (the store's fusion of dense and BM25 rankings) runs inside that filter and chooses and orders the hits;
 * `relevance_score` is the chunk's cosine, `rank_score` the fused score they are ordered by. `queries` answers more queries with the same filters in the same call (`batch`).
 */
export const searchPolicy = async (
  deps: PolicySearchDeps,
  input: z.input<typeof SearchPolicyInput>,
): Promise<SearchPolicyResult> => {
  const queries = [input.query, ...(input.queries ?? [])];
  if (queries.some((q) => q.trim() === ''))
    throw new AppError('invalid_arguments', 'query must not be empty or whitespace');
  const limit = input.n_results ?? 10;
  const sources = input.sources ?? null;
  const date = input.effective_date ?? null;
  let filter: Filter | undefined = sources ? { source: { $in: sources } } : undefined;
  let inForce: Set<string> | null = null;
  if (date !== null) {
    const day = parseDay(date, 'effective_date');
    const ids = await new EffectiveDateResolver(deps.registry).getRevisionIdsForDate(day, sources ?? undefined);
    const pairs = Object.entries(ids).filter((e): e is [string, string] => e[1] !== null);
    inForce = new Set(pairs.map(([s, r]) => `${s}\u0000${r}`));
    filter =
      pairs.length > 0
        ? { source: { $in: pairs.map(([s]) => s) }, revision_id: { $in: pairs.map(([, r]) => r) } }
        : undefined;
  }
  const answer = (results: Result[]) => ({ results_count: results.length, results });
  const collection = await deps.store.getCollection(deps.collection);
  let perQuery: Result[][];
  if (!collection || (inForce !== null && inForce.size === 0)) {
    perQuery = queries.map(() => []);
  } else {
    const embedder = await deps.embedders.for(collection.fingerprint);
    const vectors = await embedder.embedBatch(queries);
    perQuery = [];
    for (const [i, text] of queries.entries()) {
      const hits = await deps.store.searchHybrid(
        deps.collection,
        { vector: vectors[i] as Float32Array, text },
        { fingerprint: collection.fingerprint, limit, ...(filter ? { filter } : {}) },
      );
      // The filter names sources and revision ids separately; only the exact (source, revision) pairs count.
      const kept = inForce
        ? hits.filter((h) => inForce.has(`${str(h.payload['source'])}\u0000${str(h.payload['revision_id'])}`))
        : hits;
      perQuery.push(byRank(kept.map(toResult)));
    }
  }
  return {
    status: 'success',
    query: input.query,
    effective_date: date,
    ...answer(perQuery[0] ?? []),
    ...(input.queries ? { batch: input.queries.map((query, i) => ({ query, ...answer(perQuery[i + 1] ?? []) })) } : {}),
  };
};
