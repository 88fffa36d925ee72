// SPDX-License-Identifier: AGPL-3.0-or-later
import { FUSION_DEFAULTS } from './fusion.js';
import type { EmbeddingFingerprint, Hit, HybridOptions, Point, VectorStore } from './vector-store.port.js';

/** What the hybrid part of the contract needs from `runVectorStoreContract`. */
export interface HybridContractContext {
  store: () => VectorStore;
  model: EmbeddingFingerprint;
  /** A fresh collection with the six contract documents. */
  seeded: (label: string, hybrid?: boolean) => Promise<string>;
  /** A fresh, empty, hybrid collection name (dropped after the test). */
  fresh: (label: string) => string;
  unit: (...v: number[]) => number[];
  code: (p: Promise<unknown>) => Promise<string>;
}

/**
 * Hybrid search behaviour (part of `runVectorStoreContract`). The z-score cases compute the expected fused
 * scores from the same store's own dense and keyword results, so they hold whatever keyword scorer the engine
 * uses (BM25 embedded, IDF sums on Qdrant).
 */
export const runHybridContract = (t: HybridContractContext): void => {
  const ids = (hits: Hit[]): string[] => hits.map((h) => h.id);
  const MODEL = t.model;
  const { unit } = t;

  /**
   * y: the dense list's clear winner, absent from the keyword list. x: 1st by keyword, a weak 2nd by dense.
   * m: the keyword list's other entry. f1..f5: dense-only filler (every point is a dense candidate).
   * RRF sees ranks only (y: dense 1st; x: dense 2nd + keyword 1st, so x wins at any weights); z-score fusion
   * sees that y stands far above the dense mean, so with equal weights y wins.
   */
  const disagreement = async (): Promise<{ name: string; q: { vector: number[]; text: string } }> => {
    const name = t.fresh('zscore');
    const points: Point[] = [
      { id: 'y', vector: unit(1, 0, 0, 0), text: 'gamma delta epsilon', payload: { document_id: 'dy' } },
      { id: 'x', vector: unit(0.1, 1, 0, 0), text: 'alpha beta', payload: { document_id: 'dx' } },
      { id: 'm', vector: unit(0.06, 0, 1, 0), text: 'alpha zeta', payload: { document_id: 'dm' } },
      ...[1, 2, 3, 4, 5].map((i) => ({
        id: `f${i}`,
        vector: unit(0.01 * i, 0, 0, 1),
        text: `filler number ${i}`,
        payload: { document_id: 'df' },
      })),
    ];
    await t.store().ensureCollection(name, { fingerprint: MODEL, hybrid: true });
    await t.store().upsert(name, points, { fingerprint: MODEL });
    return { name, q: { vector: unit(1, 0, 0, 0), text: 'alpha beta' } };
  };

  /** Expected z-score fusion of the store's own full dense and keyword lists (the formula, written out again). */
  const expectedZ = async (
    name: string,
    q: { vector: number[]; text: string },
    wd: number,
    wk: number,
    gamma = 0,
    // The dense z a candidate is fused with at least (FUSION_DEFAULTS.denseFloor: the dense pool's mean, 0).
    floor = FUSION_DEFAULTS.denseFloor ?? Number.NEGATIVE_INFINITY,
  ): Promise<Map<string, number>> => {
    const dense = await t.store().searchDense(name, q.vector, { fingerprint: MODEL, limit: 100 });
    const keyword = await t.store().searchKeyword(name, q.text, { limit: 100 });
    // `zeros` candidates of score 0 join the statistics: the dense pool's points that matched no keyword.
    const z = (list: Hit[], zeros = 0): { at: Map<string, number>; zero: number } => {
      const n = list.length + zeros;
      const mean = list.reduce((a, h) => a + h.score, 0) / n;
      const sd = Math.sqrt((list.reduce((a, h) => a + (h.score - mean) ** 2, 0) + zeros * mean ** 2) / n) || 1;
      return { at: new Map(list.map((h) => [h.id, (h.score - mean) / sd])), zero: -mean / sd };
    };
    const zd = z(dense).at;
    const padded = z(keyword, Math.max(0, dense.length - keyword.length));
    const zk = padded.at;
    const minD = Math.min(...zd.values());
    const minK = dense.length > keyword.length ? padded.zero : Math.min(...zk.values());
    const all = new Set([...zd.keys(), ...zk.keys()]);
    // denseConfidence (gamma): the dense weight times min(1, best dense z / best keyword z)^gamma.
    const topD = Math.max(...zd.values());
    const topK = Math.max(...zk.values());
    const w = gamma > 0 && topK > 0 ? wd * Math.min(1, Math.max(0, topD) / topK) ** gamma : wd;
    // denseDepth: a point below the dense list's first `depth` counts as no dense candidate (its minimum z).
    const depth = FUSION_DEFAULTS.denseDepth ?? Number.POSITIVE_INFINITY;
    const deep = new Set(dense.slice(0, depth).map((h) => h.id));
    const dz = (id: string): number => (deep.has(id) ? (zd.get(id) ?? minD) : minD);
    return new Map([...all].map((id) => [id, w * Math.max(floor, dz(id)) + wk * (zk.get(id) ?? minK)]));
  };

  it('fuses by default with z-scores at FUSION_DEFAULTS (0.1 dense + 0.9 keyword, dense confidence 1, dense floor 0); a point the keyword side did not match scores as keyword 0', async () => {
    const { name, q } = await disagreement();
    const hits = await t.store().searchHybrid(name, q, { fingerprint: MODEL, limit: 10 });
    const { denseWeight: dw, keywordWeight: kw, denseConfidence: gamma, denseFloor } = FUSION_DEFAULTS;
    expect([dw, kw, gamma, denseFloor]).toEqual([0.1, 0.9, 1, 0]);
    const expected = await expectedZ(name, q, dw, kw, gamma);
    expect(hits).toHaveLength(8);
    for (const h of hits) expect(h.score).toBeCloseTo(expected.get(h.id) ?? NaN, 5);
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    // x (both query words) first; m (one of them) now ahead of y, the dense winner that matched no word.
    expect(ids(hits).slice(0, 3)).toEqual(['x', 'm', 'y']);
    expect(hits[0]).toMatchObject({ denseRank: 2, keywordRank: 1 });
    expect(hits[2]).toMatchObject({ denseRank: 1 });
    expect(hits[2]?.keywordRank).toBeUndefined();
    // y is absent from the keyword list: it scores as keyword 0 among the 8-point pool (x, m matched; 6 zeros),
    // the same keyword z as every other unmatched point.
    const y = hits[2] as Hit;
    const kwOnly = await expectedZ(name, q, 0, 1);
    expect(kwOnly.get('y')).toBeLessThan(0);
    expect(kwOnly.get('f1')).toBeCloseTo(kwOnly.get('y') ?? NaN, 10);
    expect(kwOnly.get('x')).toBeGreaterThan(kwOnly.get('m') ?? NaN);
    const yDense = (await expectedZ(name, q, 1, 0)).get('y') ?? NaN;
    expect(y.score).toBeLessThan(dw * yDense); // its keyword part (z of a 0 score) is negative
    // The explicit method name gives the same result.
    expect(await t.store().searchHybrid(name, q, { fingerprint: MODEL, limit: 10, fusion: 'zscore' })).toEqual(hits);
  });

  it('z-score and RRF disagree where a dense hit is confident: 0.8 dense / 0.2 keyword put y first, RRF x', async () => {
    const { name, q } = await disagreement();
    const denseLed: HybridOptions = { fingerprint: MODEL, limit: 3, denseWeight: 0.8, keywordWeight: 0.2 };
    const z = await t.store().searchHybrid(name, q, denseLed);
    expect(ids(z).slice(0, 2)).toEqual(['y', 'x']);
    const expected = await expectedZ(name, q, 0.8, 0.2);
    for (const h of z) expect(h.score).toBeCloseTo(expected.get(h.id) ?? NaN, 5);
    const rrf = await t.store().searchHybrid(name, q, { ...denseLed, fusion: 'rrf' });
    // RRF: x (dense 2nd + keyword 1st) first, then m (dense 3rd + keyword 2nd), y (dense 1st only) third.
    expect(ids(rrf)).toEqual(['x', 'm', 'y']);
    expect(rrf[0]?.score).toBeCloseTo(0.8 / 62 + 0.2 / 61, 6);
  });

  it('respects the weights: dense only, keyword only, and everything in between', async () => {
    const { name, q } = await disagreement();
    const run = (denseWeight: number, keywordWeight: number) =>
      t.store().searchHybrid(name, q, { fingerprint: MODEL, limit: 8, denseWeight, keywordWeight });
    // Keyword weight 0: the dense order (cosine, best first) whatever the keyword side says.
    const denseOrder = ids(await t.store().searchDense(name, q.vector, { fingerprint: MODEL, limit: 8 }));
    expect(ids(await run(1, 0))).toEqual(denseOrder);
    // Dense weight 0: x (the best keyword z) first, then m, then every unmatched point at one score (keyword 0).
    const kwOnly = await run(0, 1);
    const kwExpected = await expectedZ(name, q, 0, 1);
    expect(ids(kwOnly).slice(0, 2)).toEqual(['x', 'm']);
    for (const h of kwOnly) expect(h.score).toBeCloseTo(kwExpected.get(h.id) ?? NaN, 6);
    for (const h of kwOnly.slice(2)) expect(h.score).toBeCloseTo(kwOnly[2]?.score ?? NaN, 10);
    for (const [wd, wk] of [
      [0.9, 0.1],
      [0.2, 0.8],
    ] as const) {
      const expected = await expectedZ(name, q, wd, wk);
      for (const h of await run(wd, wk)) expect(h.score).toBeCloseTo(expected.get(h.id) ?? NaN, 5);
    }
  });

  it('fusion: "rrf" sums weight / (k + rank), reports component ranks, and weights and k change the order', async () => {
    const name = await t.seeded('hybrid');
    const q = { vector: unit(1, 0, 0, 0), text: 'quarks' };
    const rrf: HybridOptions = {
      fingerprint: MODEL,
      limit: 6,
      fusion: 'rrf',
      rrfK: 60,
      denseWeight: 1,
      keywordWeight: 1,
    };
    const hits = await t.store().searchHybrid(name, q, rrf);
    expect(hits[0]).toMatchObject({ id: 'c', denseRank: 3, keywordRank: 1 });
    expect(hits.find((h) => h.id === 'a')).toMatchObject({ denseRank: 1 });
    expect(hits.find((h) => h.id === 'a')?.keywordRank).toBeUndefined();
    for (const h of hits) {
      const expected = (h.denseRank ? 1 / (60 + h.denseRank) : 0) + (h.keywordRank ? 1 / (60 + h.keywordRank) : 0);
      expect(h.score).toBeCloseTo(expected, 6);
    }
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((x, y) => y - x));
    // Two dense candidates (a, b) and one keyword candidate (c): equal weights tie a and c, weights decide.
    const opts: HybridOptions = { ...rrf, limit: 3, candidates: 2 };
    expect(ids(await t.store().searchHybrid(name, q, { ...opts, keywordWeight: 2 }))).toEqual(['c', 'a', 'b']);
    expect(ids(await t.store().searchHybrid(name, q, { ...opts, denseWeight: 2 }))).toEqual(['a', 'b', 'c']);
    const both = await t
      .store()
      .searchHybrid(name, { vector: unit(0, 0, 1, 0), text: 'cat kennel' }, { ...rrf, limit: 2, rrfK: 1 });
    expect(ids(both)[0]).toBe('d');
    expect(both[0]).toMatchObject({ denseRank: 1, keywordRank: 1 });
    expect(await t.code(t.store().searchHybrid(name, q, { ...rrf, fusion: 'max' as never }))).toBe('invalid_arguments');
  });

  it('with no keyword match, both methods return the dense order', async () => {
    const name = await t.seeded('hybrid-nomatch');
    const q = { vector: unit(4, 3, 2, 1), text: 'xylophone' };
    const denseOrder = ids(await t.store().searchDense(name, q.vector, { fingerprint: MODEL, limit: 6 }));
    expect(denseOrder).toHaveLength(6);
    for (const fusion of ['zscore', 'rrf'] as const) {
      const hits = await t.store().searchHybrid(name, q, { fingerprint: MODEL, limit: 6, fusion });
      expect(ids(hits)).toEqual(denseOrder);
      for (const h of hits) expect(h.keywordRank).toBeUndefined();
    }
  });

  it('hybrid honours filters on both sides and needs the full-text index', async () => {
    const name = await t.seeded('hybrid-filter');
    for (const fusion of ['zscore', 'rrf'] as const) {
      const q = { vector: unit(1, 0, 0, 0), text: 'cat quarks' };
      const hits = await t
        .store()
        .searchHybrid(name, q, { fingerprint: MODEL, limit: 10, filter: { document_type: 'report' }, fusion });
      expect(ids(hits).sort()).toEqual(['c', 'd']);
    }
    const plain = await t.seeded('dense-only', false);
    const q = { vector: unit(1, 0, 0, 0), text: 'cat' };
    expect(await t.code(t.store().searchHybrid(plain, q, { fingerprint: MODEL, limit: 3 }))).toBe(
      'HYBRID_NOT_SUPPORTED',
    );
  });

  it('keyword side: title and section path are searched, codes and labelled numbers match as one unit', async () => {
    const name = t.fresh('lexical');
    const store = t.store();
    await store.ensureCollection(name, { fingerprint: MODEL, hybrid: true });
    await store.upsert(
      name,
      [
        {
          id: 's',
          vector: unit(1, 0, 0, 0),
          text: 'Carriageway widths.',
          payload: { source_title: 'Manual for Streets' },
        },
        {
          id: 'w',
          vector: unit(0, 1, 0, 0),
          text: 'Wiring the MR-J5-60G4 amplifier.',
          payload: { section_path: ['Installation'] },
        },
        { id: 'p', vector: unit(0, 0, 1, 0), text: 'Para 11 sets out the presumption.', payload: {} },
        { id: 'o', vector: unit(0, 0, 0, 1), text: 'Streets, para 3 and 11 buses; J5 wiring.', payload: {} },
      ],
      { fingerprint: MODEL },
    );
    const kw = async (q: string): Promise<string[]> => ids(await store.searchKeyword(name, q, { limit: 10 }));
    expect(await kw('manual')).toEqual(['s']);
    expect(await kw('installation')).toEqual(['w']);
    expect((await kw('MR-J5-60G4'))[0]).toBe('w');
    expect((await kw('Para 11'))[0]).toBe('p');
  });

  it('keyword side: document evidence, when asked, lifts a document that matches in two chunks over a lone chunk (round 10)', async () => {
    const store = t.store();
    const name = t.fresh('evidence');
    await store.ensureCollection(name, { fingerprint: MODEL, hybrid: true });
    const filler = Array.from({ length: 12 }, (_, i) => ({
      id: `f${i}`,
      vector: unit(1, 0, 0, 0.01 * (i + 1)),
      text: `Parking standards for offices, zone ${i}.`,
      payload: { document_id: `F${i}` },
    }));
    await store.upsert(
      name,
      [
        { id: 'x', vector: unit(0, 1, 0, 0), text: 'River bridge inspection.', payload: { document_id: 'X' } },
        { id: 'd1', vector: unit(0, 0, 1, 0), text: 'River bridge report.', payload: { document_id: 'D' } },
        { id: 'd2', vector: unit(0, 0, 0, 1), text: 'Bridge maintenance programme.', payload: { document_id: 'D' } },
        ...filler,
      ],
      { fingerprint: MODEL },
    );
    const q = { vector: unit(1, 1, 1, 1), text: 'river bridge inspection' };
    const run = (documentEvidence?: number) =>
      store.searchHybrid(name, q, {
        fingerprint: MODEL,
        limit: 3,
        denseWeight: 0,
        keywordWeight: 1,
        ...(documentEvidence !== undefined ? { documentEvidence } : {}),
      });
    // Off (the default): x holds every query word.
    expect((await run())[0]?.id).toBe('x');
    // On: D's chunks gain each other's score and pass x; the order is the score.
    const on = await run(2);
    expect(['d1', 'd2']).toContain(on[0]?.id);
    expect(on.map((h) => h.score)).toEqual([...on.map((h) => h.score)].sort((a, b) => b - a));
  });

  it('dense depth, when asked, takes the dense evidence of candidates ranked below it (round 12)', async () => {
    const store = t.store();
    const name = t.fresh('dense-depth');
    await store.ensureCollection(name, { fingerprint: MODEL, hybrid: true });
    await store.upsert(
      name,
      [
        // a: the dense winner, no keyword match; b and c: dense 2nd and 3rd (well above the pool's mean), both
        // keyword matches; f1..f5: far below.
        { id: 'a', vector: unit(1, 0, 0, 0), text: 'gamma delta', payload: { document_id: 'A' } },
        { id: 'b', vector: unit(1, 0.5, 0, 0), text: 'alpha beta', payload: { document_id: 'B' } },
        { id: 'c', vector: unit(1, 0.6, 0, 0), text: 'alpha beta epsilon', payload: { document_id: 'C' } },
        ...[1, 2, 3, 4, 5].map((i) => ({
          id: `f${i}`,
          vector: unit(0.01 * i, 0, 0, 1),
          text: `filler number ${i}`,
          payload: { document_id: 'F' },
        })),
      ],
      { fingerprint: MODEL },
    );
    const q = { vector: unit(1, 0, 0, 0), text: 'alpha beta' };
    const opts: HybridOptions = { fingerprint: MODEL, limit: 10, denseWeight: 0.5, keywordWeight: 0.5 };
    const score = (hits: Hit[], id: string): number => hits.find((h) => h.id === id)?.score ?? NaN;
    const all = await store.searchHybrid(name, q, opts);
    const deep1 = await store.searchHybrid(name, q, { ...opts, denseDepth: 1 });
    const keywordOnly = await store.searchHybrid(name, q, { ...opts, denseWeight: 0 });
    expect(all.find((h) => h.id === 'b')?.denseRank).toBe(2);
    for (const id of ['b', 'c']) {
      // beyond the depth: no dense lift, exactly the keyword-only score (the floor makes an absent dense side 0)
      expect(score(deep1, id)).toBeCloseTo(score(keywordOnly, id), 10);
      // without it: the dense side lifts it
      expect(score(all, id)).toBeGreaterThan(score(keywordOnly, id) + 1e-6);
    }
    // the dense winner, within the depth, keeps its score; the reported score orders both lists
    expect(score(deep1, 'a')).toBeCloseTo(score(all, 'a'), 10);
    for (const hits of [all, deep1])
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((x, y) => y - x));
  });

  it('keyword side: document evidence with a span takes none from a neighbouring chunk (chunk_index; round 11)', async () => {
    const store = t.store();
    const name = t.fresh('evidence-span');
    await store.ensureCollection(name, { fingerprint: MODEL, hybrid: true });
    const filler = Array.from({ length: 12 }, (_, i) => ({
      id: `f${i}`,
      vector: unit(1, 0, 0, 0.01 * (i + 1)),
      text: `Parking standards for offices, zone ${i}.`,
      payload: { document_id: `F${i}`, chunk_index: 0 },
    }));
    await store.upsert(
      name,
      [
        // D: two neighbouring chunks repeating the same words (spec 000's overlap); X: a match and, far from it,
        // a chunk holding one of the words.
        {
          id: 'd1',
          vector: unit(0, 0, 1, 0),
          text: 'River bridge inspection report.',
          payload: { document_id: 'D', chunk_index: 4 },
        },
        {
          id: 'd2',
          vector: unit(0, 0, 0, 1),
          text: 'River bridge inspection notes.',
          payload: { document_id: 'D', chunk_index: 5 },
        },
        {
          id: 'x',
          vector: unit(0, 1, 0, 0),
          text: 'River bridge inspection.',
          payload: { document_id: 'X', chunk_index: 0 },
        },
        { id: 'x9', vector: unit(0, 1, 1, 0), text: 'Bridge works.', payload: { document_id: 'X', chunk_index: 9 } },
        ...filler,
      ],
      { fingerprint: MODEL },
    );
    const q = { vector: unit(1, 1, 1, 1), text: 'river bridge inspection' };
    const run = (documentEvidenceSpan: number) =>
      store.searchHybrid(name, q, {
        fingerprint: MODEL,
        limit: 4,
        denseWeight: 0,
        keywordWeight: 1,
        documentEvidence: 2,
        documentEvidenceSpan,
      });
    // Span 0: D's neighbours lift each other past X.
    expect(['d1', 'd2']).toContain((await run(0))[0]?.id);
    // Span 1: the neighbour is no evidence; X's far chunk is, and X leads. The order is the score.
    const apart = await run(1);
    expect(['x', 'x9']).toContain(apart[0]?.id);
    expect(apart.map((h) => h.score)).toEqual([...apart.map((h) => h.score)].sort((a, b) => b - a));
  });
};
