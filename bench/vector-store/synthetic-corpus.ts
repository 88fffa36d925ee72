// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Synthetic chunks for the vector-store benchmark: 384-d unit vectors drawn around 256 cluster centres
 * (so neighbourhoods exist, like real embeddings) and ~120-word texts over a 50k-word Zipf vocabulary
 * (so posting lists have realistic lengths). Deterministic (seeded) so runs are comparable.
 */
import type { Point } from '@lectern/vector-store';

export const DIM = 384;

export const rng = (seed: number) => (): number => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const VOCAB = 50_000;
const STOP = 200; // the 200 most frequent "words" play stopwords: queries skip them (content words have df < ~5%)
const syllables = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tus',
  'vel',
  'dor',
  'pha',
  'qui',
  'zen',
  'bor',
  'sti',
  'gal',
  'mun',
  'tra',
  'xe',
];

export class Corpus {
  private readonly next: () => number;
  private readonly words: string[];
  private readonly cdf: Float64Array;
  private readonly centres: Float32Array[];

  constructor(seed = 42) {
    this.next = rng(seed);
    this.words = Array.from({ length: VOCAB }, (_, i) => {
      let w = '';
      let n = i + 1;
      do {
        w += syllables[n % syllables.length];
        n = Math.floor(n / syllables.length);
      } while (n > 0);
      return w;
    });
    this.cdf = new Float64Array(VOCAB);
    let acc = 0;
    for (let i = 0; i < VOCAB; i++) this.cdf[i] = acc += 1 / (i + 1) ** 1.07;
    for (let i = 0; i < VOCAB; i++) this.cdf[i]! /= acc;
    this.centres = Array.from({ length: 256 }, () => this.unit(this.gauss(1)));
  }

  private gauss(scale: number): Float32Array {
    const v = new Float32Array(DIM);
    for (let i = 0; i < DIM; i++) {
      const u = Math.max(this.next(), 1e-12);
      v[i] = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next()) * scale;
    }
    return v;
  }

  private unit(v: Float32Array): Float32Array {
    let n = 0;
    for (const x of v) n += x * x;
    n = Math.sqrt(n);
    for (let i = 0; i < v.length; i++) v[i]! /= n;
    return v;
  }

  private word(minRank = 0): string {
    for (;;) {
      const u = this.next();
      let lo = 0;
      let hi = VOCAB - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.cdf[mid]! < u) lo = mid + 1;
        else hi = mid;
      }
      if (lo >= minRank) return this.words[lo]!;
    }
  }

  vector(): Float32Array {
    const c = this.centres[Math.floor(this.next() * this.centres.length)]!;
    const v = this.gauss(0.06);
    for (let i = 0; i < DIM; i++) v[i]! += c[i]!;
    return this.unit(v);
  }

  text(words = 120): string {
    return Array.from({ length: words }, () => this.word()).join(' ');
  }

  point(i: number): Point {
    return {
      id: `doc${Math.floor(i / 50)}:${i % 50}`,
      vector: this.vector(),
      text: this.text(),
      payload: {
        document_id: `doc${Math.floor(i / 50)}`,
        chunk_index: i % 50,
        document_type: ['policy', 'report', 'decision', 'letter', 'plan'][i % 5],
        tags: [`t${i % 7}`, `t${i % 11}`],
      },
    };
  }

  /** A query: 3-6 content words (no stopwords) and a vector near a cluster centre. */
  query(): { text: string; vector: Float32Array } {
    const n = 3 + Math.floor(this.next() * 4);
    return { text: Array.from({ length: n }, () => this.word(STOP)).join(' '), vector: this.vector() };
  }
}
