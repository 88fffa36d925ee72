// SPDX-License-Identifier: AGPL-3.0-or-later
import { DenseIndex, roughCandidates, TopK } from './dense-index.js';

/** Deterministic pseudo-random vectors (mulberry32). */
const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
};

const cosine = (a: Float32Array, b: Float32Array): number => {
  let d = 0,
    na = 0,
    nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return d / Math.sqrt(na * nb);
};

describe('DenseIndex', () => {
  it.each([3, 8, 13, 384])(
    'matches brute-force cosine top-k at dimension %i, through growth, replacement and removal',
    (dim) => {
      const next = rng(dim);
      const vec = (): Float32Array => Float32Array.from({ length: dim }, next);
      const rows = new Map<number, Float32Array>();
      const idx = new DenseIndex(dim, 0, 16);
      for (let rid = 1; rid <= 300; rid++) {
        const v = vec();
        rows.set(rid, v);
        idx.set(rid, v);
      }
      for (let rid = 1; rid <= 300; rid += 7) {
        const v = vec();
        rows.set(rid, v);
        idx.set(rid, v);
      }
      for (let rid = 2; rid <= 300; rid += 5) {
        rows.delete(rid);
        idx.remove(rid);
      }
      expect(idx.length).toBe(rows.size);
      const q = vec();
      const expected = [...rows].map(([rid, v]): [number, number] => [rid, cosine(v, q)]).sort((a, b) => b[1] - a[1]);
      const got = idx.search(q, 10);
      expect(got.map(([rid]) => rid)).toEqual(expected.slice(0, 10).map(([rid]) => rid));
      got.forEach(([, s], i) => expect(s).toBeCloseTo(expected[i]![1], 5));

      const few = [...rows.keys()].filter((rid) => rid % 3 === 0).slice(0, 10); // selective: per-row path
      const many = [...rows.keys()].filter((rid) => rid % 2 === 0); // broad: SIMD scan + mask
      for (const allowed of [few, many]) {
        const exp = expected
          .filter(([rid]) => allowed.includes(rid))
          .slice(0, 5)
          .map(([rid]) => rid);
        expect(idx.search(q, 5, allowed).map(([rid]) => rid)).toEqual(exp);
      }
      expect(idx.search(q, 5, [])).toEqual([]);
    },
  );

  it('int8 pre-selection with exact rescoring returns the exact top 10 on 5,000 x 384-d clustered vectors', () => {
    const next = rng(99);
    const dim = 384;
    const centres = Array.from({ length: 20 }, () => Float32Array.from({ length: dim }, next));
    const vec = (): Float32Array => {
      const c = centres[Math.floor((next() + 0.5) * centres.length) % centres.length]!;
      return Float32Array.from({ length: dim }, (_, j) => c[j]! + next() * 0.3);
    };
    const idx = new DenseIndex(dim, 0);
    const rows = Array.from({ length: 5000 }, () => vec());
    rows.forEach((v, i) => idx.set(i + 1, v));
    for (let t = 0; t < 10; t++) {
      const q = vec();
      const exact = rows
        .map((v, i): [number, number] => [i + 1, cosine(v, q)])
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10);
      const got = idx.search(q, 10);
      expect(got.map(([rid]) => rid)).toEqual(exact.map(([rid]) => rid));
      got.forEach(([, s], i) => expect(s).toBeCloseTo(exact[i]![1], 5));
    }
  });

  it('selects its scan candidates exactly as offering every row to a TopK would (ties, skipped rows, filters)', () => {
    const next = rng(7);
    const count = 2000;
    // Few distinct scan scores, so that many rows tie with the worst kept candidate.
    const i32 = Int32Array.from({ length: count + 5 }, () => Math.round(next() * 400));
    const scales = Float32Array.from({ length: count }, () => (next() < 0.5 ? 0.5 : 1));
    const norms = Float32Array.from({ length: count }, () => (next() < 0.5 ? 1 : 2));
    const skip = (i: number): boolean => i % 11 === 3;
    const slots = Array.from({ length: 300 }, (_, j) => (j * 7) % count);
    for (const candidates of [1, 10, 128, 3000]) {
      for (const [s, sk] of [
        [undefined, undefined],
        [undefined, skip],
        [slots, undefined],
      ] as const) {
        const want = new TopK(candidates);
        for (const i of s ?? Array.from({ length: count }, (_, i) => i))
          if (!sk?.(i)) want.offer(i, (i32[5 + i]! * scales[i]!) / norms[i]!);
        const got = roughCandidates(i32, 5, scales, norms, count, candidates, s, sk);
        expect(got.sorted()).toEqual(want.sorted());
      }
    }
  });
});
