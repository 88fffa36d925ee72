// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * A small seeded PRNG (mulberry32) for property tests without a property-testing library in node_modules: the
 * same seed gives the same cases. Returns `next()`, a number in `[0, 1)`.
 */
export const seededUnit = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** The same generator as integers: `next(n)`, an integer in `[0, n)`. */
export const seededRandom = (seed: number): ((n: number) => number) => {
  const next = seededUnit(seed);
  return (n) => Math.floor(next() * n);
};
