// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  effectiveDenseWeight,
  FUSION_DEFAULTS,
  fuse,
  resolveFusion,
  rrfFuse,
  zscoreFuse,
  type Scored,
} from './fusion.js';

const list = (...entries: [string, number][]): Scored[] => entries.map(([id, score]) => ({ id, score }));
const ids = (l: { id: string }[]): string[] => l.map((x) => x.id);

describe('resolveFusion', () => {
  it('defaults to z-score fusion, 0.9 keyword / 0.1 dense, dense confidence 1, dense floor 0, no dense depth, over 100 candidates per side', () => {
    expect(FUSION_DEFAULTS).toEqual({
      method: 'zscore',
      keywordWeight: 0.9,
      denseWeight: 0.1,
      candidates: 100,
      rrfK: 60,
      denseConfidence: 1,
      denseFloor: 0,
      documentEvidence: 0,
      documentEvidenceSpan: 0,
      denseDepth: null,
    });
    expect(resolveFusion(10, {})).toEqual({
      method: 'zscore',
      rrfK: 60,
      denseWeight: 0.1,
      keywordWeight: 0.9,
      candidates: 100,
      denseConfidence: 1,
      denseFloor: 0,
      documentEvidence: 0,
      documentEvidenceSpan: 0,
      denseDepth: null,
    });
    expect(resolveFusion(250, {}).candidates).toBe(250);
  });

  it('takes per-call options over store defaults over FUSION_DEFAULTS', () => {
    expect(resolveFusion(20, {}, { method: 'rrf', rrfK: 10, keywordWeight: 2 })).toEqual({
      method: 'rrf',
      rrfK: 10,
      denseWeight: 0.1,
      keywordWeight: 2,
      candidates: 100,
      denseConfidence: 1,
      denseFloor: 0,
      documentEvidence: 0,
      documentEvidenceSpan: 0,
      denseDepth: null,
    });
    expect(resolveFusion(20, { fusion: 'zscore', rrfK: 5, candidates: 7 }, { method: 'rrf', rrfK: 10 })).toMatchObject({
      method: 'zscore',
      rrfK: 5,
      candidates: 7,
    });
  });

  it('refuses unknown methods, k < 1, negative weights and bad candidate counts', () => {
    expect(() => resolveFusion(10, { fusion: 'sum' as never })).toThrow(/zscore, rrf/);
    expect(() => resolveFusion(10, { rrfK: 0 })).toThrow(/rrfK/);
    expect(() => resolveFusion(10, { denseWeight: -1 })).toThrow();
    expect(() => resolveFusion(10, { candidates: 2.5 })).toThrow();
    expect(() => resolveFusion(10, { denseFloor: Number.NaN })).toThrow(/dense floor/);
    expect(() => resolveFusion(10, { documentEvidence: -0.1 })).toThrow(/document evidence/);
    expect(() => resolveFusion(10, { documentEvidenceSpan: 0.5 })).toThrow(/document evidence span/);
    expect(() => resolveFusion(10, { documentEvidenceSpan: -1 })).toThrow(/document evidence span/);
    expect(resolveFusion(10, { documentEvidenceSpan: 1 }).documentEvidenceSpan).toBe(1);
  });

  it('takes a per-call dense floor of null (none) over the default', () => {
    expect(resolveFusion(10, { denseFloor: null }).denseFloor).toBeNull();
    expect(resolveFusion(10, {}, { denseFloor: -1 }).denseFloor).toBe(-1);
    expect(resolveFusion(10, {}).denseFloor).toBe(0);
  });
});

describe('rrfFuse', () => {
  const p = { rrfK: 60, denseWeight: 1, keywordWeight: 1 };
  it('sums weight / (k + rank) over both lists and records the ranks', () => {
    const fused = rrfFuse(list(['a', 0.9], ['b', 0.5], ['c', 0.1]), list(['c', 3], ['d', 1]), p, 10);
    expect(fused[0]).toEqual({ id: 'c', score: 1 / 63 + 1 / 61, denseRank: 3, keywordRank: 1 });
    expect(ids(fused)).toEqual(['c', 'a', 'b', 'd']);
    expect(fused.find((f) => f.id === 'd')).toEqual({ id: 'd', score: 1 / 62, keywordRank: 2 });
  });

  it('breaks ties by dense rank, then keyword rank, and cuts at the limit', () => {
    expect(rrfFuse(list(['a', 1]), list(['b', 1]), { ...p, rrfK: 1 }, 1)).toEqual([
      { id: 'a', score: 0.5, denseRank: 1 },
    ]);
    expect(ids(rrfFuse(list(['a', 1]), list(['b', 1]), { ...p, rrfK: 1, denseWeight: 0 }, 2))).toEqual(['b', 'a']);
  });
});

