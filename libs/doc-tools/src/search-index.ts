// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  DOC_SNIPPET_CHARS,
  type DocSearchInput,
  type DocSearchMode,
  type DocSearchOutput,
} from '@lectern/contracts';
import type { Embedder } from '@lectern/embedding';
import { FUSION_DEFAULTS, zscoreFuse, type Scored } from '@lectern/vector-store';
import type { z } from 'zod';
import type { DocToolsDeps } from './deps.js';
import { readEmbeddings, searchableText, writeEmbeddings, type LoadedIndex } from './doc-index.js';
import type { IndexCache } from './index-cache.js';
import { bm25Scorer, tfidfScore, tokenize } from './terms.js';

type Input = z.infer<typeof DocSearchInput>;
type Output = z.input<typeof DocSearchOutput>;

/**
 * `DOC_SNIPPET_CHARS` of the chunk around the first query term it contains (from its start when none, or when the
 * term is near the start), cut at a word boundary: the agent sees why the chunk matched.
 */
export const snippetOf = (content: string, query: readonly string[]): string => {
  const flat = content.replace(/\s+/g, ' ').trim();
  if (flat.length <= DOC_SNIPPET_CHARS) return flat;
  const lower = flat.toLowerCase();
  const positions = query
    .map((t) => lower.search(new RegExp(`(?<![\\p{L}\\p{N}])${t}(?![\\p{L}\\p{N}])`, 'u')))
    .filter((p) => p >= 0);
  const first = positions.length > 0 ? Math.min(...positions) : 0;
  let start = Math.max(0, Math.min(first - 40, flat.length - DOC_SNIPPET_CHARS));
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space >= 0 && space < first) start = space + 1;
  }
  return flat.slice(start, start + DOC_SNIPPET_CHARS);
};

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    d += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? d / Math.sqrt(na * nb) : 0;
};

/** The chunks' vectors with this embedder: from `embeddings.json` when it is this model's, else computed and saved. */
const chunkVectors = async (
  index: LoadedIndex,
  embedder: Embedder,
  vectorsByIndex: WeakMap<LoadedIndex, { key: string; vectors: number[][] }>,
): Promise<number[][]> => {
  const key = `${embedder.fingerprint.model_id}@${embedder.fingerprint.revision}`;
  const memo = vectorsByIndex.get(index);
  if (memo?.key === key) return memo.vectors;
  const stored = await readEmbeddings(index.dir);
  let vectors: number[][];
  if (stored && `${stored.model_id}@${stored.revision}` === key && stored.vectors.length === index.chunks.length)
    vectors = stored.vectors;
  else {
    const embedded = await embedder.embedBatch(index.chunks.map(searchableText));
    vectors = embedded.map((v) => Array.from(v));
    await writeEmbeddings(index.dir, {
      model_id: embedder.fingerprint.model_id,
      revision: embedder.fingerprint.revision,
      vectors,
    });
  }
  vectorsByIndex.set(index, { key, vectors });
  return vectors;
};

export interface SearchState {
  cache: IndexCache;
  /** Per loaded index: its chunk vectors (per model) and its BM25 statistics, computed once. */
  vectors: WeakMap<LoadedIndex, { key: string; vectors: number[][] }>;
  bm25: WeakMap<LoadedIndex, ReturnType<typeof bm25Scorer>>;
}

/** Every chunk of `candidates` (indexes into the index's chunks) scored by `mode`, best first; keyword modes drop score 0. */
export const rankChunks = async (
  deps: Pick<DocToolsDeps, 'embedders'>,
  state: Pick<SearchState, 'vectors' | 'bm25'>,
  index: LoadedIndex,
  candidates: number[],
  query: string,
  mode: DocSearchMode,
  fusion: { denseWeight: number; keywordWeight: number } = FUSION_DEFAULTS,
): Promise<Scored[]> => {
  const terms = tokenize(query);
  const byScore = (list: Scored[]) =>
    list.filter((s) => s.score > 0).sort((a, b) => b.score - a.score || Number(a.id) - Number(b.id));
  if (mode === 'tfidf')
    return byScore(
      candidates.map((i) => ({ id: String(i), score: tfidfScore(terms, index.stats[i] as never, index.idf) })),
    );
  let bm25 = state.bm25.get(index);
  if (!bm25) {
    bm25 = bm25Scorer(index.stats);
    state.bm25.set(index, bm25);
  }
  const keyword = byScore(candidates.map((i) => ({ id: String(i), score: bm25(terms, index.stats[i] as never) })));
  if (mode === 'bm25') return keyword;
  if (!deps.embedders)
    throw new AppError('invalid_arguments', 'Hybrid search needs an embedding model; this server has none configured.');
  const embedder = await deps.embedders.configured();
  const vectors = await chunkVectors(index, embedder, state.vectors);
  const q = await embedder.embed(query);
  const dense = candidates
    .map((i) => ({ id: String(i), score: cosine(q, vectors[i] as number[]) }))
    .sort((a, b) => b.score - a.score || Number(a.id) - Number(b.id));
  return zscoreFuse(dense, keyword, fusion, candidates.length).map(({ id, score }) => ({ id, score }));
};

/** Spec 003 tool B: score the index's chunks in scope (TF-IDF, BM25 or hybrid), return the top_k with snippets. */
export const searchIndex = async (deps: DocToolsDeps, state: SearchState, input: Input): Promise<Output> => {
  const index = await state.cache.get(input.index_id);
  const wanted = input.scope === 'tables' ? 'table' : input.scope === 'text' ? 'text' : undefined;
  const candidates = index.chunks.flatMap((c, i) => (wanted === undefined || c.kind === wanted ? [i] : []));
  const ranked = await rankChunks(deps, state, index, candidates, input.query, input.mode ?? deps.defaultMode);
  const terms = tokenize(input.query);
  return {
    result: ranked.slice(0, input.top_k).map(({ id, score }) => {
      const chunk = index.chunks[Number(id)] as LoadedIndex['chunks'][number];
      return {
        locator: chunk.locator,
        kind: chunk.kind,
        snippet: snippetOf(chunk.content, terms),
        score: Math.round(score * 1e6) / 1e6,
        heading_path: chunk.meta.heading_path,
      };
    }),
  };
};
