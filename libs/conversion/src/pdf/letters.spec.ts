// SPDX-License-Identifier: AGPL-3.0-or-later
import { seededRandom } from '@lectern/testing';
import {
  collapseSpaces,
  endsWithLetterHyphen,
  endsWithSpace,
  findListedWords,
  hasVisibleChars,
  hasDoubledLetter,
  hyphenatedWords,
  isLetter,
  isSpaceCode,
  isWordChar,
  replaceLetterRuns,
  replaceSoftHyphenated,
  startsWithSpace,
  trimmedLength,
  wordList,
} from './letters.js';

// The scanners give exactly what the regular expressions they replace give, on random text drawn from ASCII
// letters and digits, hyphens, soft hyphens, spaces, accented and non-Latin letters, an astral letter (a surrogate
// pair), a lone surrogate, a combining mark and non-ASCII digits.
const ALPHABET = [
  'a',
  'Z',
  'q',
  '7',
  '-',
  '-',
  '\u00AD',
  '\u00AD',
  ' ',
  '.',
  'é',
  'Ж',
  '中',
  '𝐀',
  '\uD800',
  '\uDC00',
  '\u0301',
  '½',
  '٣',
  '_',
];

const texts = (n: number): string[] => {
  const r = seededRandom(28);
  return Array.from({ length: n }, () => Array.from({ length: r(40) }, () => ALPHABET[r(ALPHABET.length)]).join(''));
};
const CASES = texts(5000);

/** The first case where the two disagree (with both answers), or null: one assertion, not thousands (CI time). */
const firstDifference = <T>(ours: (s: string) => T, theirs: (s: string) => T): [string, T, T] | null => {
  for (const s of CASES) {
    const [a, b] = [ours(s), theirs(s)];
    if (JSON.stringify(a) !== JSON.stringify(b)) return [s, a, b];
  }
  return null;
};