describe('zscoreFuse', () => {
  const p = { denseWeight: 0.3, keywordWeight: 0.7 };

  it("sums weighted z-scores; a candidate missing from a list gets that list's minimum z", () => {
    // dense: mean 0.5, population sd 0.4 → z(a) = 1, z(b) = -1. keyword: mean 5, sd 3 → z(b) = 1, z(c) = -1.
    const fused = zscoreFuse(list(['a', 0.9], ['b', 0.1]), list(['b', 8], ['c', 2]), p, 10);
    expect(fused).toEqual([
      { id: 'b', score: expect.closeTo(0.3 * -1 + 0.7 * 1, 12), denseRank: 2, keywordRank: 1 },
      { id: 'a', score: expect.closeTo(0.3 * 1 + 0.7 * -1, 12), denseRank: 1 },
      { id: 'c', score: expect.closeTo(0.3 * -1 + 0.7 * -1, 12), keywordRank: 2 },
    ]);
  });

  it('rewards a confident hit where RRF only sees ranks', () => {
    // y is far ahead in the dense list and a close 2nd in keyword; x is 1st in keyword, 2nd in dense.
    const dense = list(['y', 0.9], ['x', 0.2], ['z', 0.19]);
    const keyword = list(['x', 10], ['y', 9.9], ['z', 1]);
    const z = zscoreFuse(dense, keyword, p, 3);
    expect(ids(z)).toEqual(['y', 'x', 'z']);
    expect(z[0]?.score).toBeCloseTo(0.911, 3);
    // Same weights, ranks only: keyword's 1st place wins.
    expect(ids(rrfFuse(dense, keyword, { ...p, rrfK: 60 }, 3))).toEqual(['x', 'y', 'z']);
  });

  it('counts the pool candidates a short keyword list lacks as keyword score 0: a lone match is decisive, not z = 0', () => {
    // 10 dense candidates, a slope; only 'h' (dense rank 8) holds the query's rare code word.
    const pool = 'abcdefghij'.split('');
    const dense = list(...pool.map((id, i): [string, number] => [id, 0.6 - i * 0.02]));
    const fused = zscoreFuse(dense, list(['h', 7.5]), { denseWeight: 0.2, keywordWeight: 0.8 }, 10);
    expect(fused[0]?.id).toBe('h');
    // keyword side: mean 0.75 and sd 2.25 over 1 match and 9 zeros → z(h) = 3, every other candidate z = -1/3
    const zDense = (i: number) => (0.6 - i * 0.02 - 0.51) / Math.sqrt(0.0033);
    expect(fused[0]?.score).toBeCloseTo(0.2 * zDense(7) + 0.8 * 3, 10);
    expect(fused[1]).toEqual({ id: 'a', score: expect.closeTo(0.2 * zDense(0) + 0.8 * (-1 / 3), 10), denseRank: 1 });
    // two matches among ten: both above the rest, in their BM25 order
    expect(ids(zscoreFuse(dense, list(['j', 4], ['e', 3]), { denseWeight: 0.2, keywordWeight: 0.8 }, 3))).toEqual([
      'j',
      'e',
      'a',
    ]);
  });

  it('treats an empty list as neutral, equal scores as z = 0, and cuts at the limit', () => {
    expect(ids(zscoreFuse(list(['a', 0.9], ['b', 0.2]), [], p, 10))).toEqual(['a', 'b']);
    const flat = zscoreFuse(list(['a', 0.5], ['b', 0.5]), [], p, 1);
    expect(flat).toEqual([{ id: 'a', score: 0, denseRank: 1 }]);
    expect(zscoreFuse([], [], p, 5)).toEqual([]);
  });
});

describe('fuse', () => {
  it('dispatches on the method', () => {
    const dense = list(['y', 0.52], ['z', 0.51], ['x', 0.5]);
    const keyword = list(['x', 30], ['y', 10], ['z', 9.9]);
    const base = {
      rrfK: 60,
      denseWeight: 0.3,
      keywordWeight: 0.7,
      candidates: 100,
      denseConfidence: 1,
      denseFloor: 0,
      documentEvidence: 0,
      documentEvidenceSpan: 0,
      denseDepth: 7,
    };
    expect(fuse(dense, keyword, { ...base, method: 'zscore' }, 3)).toEqual(zscoreFuse(dense, keyword, base, 3));
    expect(fuse(dense, keyword, { ...base, method: 'rrf' }, 3)).toEqual(rrfFuse(dense, keyword, base, 3));
  });
});

