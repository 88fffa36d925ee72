// SPDX-License-Identifier: AGPL-3.0-or-later
import { DenseIndex } from './dense-index.js';
import { buildShared, SharedMatrix } from './shared-matrix.js';

/** Deterministic rows (a small LCG): every run builds the same matrix. */
const rows = (n: number, dim: number, seed = 11): [number, Float32Array][] => {
  const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  return Array.from({ length: n }, (_, i) => [i * 3 + 1, Float32Array.from({ length: dim }, rnd)]);
};

describe('SharedMatrix (one read-only matrix in shared memory, a scratch area per worker slot)', () => {
  const dim = 24;
  const data = rows(3000, dim);
  const index = new DenseIndex(dim, 1);
  for (const [rid, v] of data) index.set(rid, v);
  const handle = buildShared({ cid: 1, version: 1, dimension: dim, slots: 2 }, data.length, data);
  const queries = rows(8, dim, 99).map(([, v]) => v);

  it('is in shared memory, and ranks exactly as DenseIndex (int8 scan + exact rescoring, small and large k)', () => {
    expect(handle.floats).toBeInstanceOf(SharedArrayBuffer);
    expect(handle.memory.buffer).toBeInstanceOf(SharedArrayBuffer);
    const views = [new SharedMatrix(handle, 0), new SharedMatrix(handle, 1)];
    for (const q of queries)
      for (const k of [1, 10, 300]) {
        const expected = index.search(q, k);
        expect(expected).toHaveLength(k);
        for (const m of views) expect(m.search(q, k, undefined, new Set()).sorted()).toEqual(expected);
      }
  });

  it('honours `allowed` (selective and broad) and leaves out `skip` rows as if removed', () => {
    const m = new SharedMatrix(handle, 1);
    const selective = data.filter((_, i) => i % 17 === 0).map(([rid]) => rid);
    const broad = data.filter((_, i) => i % 3 !== 0).map(([rid]) => rid);
    const skip = new Set(data.filter((_, i) => i % 5 === 0).map(([rid]) => rid));
    const without = new DenseIndex(dim, 1);
    for (const [rid, v] of data) if (!skip.has(rid)) without.set(rid, v);
    for (const q of queries) {
      expect(m.search(q, 10, selective, new Set()).sorted()).toEqual(index.search(q, 10, selective));
      expect(m.search(q, 10, broad, new Set()).sorted()).toEqual(index.search(q, 10, broad));
      expect(m.search(q, 10, undefined, skip).sorted()).toEqual(without.search(q, 10));
      expect(m.search(q, 10, broad, skip).sorted()).toEqual(without.search(q, 10, broad));
    }
  });

  it('finds rows by rid (binary search) and refuses rows out of order or a slot it has no room for', () => {
    const m = new SharedMatrix(handle, 0);
    expect(m.indexOf(1)).toBe(0);
    expect(m.indexOf(data[2999]![0])).toBe(2999);
    expect(m.indexOf(2)).toBe(-1);
    expect(() => new SharedMatrix(handle, 2)).toThrow(RangeError);
    expect(() => buildShared({ cid: 1, version: 1, dimension: dim, slots: 1 }, 2, [data[1]!, data[0]!])).toThrow(
      /ascending rid/,
    );
    expect(() => buildShared({ cid: 1, version: 1, dimension: dim, slots: 1 }, 3, data.slice(0, 2))).toThrow(
      /2 rows given, 3 expected/,
    );
  });
});
