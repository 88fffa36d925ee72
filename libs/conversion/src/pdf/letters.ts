// SPDX-License-Identifier: AGPL-3.0-or-later
// Hand-written scanners for the few letter-class patterns run over a whole document's text. Why not the regular
// expressions they replace: V8 runs Unicode property classes (`\p{L}`) at ~0.3 µs a character, and a pattern
// such as /(\p{L}+)\u00AD(\p{L}+)/gu backtracks over every letter run it fails on. Measured in one process, old
// and new side by side (docs/benchmarks/conversion.md, "CPU against PyMuPDF"): the Markdown build of gnuplot
// (311 pages) 287 -> 139 ms CPU, its layout 255 -> 158 ms. Each function here gives exactly what its regular expression gives (letters.spec.ts compares
// them on random text), at one table lookup per ASCII character.

const LETTER = /^\p{L}$/u;
const WORD = /^[\p{L}\p{N}]$/u;
/** 1: letter, 2: digit (\p{N}), 0: neither, for code points below 128. */
const ASCII = new Uint8Array(128).map((_, c) =>
  LETTER.test(String.fromCharCode(c)) ? 1 : WORD.test(String.fromCharCode(c)) ? 2 : 0,
);
/** Classes of the non-ASCII code points met so far (a document uses few). */
const seen = new Map<number, number>();

function classOf(cp: number): number {
  if (cp < 128) return ASCII[cp] as number;
  let c = seen.get(cp);
  if (c === undefined) {
    const ch = String.fromCodePoint(cp);
    c = LETTER.test(ch) ? 1 : WORD.test(ch) ? 2 : 0;
    if (seen.size < 65_536) seen.set(cp, c);
  }
  return c;
}

/** \p{L} */
export const isLetter = (cp: number): boolean => classOf(cp) === 1;
/** [\p{L}\p{N}] */
export const isWordChar = (cp: number): boolean => classOf(cp) !== 0;

/** UTF-16 length of the code point at `i` (a lone surrogate is one unit, as in a /u expression). */
const width = (cp: number): number => (cp > 0xffff ? 2 : 1);

/** End of the run of code points from `i` that `test` accepts. */
function runEnd(s: string, i: number, test: (cp: number) => boolean): number {
  while (i < s.length) {
    const cp = s.codePointAt(i) as number;
    if (!test(cp)) break;
    i += width(cp);
  }
  return i;
}

/** `s.match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*\/gu) ?? []`: words, with hyphenated compounds kept whole. */
export function hyphenatedWords(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    const cp = s.codePointAt(i) as number;
    if (!isWordChar(cp)) {
      i += width(cp);
      continue;
    }
    const start = i;
    i = runEnd(s, i, isWordChar);
    while (s.charCodeAt(i) === 45 && i + 1 < s.length && isWordChar(s.codePointAt(i + 1) as number))
      i = runEnd(s, i + 1, isWordChar);
    out.push(s.slice(start, i));
  }
  return out;
}

/**
 * `s.replace(/(\p{L}+)\u00AD(\p{L}+)/gu, (_m, a, z) => join(a, z))`: every soft hyphen with letters on both sides,
 * the letters around it (the left part starting after the previous match), replaced by `join`'s answer.
 */
export function replaceSoftHyphenated(s: string, join: (a: string, z: string) => string): string {
  let out = '';
  let done = 0; // s[0, done) is in `out` (or consumed by a match)
  let from = 0;
  for (let h = s.indexOf('\u00AD', from); h >= 0; h = s.indexOf('\u00AD', from)) {
    // the letters before the soft hyphen, not reaching back into the previous match
    let a = h;
    while (a > done) {
      const lo = s.charCodeAt(a - 1);
      const hi = a - 2 >= done ? s.charCodeAt(a - 2) : 0;
      const pair = lo >= 0xdc00 && lo <= 0xdfff && hi >= 0xd800 && hi <= 0xdbff;
      const cp = pair ? (s.codePointAt(a - 2) as number) : lo;
      if (!isLetter(cp)) break;
      a -= pair ? 2 : 1;
    }
    const z = runEnd(s, h + 1, isLetter);
    if (a === h || z === h + 1) {
      from = h + 1; // no letters on one side: no match here
      continue;
    }
    out += s.slice(done, a) + join(s.slice(a, h), s.slice(h + 1, z));
    done = z;
    from = z;
  }
  return done === 0 ? s : out + s.slice(done);
}

/** `/\p{L}-$/u.test(s)`, without scanning `s` from its start. */
export function endsWithLetterHyphen(s: string): boolean {
  const n = s.length;
  if (n < 2 || s.charCodeAt(n - 1) !== 45) return false;
  const lo = s.charCodeAt(n - 2);
  if (lo >= 0xdc00 && lo <= 0xdfff && n >= 3) {
    const hi = s.charCodeAt(n - 3);
    if (hi >= 0xd800 && hi <= 0xdbff) return isLetter(s.codePointAt(n - 3) as number);
  }
  return isLetter(lo);
}

/**
 * Three letters each written twice in a row ("CCoonn"): what a word of doubled letters (page-layout.ts's
 * `undouble`, which changes a word only when every pair of its letters is doubled, six letters at least) must
 * contain. Most lines have a doubled letter ("all", "see"); few have this.
 */
export function hasThreeDoubledLetters(s: string): boolean {
  for (let j = 0; j + 5 < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c !== s.charCodeAt(j + 1) || s.charCodeAt(j + 2) !== s.charCodeAt(j + 3)) continue;
    if (s.charCodeAt(j + 4) !== s.charCodeAt(j + 5)) continue;
    if (isLetter(c) && isLetter(s.charCodeAt(j + 2)) && isLetter(s.charCodeAt(j + 4))) return true;
  }
  return false;
}

/** `/(\p{L})\1/u.test(s)`: a letter written twice in a row. */
export function hasDoubledLetter(s: string): boolean {
  let i = 0;
  while (i < s.length) {
    const cp = s.codePointAt(i) as number;
    const w = width(cp);
    if (s.codePointAt(i + w) === cp && isLetter(cp)) return true;
    i += w;
  }
  return false;
}

/** `s.replace(/\p{L}{min,}/gu, fn)`: every run of at least `min` letters (code points) replaced by `fn`'s answer. */
export function replaceLetterRuns(s: string, min: number, fn: (run: string) => string): string {
  let out = '';
  let done = 0;
  let i = 0;
  while (i < s.length) {
    const cp = s.codePointAt(i) as number;
    if (!isLetter(cp)) {
      i += width(cp);
      continue;
    }
    const start = i;
    let n = 0;
    while (i < s.length) {
      const c = s.codePointAt(i) as number;
      if (!isLetter(c)) break;
      i += width(c);
      n += 1;
    }
    if (n >= min) {
      out += s.slice(done, start) + fn(s.slice(start, i));
      done = i;
    }
  }
  return done === 0 ? s : out + s.slice(done);
}
