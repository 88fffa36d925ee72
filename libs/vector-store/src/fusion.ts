import { AppError } from '@lectern/contracts';

/**
 * Fusion defaults: the ONE place to change them. Plain RRF(k=60) with equal weights is the textbook
 * default; with a weak dense model it can rank below BM25 alone (issue 3's SciFact run), so the weights
 * and k are parameters and these defaults are meant to be set from the embedding engineer's measurement.
 */
export const FUSION_DEFAULTS = {
  rrfK: 60,
  denseWeight: 1,
  keywordWeight: 1,
  /** Candidates per side before fusion: max(limit * candidateFactor, minCandidates). */
  candidateFactor: 4,
  minCandidates: 50,
} as const;

export interface FusionParams {
  rrfK: number;
  denseWeight: number;
  keywordWeight: number;
  candidates: number;
}

/** Store-wide fusion defaults (e.g. from app config); anything unset falls back to FUSION_DEFAULTS. */
export type FusionDefaults = Partial<{ -readonly [K in keyof typeof FUSION_DEFAULTS]: number }>;

/** Per-call options win over the store's defaults, which win over FUSION_DEFAULTS. */
export const resolveFusion = (
  limit: number,
  o: { rrfK?: number; denseWeight?: number; keywordWeight?: number; candidates?: number },
  store: FusionDefaults = {},
): FusionParams => {
  const d = { ...FUSION_DEFAULTS, ...store };
  const p = {
    rrfK: o.rrfK ?? d.rrfK,
    denseWeight: o.denseWeight ?? d.denseWeight,
    keywordWeight: o.keywordWeight ?? d.keywordWeight,
    candidates: o.candidates ?? Math.max(limit * d.candidateFactor, d.minCandidates),
  };
  if (!(p.rrfK >= 1) || !(p.denseWeight >= 0) || !(p.keywordWeight >= 0) || !Number.isInteger(p.candidates) || p.candidates < 1) {
    throw new AppError('invalid_arguments', 'Fusion needs rrfK >= 1, non-negative weights and a positive integer candidate count.');
  }
  return { ...p, candidates: Math.min(p.candidates, 1000) };
};

export interface Fused {
  id: string;
  score: number;
  denseRank?: number;
  keywordRank?: number;
}

/**
 * Weighted Reciprocal Rank Fusion: score(d) = Σ_lists weight / (k + rank(d)), rank 1-based.
 * Ties are broken by the better dense rank, then the better keyword rank, then id (deterministic).
 */
export const rrfFuse = (dense: string[], keyword: string[], p: FusionParams, limit: number): Fused[] => {
  const byId = new Map<string, Fused>();
  const add = (ids: string[], weight: number, key: 'denseRank' | 'keywordRank'): void => {
    ids.forEach((id, i) => {
      const f = byId.get(id) ?? { id, score: 0 };
      f[key] = i + 1;
      f.score += weight / (p.rrfK + i + 1);
      byId.set(id, f);
    });
  };
  add(dense, p.denseWeight, 'denseRank');
  add(keyword, p.keywordWeight, 'keywordRank');
  const inf = Number.POSITIVE_INFINITY;
  return [...byId.values()]
    .sort(
      (a, b) =>
        b.score - a.score ||
        (a.denseRank ?? inf) - (b.denseRank ?? inf) ||
        (a.keywordRank ?? inf) - (b.keywordRank ?? inf) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, limit);
};
