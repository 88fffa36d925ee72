// SPDX-License-Identifier: AGPL-3.0-or-later
// A minimal in-memory Okapi BM25, for the fusion measurement only (the product's BM25 is SQLite FTS5 in
// libs/vector-store). Lowercase alphanumeric tokens, a tiny stoplist, title + text, like the reference run
// described in ../shared/corpora/beir-scifact/SOURCE.md.
const STOP = new Set(
  'a an and are as at be by for from has have in is it its of on or that the to was were which with'.split(' '),
);

export const tokenize = (text: string): string[] =>
  (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => !STOP.has(t));

export class Bm25 {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: number[] = [];
  private avgLength = 0;

  constructor(
    private readonly ids: string[],
    texts: string[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    texts.forEach((text, doc) => {
      const tokens = tokenize(text);
      this.lengths.push(tokens.length);
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        const list = this.postings.get(t) ?? [];
        list.push({ doc, tf: n });
        this.postings.set(t, list);
      }
    });
    this.avgLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  /** Top `k` (doc id, score), best first. */
  search(query: string, k: number): { id: string; score: number }[] {
    const scores = new Float64Array(this.ids.length);
    const n = this.ids.length;
    for (const term of new Set(tokenize(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = tf + this.k1 * (1 - this.b + (this.b * (this.lengths[doc] as number)) / this.avgLength);
        scores[doc] = (scores[doc] as number) + (idf * tf * (this.k1 + 1)) / norm;
      }
    }
    return topK(scores, k).map((d) => ({ id: this.ids[d] as string, score: scores[d] as number }));
  }
}

/** Indices of the `k` largest positive scores, best first (ties by index, so runs are reproducible). */
export const topK = (scores: ArrayLike<number>, k: number, positiveOnly = true): number[] => {
  const idx: number[] = [];
  for (let i = 0; i < scores.length; i++) if (!positiveOnly || (scores[i] as number) > 0) idx.push(i);
  idx.sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
  return idx.slice(0, k);
};
