// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';

export const FUSION_METHODS = ['zscore', 'rrf'] as const;
/** `zscore`: convex combination of z-score-normalised scores (default). `rrf`: weighted Reciprocal Rank Fusion. */
export type FusionMethod = (typeof FUSION_METHODS)[number];

/**
 * Fusion defaults: the ONE place to change them. Issue 25 (docs/benchmarks/retrieval.md): chosen on the planning dev
 * set and SciFact train through the MCP tools (`bench/retrieval/eval/run.ts --fusion`), z-score weights 0.1-0.4 dense
 * x denseConfidence 0/1/2: 0.9 BM25 / 0.1 dense with denseConfidence 1 has the best planning answer@5 (0.824, against
 * 0.779-0.794 at 0.2 dense) and, of the four settings run on SciFact train, the only one at least its BM25 input on
 * every metric (0.2 dense: nDCG@10 +0.002, hit@1 below BM25).
 * Before that, chosen by measurement on BEIR SciFact through this store
 * (`bench/vector-store/scifact-hybrid.bench.ts --tune`, train judgments; settings chosen on a random half of the
 * queries, "tune", reported on the other, "check"; docs/benchmarks/embedding.md). With both offline models
 * (USE-lite, dense-only 0.27; potion-base-2M, 0.41) the store's BM25 (0.70) dominates, and the former default
 * 0.7·z(BM25) + 0.3·z(dense) fell below BM25 on potion's tune half (0.674 < 0.681). 0.8 / 0.2 over 100 candidates
 * per side is above BM25 on the tune half with both models (potion 0.684 vs 0.681, USE-lite 0.632 vs 0.628) and
 * the best such setting on both together. Naive RRF(k=60) is far below BM25 with either; RRF stays selectable.
 * The weights apply to both methods (RRF only depends on their ratio); `rrfK` only to RRF.
 */
export const FUSION_DEFAULTS: {
  readonly method: FusionMethod;
  readonly denseWeight: number;
  readonly keywordWeight: number;
  /** Candidates per side before fusion: max(limit, candidates). z-score statistics are taken over these. */
  readonly candidates: number;
  readonly rrfK: number;
  /**
   * z-score fusion only: the dense weight is scaled by (zTop_dense / zTop_keyword)^denseConfidence, capped at 1,
   * where zTop is how far a list's best candidate stands above its own candidates (its z-score). A query whose
   * keyword list has a clear winner while the dense list is flat keeps its lexical answer; 0 turns this off.
   */
  readonly denseConfidence: number;
  /**
   * z-score fusion only: the lowest dense z a candidate is fused with (null: none). At 0, the dense pool's mean, the
   * dense side only supports: a candidate whose cosine is below the mean of the dense candidates, or that is no dense
   * candidate at all, is not pushed down by it, so a weak dense signal cannot overturn the keyword order; a dense
   * score above the mean lifts as before. Issue 25, round 8 (docs/benchmarks/retrieval.md).
   */
  readonly denseFloor: number | null;
  /**
   * The keyword side's document evidence (lexical.ts DOCUMENT_EVIDENCE): a keyword candidate gains this times the
   * best score of its document's other keyword candidates. 0 (off) by default; spec 004's `query_hybrid` asks for it.
   */
  readonly documentEvidence: number;
  /**
   * Document evidence's span (lexical.ts DOCUMENT_EVIDENCE_SPAN): a candidate's chunks within this many chunk
   * positions are not its evidence. 0 (any other chunk counts) by default; spec 000's search asks for 1.
   */
  readonly documentEvidenceSpan: number;
  /**
   * z-score fusion only (issue 25, round 12): only the dense list's first `denseDepth` candidates carry dense
   * evidence; a candidate the dense side ranks lower is fused as if it were no dense candidate (null: every one
   * counts). With the floor, a candidate ranked 10th-100th by cosine sits barely above the pool's mean, and that
   * weak dense signal decided keyword near-ties against the right chunk (docs/benchmarks/retrieval.md, round 12).
   * null (off) by default: spec 004's `query_hybrid` lost hit@1 questions with it; spec 000's search asks for 7.
   */
  readonly denseDepth: number | null;
} = {
  method: 'zscore',
  denseWeight: 0.1,
  keywordWeight: 0.9,
  candidates: 100,
  rrfK: 60,
  denseConfidence: 1,
  denseFloor: 0,
  documentEvidence: 0,
  documentEvidenceSpan: 0,
  denseDepth: null,
};

