// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import {
  RecursiveCharacterTextSplitter,
  SPEC000_SEPARATORS,
  splitText,
  type KeepSeparator,
} from './recursive-character-splitter.js';
import { codePointLength, isPythonSpace } from './python-text.js';

interface GoldenCase {
  name: string;
  text: string;
  size: number;
  overlap: number;
  keep: KeepSeparator;
  seps: string[];
  expected: string[];
}

// Expected chunks computed under CPython by a line-by-line transcription of langchain-text-splitters'
// `character.py` (`_split_text_with_regex`, `RecursiveCharacterTextSplitter._split_text`) and `base.py`
// (`_merge_splits`, `_join_docs`) — the package itself cannot be installed here (no PyPI). This
// implementation must reproduce them exactly.
const readFixture = (name: string): GoldenCase[] =>
  JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8')) as GoldenCase[];
// Hand-picked cases, and random ones mixing every separator, runs of separators, Python-only whitespace
// (U+0085, U+001C), U+FEFF, emoji and accents at many sizes and overlaps.
const golden = readFixture('./langchain-golden.fixture.json');
const random = readFixture('./langchain-random.fixture.json');

/** A string of n distinct-looking characters with no separator in it. */
const noSeparators = (n: number): string =>
  Array.from({ length: n }, (_, i) => String.fromCharCode(0x41 + (i % 26))).join('');