describe('zscoreFuse with denseConfidence', () => {
  // 30 candidates. Keyword: x stands far above a smooth tail (decisive). Dense: a smooth slope, y barely first.
  const tail = Array.from({ length: 28 }, (_, i) => `t${i}`);
  const keyword = list(['x', 30], ...tail.map((id, i): [string, number] => [id, 5 - i * 0.05]), ['y', 3]);
  const dense = list(['y', 0.41], ['x', 0.405], ...tail.map((id, i): [string, number] => [id, 0.404 - i * 0.0005]));
  it('shrinks the dense weight by (zTop_dense / zTop_keyword)^gamma, never above the set weight', () => {
    expect(effectiveDenseWeight(0.5, 0, 1, 4)).toBe(0.5);
    expect(effectiveDenseWeight(0.5, 1, 1, 4)).toBeCloseTo(0.125, 10);
    expect(effectiveDenseWeight(0.5, 2, 1, 4)).toBeCloseTo(0.03125, 10);
    expect(effectiveDenseWeight(0.5, 1, 6, 4)).toBe(0.5);
    expect(effectiveDenseWeight(0.5, 1, 3, 0)).toBe(0.5);
    expect(effectiveDenseWeight(0.5, 1, -1, 2)).toBe(0);
  });
  it('keeps a decisive keyword winner first where plain z-score fusion lets a flat dense list overturn it', () => {
    const w = { denseWeight: 0.9, keywordWeight: 0.1 };
    expect(zscoreFuse(dense, keyword, w, 1)[0]?.id).toBe('y');
    expect(zscoreFuse(dense, keyword, { ...w, denseConfidence: 1 }, 1)[0]?.id).toBe('x');
  });
  it('leaves a confident dense list its full weight', () => {
    const sharp = list(['y', 0.9], ['x', 0.2], ['a', 0.2], ['b', 0.2], ['c', 0.2]);
    const flatKeyword = list(['x', 5], ['a', 4.9], ['b', 4.8], ['c', 4.7], ['y', 4.6]);
    const w = { denseWeight: 0.5, keywordWeight: 0.5 };
    expect(zscoreFuse(sharp, flatKeyword, { ...w, denseConfidence: 2 }, 5)).toEqual(
      zscoreFuse(sharp, flatKeyword, w, 5),
    );
  });
});

describe('zscoreFuse with denseFloor (issue 25, round 8: a weak dense signal does not overturn the keyword order)', () => {
  // planning-dev's dev-61 in miniature. 12 dense candidates: d1, d2 far above a flat tail, then 'c', then 'e' far
  // below. The keyword winner 'k' (which holds the answer) is no dense candidate at all, so it gets the dense
  // list's minimum z (e's, -2.15); the keyword runner-up 'c' is the dense pool's last but one (z -0.46): weak dense
  // evidence for both. The keyword side puts k clearly first (z 2.40 against 1.90).
  const tail = Array.from({ length: 8 }, (_, i) => `t${i}`);
  const dense = list(
    ['d1', 0.8],
    ['d2', 0.79],
    ...tail.map((id, i): [string, number] => [id, 0.5 - i * 0.001]),
    ['c', 0.45],
    ['e', 0.2],
  );
  const keyword = list(['k', 12], ['c', 10], ['d1', 3], ['d2', 2.5], ['e', 1]);
  const w = { denseWeight: 0.3, keywordWeight: 0.7 };

  it('without a floor, a candidate the dense side ranks low but not absent overturns the keyword winner', () => {
    expect(ids(zscoreFuse(dense, keyword, { ...w, denseFloor: null }, 2))).toEqual(['c', 'k']);
  });

  it('with the floor at 0 (the dense mean) the keyword winner keeps its place; its score is the one that orders', () => {
    const fused = zscoreFuse(dense, keyword, { ...w, denseFloor: 0 }, 12);
    expect(ids(fused).slice(0, 2)).toEqual(['k', 'c']);
    expect(fused.map((f) => f.score)).toEqual([...fused.map((f) => f.score)].sort((a, b) => b - a));
    // both sit below the dense mean (k absent, c near the bottom): the dense side adds 0 to each, keyword decides
    const kwOnly = zscoreFuse(dense, keyword, { denseWeight: 0, keywordWeight: 0.7 }, 12);
    for (const id of ['k', 'c'])
      expect(fused.find((f) => f.id === id)?.score).toBeCloseTo(kwOnly.find((f) => f.id === id)?.score ?? NaN, 12);
  });

  it('still lets strong dense evidence (above the mean) lift a candidate', () => {
    const fused = zscoreFuse(dense, keyword, { denseWeight: 0.7, keywordWeight: 0.3, denseFloor: 0 }, 3);
    expect(ids(fused)[0]).toBe('d1');
    // the floor changes nothing for candidates at or above the dense mean
    const none = zscoreFuse(dense, keyword, { denseWeight: 0.7, keywordWeight: 0.3, denseFloor: null }, 20);
    const floored = zscoreFuse(dense, keyword, { denseWeight: 0.7, keywordWeight: 0.3, denseFloor: 0 }, 20);
    for (const id of ['d1', 'd2'])
      expect(floored.find((f) => f.id === id)?.score).toBeCloseTo(none.find((f) => f.id === id)?.score ?? NaN, 12);
  });

  it('is the default through fuse and resolveFusion', () => {
    expect(ids(fuse(dense, keyword, resolveFusion(2, w), 2))).toEqual(['k', 'c']);
  });
});

