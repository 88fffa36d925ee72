// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Mean of each row's first `lengths[r]` token vectors (padding ignored), then L2 normalisation.
 * Accumulates in float64 in a fixed order, so a row's result depends only on its own tokens.
 */
export const meanPoolNormalize = (
  hidden: Float32Array,
  lengths: number[],
  padTo: number,
  dim: number,
): Float32Array => {
  const out = new Float32Array(lengths.length * dim);
  const acc = new Float64Array(dim);
  for (let r = 0; r < lengths.length; r++) {
    const len = lengths[r] as number;
    acc.fill(0);
    for (let j = 0; j < len; j++) {
      const base = (r * padTo + j) * dim;
      for (let d = 0; d < dim; d++) acc[d] = (acc[d] as number) + (hidden[base + d] as number);
    }
    for (let d = 0; d < dim; d++) acc[d] = (acc[d] as number) / Math.max(len, 1);
    writeNormalized(acc, out, r * dim);
  }
  return out;
};

/** Writes `v / max(|v|, 1e-12)` into `out` at `offset` (sentence-transformers' F.normalize). */
export const writeNormalized = (v: ArrayLike<number>, out: Float32Array, offset: number): void => {
  let sq = 0;
  for (let d = 0; d < v.length; d++) sq += (v[d] as number) * (v[d] as number);
  const norm = Math.max(Math.sqrt(sq), 1e-12);
  for (let d = 0; d < v.length; d++) out[offset + d] = (v[d] as number) / norm;
};

/** Dot product (= cosine similarity for unit vectors). */
export const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
};
