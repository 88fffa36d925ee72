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

/** Bits of a word's hash that index a word list's bitmap: 2^18 bits (32 KB), a few thousand words per list. */
const LIST_BITS = 18;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 code units of s[start, end). */
function hashOf(s: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/** A set of words that `findListedWords` tests stretches of text against without cutting them out first. */
export interface WordList {
  readonly words: ReadonlySet<string>;
  /** Bit `hashOf(w)`'s top LIST_BITS bits set for every word `w`: a stretch whose bit is clear is not one of the words. */
  readonly bits: Uint32Array;
}

export function wordList(words: Iterable<string>): WordList {
  const set = new Set(words);
  const bits = new Uint32Array(1 << (LIST_BITS - 5));
  for (const w of set) {
    const h = hashOf(w, 0, w.length) >>> (32 - LIST_BITS);
    bits[h >>> 5] = (bits[h >>> 5] as number) | (1 << (h & 31));
  }
  return { words: set, bits };
}

/** Adds s[start, end) to `found` when it is one of `list`'s words (cut out only when its hash bit is set). */
function addIfListed(s: string, start: number, end: number, h: number, list: WordList, found: Set<string>): void {
  const k = h >>> (32 - LIST_BITS);
  if ((((list.bits[k >>> 5] as number) >>> (k & 31)) & 1) === 0) return;
  const w = s.slice(start, end);
  if (list.words.has(w)) found.add(w);
}

/** Width in UTF-16 units of the code point at `i` when it is a letter or digit ([\p{L}\p{N}]), else 0. */
function wordCharWidth(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 128) return ASCII[c] === 0 ? 0 : 1;
  const cp = s.codePointAt(i) as number;
  return isWordChar(cp) ? width(cp) : 0;
}

/**
 * What `hyphenatedWords(s)` finds of `list`'s words, added to `found`: each word (a hyphenated compound whole), and
 * each part of a compound between its hyphens. The same as
 * `for (const w of hyphenatedWords(s)) for (const x of [w, ...w.split('-')]) if (list.words.has(x)) found.add(x)`,
 * but a word is hashed as it is scanned and cut out of `s` only when its hash is one of the list's: a long
 * document's words are mostly not asked about (rejoinBrokenWords, pdf-markdown.ts).
 */
export function findListedWords(s: string, list: WordList, found: Set<string>): void {
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < 128 ? ASCII[c] === 0 : wordCharWidth(s, i) === 0) {
      i += 1; // (a low surrogate alone is no word character: stepping into a pair's second half finds nothing)
      continue;
    }
    const start = i;
    let compound = false;
    for (;;) {
      // a run of letters and digits, hashed as it goes
      const runStart = i;
      let h = FNV_OFFSET;
      while (i < n) {
        const d = s.charCodeAt(i);
        if (d < 128) {
          if (ASCII[d] === 0) break;
          h = Math.imul(h ^ d, FNV_PRIME);
          i += 1;
          continue;
        }
        const w = wordCharWidth(s, i);
        if (w === 0) break;
        h = Math.imul(h ^ d, FNV_PRIME);
        if (w === 2) h = Math.imul(h ^ s.charCodeAt(i + 1), FNV_PRIME);
        i += w;
      }
      const more = s.charCodeAt(i) === 45 && i + 1 < n && wordCharWidth(s, i + 1) !== 0;
      if (!more && !compound) {
        addIfListed(s, start, i, h, list, found); // a word of one run
        break;
      }
      addIfListed(s, runStart, i, h, list, found); // a part of a compound
      if (!more) {
        addIfListed(s, start, i, hashOf(s, start, i), list, found); // the compound
        break;
      }
      compound = true;
      i += 1;
    }
  }
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

/**
 * A UTF-16 code unit that `/\s/` matches (and `trim()` removes): ASCII tab to carriage return and space; no-break
 * space, ogham space mark, en quad to hair space, line and paragraph separators, narrow no-break space, medium
 * mathematical space, ideographic space, BOM. letters.spec.ts checks all 65,536 against the expression.
 */
export const isSpaceCode = (c: number): boolean =>
  c < 128
    ? c === 32 || (c >= 9 && c <= 13)
    : c === 0xa0 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0xfeff;

/** `/\s$/.test(s)`, looking at the last character only (V8 tries an end-anchored expression at every position). */
export const endsWithSpace = (s: string): boolean => s.length > 0 && isSpaceCode(s.charCodeAt(s.length - 1));

/** `/^\s/.test(s)`. */
export const startsWithSpace = (s: string): boolean => s.length > 0 && isSpaceCode(s.charCodeAt(0));

/** `s.trim().length`, without making the trimmed string. */
export function trimmedLength(s: string): number {
  let a = 0;
  let z = s.length;
  while (a < z && isSpaceCode(s.charCodeAt(a))) a += 1;
  while (z > a && isSpaceCode(s.charCodeAt(z - 1))) z -= 1;
  return z - a;
}

/**
 * Whether `s.replace(/\s+/g, ' ').trim()` may differ from `s`: it starts or ends with a space, or has white space
 * other than single ASCII spaces.
 */
function mayCollapse(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  if (s.charCodeAt(0) === 32 || s.charCodeAt(n - 1) === 32) return true;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (s.charCodeAt(i + 1) === 32) return true;
    } else if (isSpaceCode(c)) return true;
  }
  return false;
}

/**
 * `s.replace(/\s+/g, '').length >= n`, counting until the n-th: whether a page's text layer has the few visible
 * characters that keep it from OCR (convert-paged.ts), without copying every page's text.
 */
export function hasVisibleChars(s: string, n: number): boolean {
  let seen = 0;
  for (let i = 0; i < s.length && seen < n; i++) {
    if (!isSpaceCode(s.charCodeAt(i))) seen += 1;
  }
  return seen >= n;
}

/** `s.replace(/\s+/g, ' ').trim()`, which most texts (single spaces between words) leave as they are. */
export const collapseSpaces = (s: string): string => (mayCollapse(s) ? s.replace(/\s+/g, ' ').trim() : s);
