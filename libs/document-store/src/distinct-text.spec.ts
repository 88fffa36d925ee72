// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Hit } from '@lectern/vector-store';
import { contentLength, distinctText } from './search-documents.js';

/** What distinctText means: of texts equal once lowercased with runs of white space as one space and trimmed, the first. */
const reference = (hits: readonly Hit[]): Hit[] => {
  const seen = new Set<string>();
  return hits.filter((h) => {
    const key = h.text.toLowerCase().replace(/\s+/g, ' ').trim();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/** Deterministic pseudo-random numbers (mulberry32). */
const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const hit = (id: number, text: string): Hit => ({ id: String(id), score: 1 / (id + 1), payload: {}, text });

describe('distinctText', () => {
  it('counts, for every code point, the non-space code units of its lowercase (what \\s leaves)', () => {
    const wrong: number[] = [];
    for (let c = 0; c <= 0x10ffff; c++) {
      const ch = String.fromCodePoint(c);
      const lower = ch.toLowerCase();
      if (contentLength(ch) !== lower.replace(/\s/g, '').length) wrong.push(c);
    }
    expect(wrong).toEqual([]);
    expect(contentLength(' \tİ x\u00a0')).toBe(3);
  });

  it('keeps the same hits as comparing every normalised text (case, white space runs, trimming, look-alikes)', () => {
    const next = rng(28);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    // White space of every kind, and code units that look like it but are not \s (zero-width space, NEL).
    const gaps = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u200b', '\u0085', ''];
    const words = ['Plan', 'plan', 'PLAN', 'İstanbul', 'i̇stanbul', 'ΟΔΟΣ', 'οδος', 'Straße', 'a', 'b', 'policy 5'];
    const base = Array.from({ length: 12 }, () =>
      Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(words)),
    );
    let dropped = 0;
    for (let round = 0; round < 400; round++) {
      const hits = Array.from({ length: 2 + Math.floor(next() * 14) }, (_, i) => {
        const ws = pick(base);
        const text =
          pick(gaps) + ws.map((w) => (next() < 0.3 ? w.toUpperCase() : w)).join(pick(gaps) || ' ') + pick(gaps);
        return hit(i, text);
      });
      const want = reference(hits);
      dropped += hits.length - want.length;
      expect(distinctText(hits).map((h) => h.id)).toEqual(want.map((h) => h.id));
    }
    expect(dropped).toBeGreaterThan(100); // the texts do repeat, in every spelling
  });
});