export interface FusionParams {
  method: FusionMethod;
  rrfK: number;
  denseWeight: number;
  keywordWeight: number;
  candidates: number;
  denseConfidence: number;
  denseFloor: number | null;
  documentEvidence: number;
  documentEvidenceSpan: number;
  denseDepth: number | null;
}

/** Store-wide fusion defaults (e.g. from app config); anything unset falls back to FUSION_DEFAULTS. */
export type FusionDefaults = Partial<FusionParams>;

/** Per-call fusion options (the fusion part of `HybridOptions`). */
export interface FusionOptions {
  /** Fusion method; default `FUSION_DEFAULTS.method` ('zscore'). */
  fusion?: FusionMethod;
  /** RRF k (method 'rrf' only). */
  rrfK?: number;
  denseWeight?: number;
  keywordWeight?: number;
  /** How many candidates each side contributes before fusion. */
  candidates?: number;
  /** z-score fusion: how strongly a flat dense list gives way to a decisive keyword list (see FUSION_DEFAULTS). */
  denseConfidence?: number;
  /** z-score fusion: the lowest dense z a candidate is fused with; null for none (see FUSION_DEFAULTS). */
  denseFloor?: number | null;
  /** The keyword side's document evidence weight, 0 for none (see FUSION_DEFAULTS). */
  documentEvidence?: number;
  /** Document evidence's span in chunk positions, 0 for none (see FUSION_DEFAULTS). */
  documentEvidenceSpan?: number;
  /** z-score fusion: how many of the dense list's first candidates carry dense evidence; null for all (see FUSION_DEFAULTS). */
  denseDepth?: number | null;
}

/** Per-call options win over the store's defaults, which win over FUSION_DEFAULTS. */
export const resolveFusion = (limit: number, o: FusionOptions, store: FusionDefaults = {}): FusionParams => {
  const d = { ...FUSION_DEFAULTS, ...store };
  const p: FusionParams = {
    method: o.fusion ?? d.method,
    rrfK: o.rrfK ?? d.rrfK,
    denseWeight: o.denseWeight ?? d.denseWeight,
    keywordWeight: o.keywordWeight ?? d.keywordWeight,
    candidates: o.candidates ?? Math.max(limit, d.candidates),
    denseConfidence: o.denseConfidence ?? d.denseConfidence,
    denseFloor: o.denseFloor === undefined ? d.denseFloor : o.denseFloor,
    documentEvidence: o.documentEvidence ?? d.documentEvidence,
    documentEvidenceSpan: o.documentEvidenceSpan ?? d.documentEvidenceSpan,
    denseDepth: o.denseDepth === undefined ? d.denseDepth : o.denseDepth,
  };
  if (!(FUSION_METHODS as readonly string[]).includes(p.method)) {
    throw new AppError('invalid_arguments', `Fusion method must be one of ${FUSION_METHODS.join(', ')}.`);
  }
  if (
    !(p.rrfK >= 1) ||
    !(p.denseWeight >= 0) ||
    !(p.keywordWeight >= 0) ||
    !(p.denseConfidence >= 0) ||
    !(p.denseFloor === null || Number.isFinite(p.denseFloor)) ||
    !(p.documentEvidence >= 0 && Number.isFinite(p.documentEvidence)) ||
    !(Number.isInteger(p.documentEvidenceSpan) && p.documentEvidenceSpan >= 0) ||
    !(p.denseDepth === null || (Number.isInteger(p.denseDepth) && p.denseDepth >= 1)) ||
    !Number.isInteger(p.candidates) ||
    p.candidates < 1
  ) {
    throw new AppError(
      'invalid_arguments',
      'Fusion needs rrfK >= 1, non-negative weights, confidence and document evidence, a non-negative integer document evidence span, a finite dense floor or null, a positive integer dense depth or null, and a positive integer candidate count.',
    );
  }
  return { ...p, candidates: Math.min(p.candidates, 1000) };
};