describe('zscoreFuse with denseDepth (issue 25, round 12: a candidate far down the dense list does not decide a keyword near-tie)', () => {
  // planning-heldout8's h8-21 in miniature. The keyword side has a near tie: 'a' (the answer) 10.0, 'r' (another
  // chunk) 9.99. The dense side ranks 'r' 10th, a little above the pool's mean, and 'a' near the bottom (floored
  // at the mean). Without a depth, r's weak dense lift overturns the keyword order; with depth 7 only the dense
  // list's first seven candidates carry dense evidence, so r is fused as no dense candidate and a stays first.
  const top = Array.from({ length: 9 }, (_, i): [string, number] => [`d${i}`, 0.9 - i * 0.02]);
  const tail = Array.from({ length: 88 }, (_, i): [string, number] => [`t${i}`, 0.5 - i * 0.001]);
  const dense = list(...top, ['r', 0.7], ...tail, ['a', 0.3]);
  const keyword = list(['a', 10], ['r', 9.99], ['k3', 6], ['k4', 5]);
  const w = { denseWeight: 0.1, keywordWeight: 0.9, denseConfidence: 1, denseFloor: 0 };

  it('without a depth, the 10th dense candidate overturns the keyword winner', () => {
    expect(ids(zscoreFuse(dense, keyword, { ...w, denseDepth: null }, 2))).toEqual(['r', 'a']);
  });

  it('with depth 7 the keyword winner keeps its place, and the reported score orders the results', () => {
    const fused = zscoreFuse(dense, keyword, { ...w, denseDepth: 7 }, 20);
    expect(ids(fused).slice(0, 2)).toEqual(['a', 'r']);
    expect(fused.map((f) => f.score)).toEqual([...fused.map((f) => f.score)].sort((a, b) => b - a));
    // r keeps its dense rank (reported) but gains nothing from it: its score is the keyword-only one
    const r = fused.find((f) => f.id === 'r');
    expect(r?.denseRank).toBe(10);
    const kwOnly = zscoreFuse(dense, keyword, { ...w, denseWeight: 0 }, 20);
    expect(r?.score).toBeCloseTo(kwOnly.find((f) => f.id === 'r')?.score ?? NaN, 12);
  });

  it("still lets the dense list's first candidates lift (d0, no keyword match, above t0, also none)", () => {
    const fused = zscoreFuse(dense, keyword, { ...w, denseDepth: 7 }, 20);
    expect(fused.find((f) => f.id === 'd0')?.score).toBeGreaterThan(fused.find((f) => f.id === 't0')?.score ?? NaN);
  });

  it('reaches fuse through resolveFusion (off by default), and is validated', () => {
    expect(ids(fuse(dense, keyword, resolveFusion(2, { denseDepth: 7 }), 2))).toEqual(['a', 'r']);
    expect(ids(fuse(dense, keyword, resolveFusion(2, {}), 2))).toEqual(['r', 'a']);
    expect(resolveFusion(10, { denseDepth: null }).denseDepth).toBeNull();
    expect(() => resolveFusion(10, { denseDepth: 0 })).toThrow(/dense depth/);
    expect(() => resolveFusion(10, { denseDepth: 2.5 })).toThrow(/dense depth/);
  });
});