describe('RecursiveCharacterTextSplitter', () => {
  describe('reproduces langchain RecursiveCharacterTextSplitter', () => {
    it.each([...golden, ...random].map((c) => [c.name, c] as const))('%s', (_name, c) => {
      const splitter = new RecursiveCharacterTextSplitter({
        chunkSize: c.size,
        chunkOverlap: c.overlap,
        separators: c.seps,
        keepSeparator: c.keep,
      });
      expect(splitter.splitText(c.text)).toEqual(c.expected);
    });
  });

  it('uses spec 000 FR-006 defaults: 800 characters, 200 overlap, the separator hierarchy, separators kept at the end', () => {
    const s = new RecursiveCharacterTextSplitter();
    expect(s.chunkSize).toBe(800);
    expect(s.chunkOverlap).toBe(200);
    expect(s.separators).toEqual(['\n\n', '\n', '. ', '! ', '? ', '; ', ', ', ' ', '']);
    expect(s.keepSeparator).toBe('end');
    expect(SPEC000_SEPARATORS).toEqual(s.separators);
  });

  it('returns a text shorter than a chunk as one stripped chunk', () => {
    expect(splitText('  \n Cycle parking: 200 spaces.\n\n')).toEqual(['Cycle parking: 200 spaces.']);
  });

  it('returns no chunks for empty or whitespace-only text', () => {
    expect(splitText('')).toEqual([]);
    expect(splitText(' \n\n\t \u00a0\u3000 ')).toEqual([]);
  });

  it('keeps a separator with the chunk before it (end), unlike langchain keep_separator=True (start)', () => {
    const text = 'aaaa. bbbb. cccc';
    expect(splitText(text, { chunkSize: 8, chunkOverlap: 0 })).toEqual(['aaaa.', 'bbbb.', 'cccc']);
    expect(splitText(text, { chunkSize: 8, chunkOverlap: 0, keepSeparator: 'start' })).toEqual([
      'aaaa',
      '. bbbb',
      '. cccc',
    ]);
  });

  it('tries the separators in order: paragraph before line before sentence before word', () => {
    const text = 'one two. three\nfour five. six\n\nseven';
    // "\n\n" exists, so the text is first split into paragraphs; the first paragraph is too long
    // and is split on "\n"; the lines fit.
    expect(splitText(text, { chunkSize: 16, chunkOverlap: 0 })).toEqual(['one two. three', 'four five. six', 'seven']);
    // A smaller size forces the sentence level inside each line ("four five. six\n\n" is 16 characters).
    expect(splitText(text, { chunkSize: 12, chunkOverlap: 0 })).toEqual([
      'one two.',
      'three',
      'four five.',
      'six',
      'seven',
    ]);
    // Smaller still, "four five. " (11 characters with its separator) goes down to the word level.
    expect(splitText(text, { chunkSize: 10, chunkOverlap: 0 })).toEqual([
      'one two.',
      'three',
      'four',
      'five.',
      'six',
      'seven',
    ]);
  });

  it('splits text with no separator at all by characters, carrying exactly the overlap', () => {
    const text = noSeparators(2000);
    const chunks = new RecursiveCharacterTextSplitter().splitTextWithOffsets(text);
    expect(chunks.map((c) => [c.start, c.end])).toEqual([
      [0, 800],
      [600, 1400],
      [1200, 2000],
    ]);
  });

  it('fits exactly chunkSize characters in one chunk and moves on at chunkSize + 1', () => {
    expect(splitText(noSeparators(800))).toEqual([noSeparators(800)]);
    const text = noSeparators(801);
    expect(splitText(text)).toEqual([text.slice(0, 800), text.slice(600)]);
  });

  it('splits a very long word inside a sentence by characters and keeps the surrounding words', () => {
    const long = noSeparators(1000);
    const chunks = splitText(`Start here ${long} end here.`, { chunkSize: 800, chunkOverlap: 200 });
    expect(chunks[0]).toBe('Start here');
    expect(chunks.join('')).toContain(long.slice(0, 800));
    expect(chunks[chunks.length - 1]).toBe('end here.');
    for (const c of chunks) expect(codePointLength(c)).toBeLessThanOrEqual(800);
  });

  it('drops separators at the boundaries of the text', () => {
    expect(splitText('\n\nFirst paragraph.\n\nSecond paragraph.\n\n', { chunkSize: 20, chunkOverlap: 0 })).toEqual([
      'First paragraph.',
      'Second paragraph.',
    ]);
  });

  it('carries whole pieces of at most chunkOverlap characters into the next chunk', () => {
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    const spans = new RecursiveCharacterTextSplitter({ chunkSize: 100, chunkOverlap: 30 }).splitTextWithOffsets(words);
    expect(spans.length).toBeGreaterThan(10);
    for (let i = 1; i < spans.length; i++) {
      const prev = spans[i - 1]!;
      const cur = spans[i]!;
      const overlap = prev.end - cur.start;
      expect(overlap).toBeGreaterThan(0);
      expect(overlap).toBeLessThanOrEqual(30);
      // The overlap is whole words: the next chunk starts where a word starts.
      expect(words[cur.start - 1]).toBe(' ');
      expect(prev.text.endsWith(cur.text.slice(0, overlap))).toBe(true);
    }
  });

  it('counts characters as code points and strips with Python whitespace', () => {
    const emoji = '😀'.repeat(801);
    const chunks = splitText(emoji);
    expect(chunks).toHaveLength(2);
    expect(codePointLength(chunks[0]!)).toBe(800);
    expect(chunks[0]!.length).toBe(1600);
    expect(codePointLength(chunks[1]!)).toBe(201);
    // U+0085 and U+001C are whitespace to Python (stripped); U+FEFF is not (kept).
    expect(splitText('\u0085\u001c\ufeffabc\u0085')).toEqual(['\ufeffabc']);
  });

  it('never cuts a surrogate pair when splitting by characters', () => {
    const text = 'é😀'.repeat(300);
    for (const c of splitText(text, { chunkSize: 7, chunkOverlap: 2 })) {
      expect(c).toMatch(/^(?:[é]|\uD83D\uDE00)+$/u);
    }
  });

  it('keeps every invariant on a long real-looking document', () => {
    const text = golden[0]!.text.repeat(6);
    const spans = new RecursiveCharacterTextSplitter().splitTextWithOffsets(text);
    const covered = new Uint8Array(text.length);
    let lastStart = -1;
    for (const s of spans) {
      expect(text.slice(s.start, s.end)).toBe(s.text);
      expect(codePointLength(s.text)).toBeLessThanOrEqual(800);
      expect(s.start).toBeGreaterThan(lastStart);
      lastStart = s.start;
      covered.fill(1, s.start, s.end);
    }
    for (let i = 0; i < text.length; i++) {
      if (!isPythonSpace(text.charCodeAt(i))) expect(covered[i]).toBe(1);
    }
  });

  it('rejects impossible options', () => {
    expect(() => new RecursiveCharacterTextSplitter({ chunkSize: 100, chunkOverlap: 101 })).toThrow(
      'Got a larger chunk overlap (101) than chunk size (100), should be smaller.',
    );
    expect(() => new RecursiveCharacterTextSplitter({ chunkSize: 0 })).toThrow(RangeError);
    expect(() => new RecursiveCharacterTextSplitter({ chunkOverlap: -1 })).toThrow(RangeError);
    expect(() => new RecursiveCharacterTextSplitter({ separators: [] })).toThrow(RangeError);
  });
});