/** One candidate list entry, best first: the engine's own score (higher = better). */
export interface Scored {
  id: string;
  score: number;
}

export interface Fused {
  id: string;
  score: number;
  denseRank?: number;
  keywordRank?: number;
}

interface Entry extends Fused {
  dense?: number;
  keyword?: number;
}

const collect = (
  dense: Scored[],
  keyword: Scored[],
  value: (list: Scored[]) => (s: Scored, i: number) => number,
): Map<string, Entry> => {
  const byId = new Map<string, Entry>();
  const add = (list: Scored[], rank: 'denseRank' | 'keywordRank', key: 'dense' | 'keyword'): void => {
    const v = value(list);
    list.forEach((s, i) => {
      const e = byId.get(s.id) ?? { id: s.id, score: 0 };
      if (e[rank] !== undefined) return; // a duplicate id in one list: its first (best) entry counts
      e[rank] = i + 1;
      e[key] = v(s, i);
      byId.set(s.id, e);
    });
  };
  add(dense, 'denseRank', 'dense');
  add(keyword, 'keywordRank', 'keyword');
  return byId;
};

/**
 * Sorted by score, then the better dense rank, then the better keyword rank, then id. The ranks come before
 * the id so that both adapters order exact ties the same way (the embedded store fuses on row ids).
 */
const ranked = (entries: Iterable<Entry>, limit: number): Fused[] => {
  const inf = Number.POSITIVE_INFINITY;
  return [...entries]
    .sort(
      (a, b) =>
        b.score - a.score ||
        (a.denseRank ?? inf) - (b.denseRank ?? inf) ||
        (a.keywordRank ?? inf) - (b.keywordRank ?? inf) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, limit)
    .map(({ id, score, denseRank, keywordRank }) => ({
      id,
      score,
      ...(denseRank !== undefined ? { denseRank } : {}),
      ...(keywordRank !== undefined ? { keywordRank } : {}),
    }));
};

/** Weighted Reciprocal Rank Fusion: score(d) = Σ_lists weight / (k + rank(d)), rank 1-based; scores unused. */
export const rrfFuse = (
  dense: Scored[],
  keyword: Scored[],
  p: Pick<FusionParams, 'rrfK' | 'denseWeight' | 'keywordWeight'>,
  limit: number,
): Fused[] => {
  const byId = collect(dense, keyword, () => (_s, i) => 1 / (p.rrfK + i + 1));
  for (const e of byId.values()) e.score = p.denseWeight * (e.dense ?? 0) + p.keywordWeight * (e.keyword ?? 0);
  return ranked(byId.values(), limit);
};

/**
 * z-scores over one candidate list: (s - mean) / sd, population sd; sd = 1 when all scores are equal. `zeros` more
 * candidates scoring 0 join the statistics (a keyword list shorter than the pool: every other candidate matched no
 * query word, and its BM25 score is 0).
 */
const zScores = (list: Scored[], zeros = 0): ((s: Scored) => number) => {
  const n = Math.max(1, list.length + zeros);
  const mean = list.reduce((a, s) => a + s.score, 0) / n;
  const sd = Math.sqrt((list.reduce((a, s) => a + (s.score - mean) ** 2, 0) + zeros * mean ** 2) / n) || 1;
  return (s) => (s.score - mean) / sd;
};

/** The z-score of a list's best entry: how far it stands above its own candidates (0 for fewer than two in all). */
const topZ = (list: Scored[], z: (s: Scored) => number, size = list.length): number => {
  if (size < 2 || list.length === 0) return 0;
  let m = Number.NEGATIVE_INFINITY;
  for (const s of list) m = Math.max(m, z(s));
  return m;
};

/**
 * The dense weight after its confidence: w_dense · min(1, zTop_dense / zTop_keyword)^gamma (unchanged when gamma
 * is 0 or the keyword list has no standout; 0 when the dense list has none while the keyword list has one).
 */
