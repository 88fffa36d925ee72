// SPDX-License-Identifier: AGPL-3.0-or-later
// Rank-fusion methods compared on SciFact; the chosen one becomes the vector store's default.
export interface Scored {
  id: string;
  score: number;
}

/** Reciprocal rank fusion: sum of w / (k + rank), rank from 1. */
export const rrf = (lists: Scored[][], weights: number[], k: number): Scored[] => {
  const fused = new Map<string, number>();
  lists.forEach((list, l) =>
    list.forEach((d, r) => fused.set(d.id, (fused.get(d.id) ?? 0) + (weights[l] as number) / (k + r + 1))),
  );
  return sortScores(fused);
};

type Normaliser = (list: Scored[]) => Map<string, number>;

/** Min-max over the candidate list: best 1, worst 0. */
export const minMax: Normaliser = (list) => {
  const max = Math.max(...list.map((d) => d.score));
  const min = Math.min(...list.map((d) => d.score));
  return new Map(list.map((d) => [d.id, max > min ? (d.score - min) / (max - min) : 1]));
};

/** z-score over the candidate list. */
export const zScore: Normaliser = (list) => {
  const mean = list.reduce((s, d) => s + d.score, 0) / Math.max(1, list.length);
  const sd = Math.sqrt(list.reduce((s, d) => s + (d.score - mean) ** 2, 0) / Math.max(1, list.length)) || 1;
  return new Map(list.map((d) => [d.id, (d.score - mean) / sd]));
};

/**
 * Convex combination of normalised scores: sum of w_l * norm_l(doc). A document missing from a list gets that
 * list's floor (0 for min-max, the list's minimum for z-score), so it is not rewarded for being absent.
 */
export const convex = (lists: Scored[][], weights: number[], normalise: Normaliser): Scored[] => {
  const fused = new Map<string, number>();
  const normalised = lists.map(normalise);
  const ids = new Set(lists.flatMap((l) => l.map((d) => d.id)));
  for (const id of ids) {
    let s = 0;
    normalised.forEach((n, l) => {
      const floor = Math.min(...n.values());
      s += (weights[l] as number) * (n.get(id) ?? floor);
    });
    fused.set(id, s);
  }
  return sortScores(fused);
};

const sortScores = (m: Map<string, number>): Scored[] =>
  [...m.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));

/** BEIR-style nDCG@k with binary relevance. */
export const ndcgAt = (ranked: string[], relevant: Set<string>, k: number): number => {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal > 0 ? dcg / ideal : 0;
};

export const recallAt = (ranked: string[], relevant: Set<string>, k: number): number =>
  relevant.size === 0 ? 0 : ranked.slice(0, k).filter((id) => relevant.has(id)).length / relevant.size;
