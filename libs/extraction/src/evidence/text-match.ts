// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Locating an evidence snippet in a chunk, and checking that a value occurs in it. Hand-written: the checks are
 * a few normalisations and a token-coverage ratio; no installed library does this (and a windowed edit distance
 * over a large table chunk would cost O(n·m²)).
 */

export type MatchKind = 'exact' | 'normalized' | 'fuzzy';

/** Fuzzy acceptance: at least this share of the snippet's tokens occur in the chunk (a token matches with one edit when it has 5+ characters). */
export const FUZZY_THRESHOLD = 0.8;

/** Whitespace and case (and Markdown table pipes, emphasis) only. */
export const normalizeSpace = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[|*`]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export const tokens = (s: string): string[] =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/(\d),(\d{3})(?!\d)/g, '$1$2')
    .split(/[^\p{L}\p{N}.%]+/u)
    .map((t) => t.replace(/^\.+|\.+$/g, ''))
    .filter((t) => t.length > 0);

const withinOneEdit = (a: string, b: string): boolean => {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i += 1;
      j += 1;
      continue;
    }
    edits += 1;
    if (edits > 1) return false;
    if (a.length > b.length) i += 1;
    else if (b.length > a.length) j += 1;
    else {
      i += 1;
      j += 1;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
};

/** Share of the snippet's tokens found in the chunk's tokens. */
export const tokenCoverage = (snippet: string, chunk: string): number => {
  const wanted = tokens(snippet);
  if (wanted.length === 0) return 0;
  const have = tokens(chunk);
  const haveSet = new Set(have);
  let found = 0;
  for (const token of wanted) {
    if (haveSet.has(token) || (token.length >= 5 && have.some((h) => withinOneEdit(token, h)))) found += 1;
  }
  return found / wanted.length;
};

/** Where the snippet is in the chunk: exactly, after whitespace/case normalisation, fuzzily, or not at all. */
export const locateSnippet = (snippet: string, chunk: string): MatchKind | undefined => {
  const trimmed = snippet.trim();
  if (trimmed.length === 0) return undefined;
  if (chunk.includes(trimmed)) return 'exact';
  if (normalizeSpace(chunk).includes(normalizeSpace(trimmed))) return 'normalized';
  // An ellipsis marks an elided part ("MOD 8KTL3 | ... | MOD 15KTL3"): every part must be there.
  const parts = trimmed
    .split(/\.\.\.|…/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length > 1 && parts.every((p) => normalizeSpace(chunk).includes(normalizeSpace(p)))) return 'normalized';
  return tokenCoverage(trimmed, chunk) >= FUZZY_THRESHOLD ? 'fuzzy' : undefined;
};

const compact = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/(\d),(\d{3})(?!\d)/g, '$1$2')
    .replace(/\s*[~～–—]\s*/g, '-')
    .replace(/[\s|*`]+/g, '');

const numbersIn = (s: string): number[] =>
  [
    ...s
      .normalize('NFKC')
      .replace(/(\d),(\d{3})(?!\d)/g, '$1$2')
      .matchAll(/\d+(?:\.\d+)?/g),
  ].map((m) => Number(m[0]));

/**
 * Does a value occur in (or follow from) the text? Strings: literally after spacing/case/range-style
 * normalisation; else every number of the value is in the text (units reformatted: `1,100 V` → `1100V`); else
 * every word of it. Numbers: the number is in the text. Booleans follow from any located evidence.
 */
export const valueOccurs = (value: unknown, text: string): boolean => {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'number') return numbersIn(text).some((n) => Math.abs(n - value) < 1e-9);
  if (typeof value !== 'string') return false;
  if (compact(text).includes(compact(value))) return true;
  const wantedNumbers = numbersIn(value);
  if (wantedNumbers.length > 0) {
    const have = numbersIn(text);
    return wantedNumbers.every((n) => have.some((h) => Math.abs(h - n) < 1e-9));
  }
  const words = tokens(value).filter((t) => t.length > 1);
  if (words.length === 0) return false;
  const have = new Set(tokens(text));
  return words.every((w) => have.has(w));
};
