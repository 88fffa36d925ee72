// SPDX-License-Identifier: AGPL-3.0-or-later
import { eng } from 'stopword';

const STOPWORDS = new Set(eng);

/**
 * Spec 003 section 6's tokenizer: lowercase, split on non-alphanumeric (any script's letters and digits),
 * English stopwords removed. Repeats are kept (term frequencies count them).
 */
export const tokenize = (text: string): string[] =>
  (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !STOPWORDS.has(t));

/** A chunk's term counts and length, as the keyword scorers need them. */
export interface TermStats {
  counts: Map<string, number>;
  length: number;
}

export const termStats = (text: string): TermStats => {
  const counts = new Map<string, number>();
  const tokens = tokenize(text);
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  return { counts, length: tokens.length };
};

/** Chunks containing each term. */
export const documentFrequencies = (chunks: readonly TermStats[]): Map<string, number> => {
  const df = new Map<string, number>();
  for (const c of chunks) for (const t of c.counts.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  return df;
};

/** Spec 003: IDF(term) = log(total_chunks / chunks_containing_term) — what `idf.json` holds. */
export const inverseDocumentFrequencies = (chunks: readonly TermStats[]): Record<string, number> => {
  const idf: Record<string, number> = {};
  for (const [t, n] of documentFrequencies(chunks)) idf[t] = Math.log(chunks.length / n);
  return idf;
};

/** Spec 003: score = Σ over the query's terms of TF(term, chunk) · IDF(term), TF = count / total_terms. */
export const tfidfScore = (
  query: readonly string[],
  chunk: TermStats,
  idf: Readonly<Record<string, number>>,
): number => {
  if (chunk.length === 0) return 0;
  let score = 0;
  for (const t of new Set(query)) score += ((chunk.counts.get(t) ?? 0) / chunk.length) * (idf[t] ?? 0);
  return score;
};

export interface Bm25Params {
  k1: number;
  b: number;
}

/** The usual Okapi BM25 constants (Robertson; Lucene's defaults). */
export const BM25_DEFAULTS: Bm25Params = { k1: 1.2, b: 0.75 };

/**
 * Okapi BM25 over one document's chunks, with the non-negative IDF ln(1 + (N - df + 0.5) / (df + 0.5)).
 * Hand-written: the vector store's BM25 is SQLite FTS5 over a stored collection, and an index here is one
 * document's few hundred chunks in memory; this is a dozen lines of arithmetic.
 */
export const bm25Scorer = (chunks: readonly TermStats[], params: Bm25Params = BM25_DEFAULTS) => {
  const n = chunks.length;
  const df = documentFrequencies(chunks);
  const avgLength = n === 0 ? 0 : chunks.reduce((a, c) => a + c.length, 0) / n;
  return (query: readonly string[], chunk: TermStats): number => {
    let score = 0;
    for (const t of new Set(query)) {
      const f = chunk.counts.get(t) ?? 0;
      if (f === 0) continue;
      const d = df.get(t) ?? 0;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      score +=
        (idf * f * (params.k1 + 1)) / (f + params.k1 * (1 - params.b + (params.b * chunk.length) / (avgLength || 1)));
    }
    return score;
  };
};