export const effectiveDenseWeight = (denseWeight: number, gamma: number, zTopDense: number, zTopKeyword: number) => {
  if (gamma <= 0 || !(zTopKeyword > 0)) return denseWeight;
  return denseWeight * Math.min(1, Math.max(0, zTopDense) / zTopKeyword) ** gamma;
};

/**
 * Convex combination of z-score-normalised scores: score(d) = w_dense · z_dense(d) + w_keyword · z_keyword(d),
 * each list normalised over its own candidates. A candidate missing from one list gets that list's minimum z
 * (it is not rewarded for being absent); an empty list contributes 0 to everyone. Unlike RRF, a confident hit
 * (far above its list's mean) counts for more than a marginal one at the same rank. With `denseConfidence` > 0,
 * w_dense shrinks when the dense list's best stands out less than the keyword list's (`effectiveDenseWeight`),
 * so a decisive lexical match is not diluted by a weak dense signal (z-scores alone make a flat list look as
 * sure of itself as a sharp one). With `denseFloor` (default 0), a dense z below the floor counts as the floor:
 * only dense evidence above the dense pool's mean moves a candidate, so a keyword winner that the dense side merely
 * ranks low (or not at all) is not overturned by a candidate the dense side ranks slightly less low. With
 * `denseDepth`, only the dense list's first candidates carry dense evidence (the rest count as absent from it).
 * Hand-written: a few lines of arithmetic, no library covers this fusion.
 */
export const zscoreFuse = (
  dense: Scored[],
  keyword: Scored[],
  p: Pick<FusionParams, 'denseWeight' | 'keywordWeight'> & {
    denseConfidence?: number;
    denseFloor?: number | null;
    denseDepth?: number | null;
  },
  limit: number,
): Fused[] => {
  const zd = zScores(dense);
  // The dense list is the candidate pool (it always fills up to it); a shorter keyword list means the rest of the
  // pool scored 0 on the keyword side. Normalised without those zeros, a keyword list of one hit gave that hit z = 0
  // and a short list of decisive matches a spread as if every candidate had matched (the lexical evidence was
  // diluted); with them, a lone exact match stands far above the pool, as it does in BM25.
  const zeros = Math.max(0, dense.length - keyword.length);
  const zk = zScores(keyword, zeros);
  const byId = collect(dense, keyword, (list) => (list === dense ? zd : zk));
  const floor = (key: 'dense' | 'keyword'): number => {
    let m = Number.POSITIVE_INFINITY;
    for (const e of byId.values()) if (e[key] !== undefined && (e[key] as number) < m) m = e[key] as number;
    return Number.isFinite(m) ? m : 0;
  };
  const minDense = floor('dense');
  // Missing from a padded keyword list: the score of a candidate that matched nothing, z(0).
  const minKeyword = zeros > 0 && keyword.length > 0 ? zk({ id: '', score: 0 }) : floor('keyword');
  const wd = effectiveDenseWeight(
    p.denseWeight,
    p.denseConfidence ?? 0,
    topZ(dense, zd),
    topZ(keyword, zk, keyword.length + zeros),
  );
  const lowest = p.denseFloor ?? Number.NEGATIVE_INFINITY;
  const depth = p.denseDepth ?? Number.POSITIVE_INFINITY;
  for (const e of byId.values()) {
    // Beyond the dense depth a candidate's cosine is no evidence: it is fused as a candidate the dense side lacks.
    const dense = e.dense !== undefined && (e.denseRank as number) <= depth ? e.dense : minDense;
    e.score = wd * Math.max(lowest, dense) + p.keywordWeight * (e.keyword ?? minKeyword);
  }
  return ranked(byId.values(), limit);
};

/** Fuses the two candidate lists (each best first, with the engine's scores) by `p.method`. */
export const fuse = (dense: Scored[], keyword: Scored[], p: FusionParams, limit: number): Fused[] =>
  p.method === 'rrf' ? rrfFuse(dense, keyword, p, limit) : zscoreFuse(dense, keyword, p, limit);