describe('letter scanners', () => {
  it('classify code points as \\p{L} and [\\p{L}\\p{N}] do', () => {
    for (const ch of [...ALPHABET, 'ß', 'Ω', '١', '²', '!', '\u00AD']) {
      const cp = ch.codePointAt(0) as number;
      expect([ch, isLetter(cp)]).toEqual([ch, /^\p{L}$/u.test(ch)]);
      expect([ch, isWordChar(cp)]).toEqual([ch, /^[\p{L}\p{N}]$/u.test(ch)]);
    }
  });

  it('hyphenatedWords is match(/[\\p{L}\\p{N}]+(?:-[\\p{L}\\p{N}]+)*/gu)', () => {
    expect(firstDifference(hyphenatedWords, (s) => s.match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? [])).toBeNull();
    expect(hyphenatedWords('plan-making, well- known 2-3')).toEqual(['plan-making', 'well', 'known', '2-3']);
  });

  it('findListedWords finds what hyphenatedWords finds of the list: whole words and the parts of compounds', () => {
    // the list: every third word and compound part of the random texts, so most words are asked about and most not
    const all = CASES.flatMap((s) => hyphenatedWords(s).flatMap((w) => [w, ...w.split('-')]));
    const list = wordList([...new Set(all)].filter((_, i) => i % 3 === 0));
    const listed = (s: string): string[] => {
      const found = new Set<string>();
      findListedWords(s, list, found);
      return [...found].sort();
    };
    const reference = (s: string): string[] => {
      const found = new Set<string>();
      for (const w of hyphenatedWords(s)) for (const x of [w, ...w.split('-')]) if (list.words.has(x)) found.add(x);
      return [...found].sort();
    };
    expect(firstDifference(listed, reference)).toBeNull();
    const few = wordList(['plan', 'plan-making', 'well', 'known', 'x-y', '𝐀b']);
    const found = new Set<string>();
    findListedWords('plan-making; x-y-z, well-known; known- 𝐀b-c planning', few, found);
    expect([...found].sort()).toEqual(['known', 'plan', 'plan-making', 'well', '𝐀b'].sort());
  });

  it('isSpaceCode is /\\s/ on every UTF-16 code unit', () => {
    const differ: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (isSpaceCode(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
  });

  it('endsWithSpace is /\\s$/.test; collapseSpaces is replace(/\\s+/g, " ").trim(); hasVisibleChars(s, n) is replace(/\\s+/g, "").length >= n', () => {
    const SPACES = [
      'a',
      'é',
      ' ',
      ' ',
      '\t',
      '\n',
      '\r',
      '\u00A0',
      '\u2003',
      '\u3000',
      '\uFEFF',
      '\u200B',
      '\u1680',
      '\u2028',
      '\u202F',
      '\u205F',
      '\u0085',
      '\u180E',
      '𝐀',
      '\uDC00',
    ];
    const r = seededRandom(29);
    const cases = Array.from({ length: 5000 }, () =>
      Array.from({ length: r(12) }, () => SPACES[r(SPACES.length)]).join(''),
    );
    expect(cases.find((s) => endsWithSpace(s) !== /\s$/.test(s))).toBeUndefined();
    expect(cases.find((s) => startsWithSpace(s) !== /^\s/.test(s))).toBeUndefined();
    expect(cases.find((s) => trimmedLength(s) !== s.trim().length)).toBeUndefined();
    expect(cases.find((s) => collapseSpaces(s) !== s.replace(/\s+/g, ' ').trim())).toBeUndefined();
    for (const n of [0, 1, 3, 10])
      expect(cases.find((s) => hasVisibleChars(s, n) !== s.replace(/\s+/g, '').length >= n)).toBeUndefined();
  });

  it('replaceSoftHyphenated is replace(/(\\p{L}+)\\u00AD(\\p{L}+)/gu)', () => {
    const join = (a: string, z: string): string => `<${a}|${z}>`;
    expect(
      firstDifference(
        (s) => replaceSoftHyphenated(s, join),
        (s) => s.replace(/(\p{L}+)\u00AD(\p{L}+)/gu, (_m, a: string, z: string) => join(a, z)),
      ),
    ).toBeNull();
    expect(replaceSoftHyphenated('hy\u00ADphen\u00ADated and 1\u00ADx', (a, z) => a + z)).toBe(
      'hyphen\u00ADated and 1\u00ADx',
    );
  });

  it('endsWithLetterHyphen is /\\p{L}-$/u.test', () => {
    expect(firstDifference(endsWithLetterHyphen, (s) => /\p{L}-$/u.test(s))).toBeNull();
    for (const s of ['a-', '𝐀-', '\uDC00-', '7-', '-', '', 'a--'])
      expect([s, endsWithLetterHyphen(s)]).toEqual([s, /\p{L}-$/u.test(s)]);
  });

  it('hasDoubledLetter is /(\\p{L})\\1/u.test; replaceLetterRuns is replace(/\\p{L}{7,}/gu)', () => {
    expect(firstDifference(hasDoubledLetter, (s) => /(\p{L})\1/u.test(s))).toBeNull();
    for (const s of ['aa', '𝐀𝐀', '\uD800\uD800', 'a a', '77'])
      expect([s, hasDoubledLetter(s)]).toEqual([s, /(\p{L})\1/u.test(s)]);
    const fn = (run: string): string => `<${run.length}>`;
    expect(
      firstDifference(
        (s) => replaceLetterRuns(s, 7, fn),
        (s) => s.replace(/\p{L}{7,}/gu, fn),
      ),
    ).toBeNull();
    // longer letter runs than the random texts make
    const long = ['CCoonntteennttss page', 'Zéé𝐀𝐀𝐀𝐀𝐀aa-bbbbbbb', 'abcdef abcdefg'];
    for (const s of long) expect(replaceLetterRuns(s, 7, fn)).toBe(s.replace(/\p{L}{7,}/gu, fn));
  });
});
