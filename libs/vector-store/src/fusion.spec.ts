import { FUSION_DEFAULTS, resolveFusion, rrfFuse } from './fusion.js';

describe('resolveFusion', () => {
  it('takes per-call options over store defaults over FUSION_DEFAULTS', () => {
    expect(resolveFusion(10, {})).toEqual({ rrfK: FUSION_DEFAULTS.rrfK, denseWeight: 1, keywordWeight: 1, candidates: 50 });
    expect(resolveFusion(20, {}, { rrfK: 10, keywordWeight: 2 })).toEqual({ rrfK: 10, denseWeight: 1, keywordWeight: 2, candidates: 80 });
    expect(resolveFusion(20, { rrfK: 5, candidates: 7 }, { rrfK: 10 })).toMatchObject({ rrfK: 5, candidates: 7 });
  });

  it('refuses k < 1, negative weights and bad candidate counts', () => {
    expect(() => resolveFusion(10, { rrfK: 0 })).toThrow(/rrfK/);
    expect(() => resolveFusion(10, { denseWeight: -1 })).toThrow();
    expect(() => resolveFusion(10, { candidates: 2.5 })).toThrow();
  });
});

describe('rrfFuse', () => {
  it('sums weight / (k + rank) over both lists and records the ranks', () => {
    const fused = rrfFuse(['a', 'b', 'c'], ['c', 'd'], { rrfK: 60, denseWeight: 1, keywordWeight: 1, candidates: 3 }, 10);
    expect(fused[0]).toEqual({ id: 'c', score: 1 / 63 + 1 / 61, denseRank: 3, keywordRank: 1 });
    expect(fused.map((f) => f.id)).toEqual(['c', 'a', 'b', 'd']);
    expect(fused.find((f) => f.id === 'd')).toEqual({ id: 'd', score: 1 / 62, keywordRank: 2 });
  });

  it('breaks ties by dense rank, then keyword rank, and cuts at the limit', () => {
    const fused = rrfFuse(['a'], ['b'], { rrfK: 1, denseWeight: 1, keywordWeight: 1, candidates: 1 }, 1);
    expect(fused).toEqual([{ id: 'a', score: 0.5, denseRank: 1 }]);
    const kw = rrfFuse(['a'], ['b'], { rrfK: 1, denseWeight: 0, keywordWeight: 1, candidates: 1 }, 2);
    expect(kw.map((f) => f.id)).toEqual(['b', 'a']);
  });
});
