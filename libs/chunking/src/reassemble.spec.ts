// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import { chunkPages, joinPages, type PageText } from './page-chunker.js';
import { reassembleChunks, type StoredChunk } from './reassemble.js';

const planning = (
  JSON.parse(readFileSync(new URL('./langchain-golden.fixture.json', import.meta.url), 'utf8')) as { text: string }[]
)[0]!.text;

/** Collapse every whitespace run to one space: the reassembled text may only differ from the original there. */
const squash = (s: string): string => s.replace(/\s+/gu, ' ').trim();

/** A multi-page document of real-looking text: long paragraphs (sentence-level splits, overlapping chunks),
 * short paragraphs (paragraph-level merges, non-overlapping chunks) and a table. */
function document(): PageText[] {
  const paragraphs = planning.split('\n\n');
  const long = paragraphs.join(' ').replace(/\n/g, ' ');
  return [
    { page_number: 1, text: planning },
    { page_number: 2, text: `${long} ${long}` },
    { page_number: 3, text: paragraphs.slice(0, 4).join('\n\n') },
    { page_number: 4, text: `${long}\n${paragraphs[7]}` },
  ];
}

const stored = (pages: PageText[], withOffsets: boolean): StoredChunk[] =>
  chunkPages(pages).map((c) =>
    withOffsets
      ? { chunk_index: c.chunk_index, text: c.text, start_offset: c.start_offset, end_offset: c.end_offset }
      : { chunk_index: c.chunk_index, text: c.text },
  );

describe('reassembleChunks', () => {
  it('round-trips a real-looking document: every word once, in order', () => {
    const pages = document();
    const chunks = stored(pages, true);
    const text = reassembleChunks(chunks);
    expect(squash(text)).toBe(squash(joinPages(pages)));
    // Without overlap removal the concatenation would be longer than the document.
    expect(squash(chunks.map((c) => c.text).join('\n\n')).length).toBeGreaterThan(squash(text).length);
  });

  it('is exactly the document text with each gap between non-overlapping chunks replaced by "\\n\\n"', () => {
    const pages = document();
    const joined = joinPages(pages);
    const chunks = chunkPages(pages);
    let expected = '';
    let end = -1;
    for (const c of chunks) {
      if (end < 0) expected = c.text;
      else if (c.start_offset < end) expected += joined.slice(end, c.end_offset);
      else expected += `\n\n${c.text}`;
      end = c.end_offset;
    }
    expect(reassembleChunks(stored(pages, true))).toBe(expected);
  });

  it('orders chunks by chunk_index, whatever order the store returns them in', () => {
    const chunks = stored(document(), true);
    const shuffled = [...chunks].reverse();
    shuffled.push(shuffled.splice(3, 1)[0]!);
    expect(reassembleChunks(shuffled)).toBe(reassembleChunks(chunks));
  });

  it('joins non-overlapping chunks with "\\n\\n"', () => {
    const chunks = stored(
      [
        { page_number: 1, text: `First ${'a'.repeat(500)}.` },
        { page_number: 2, text: `Second ${'b'.repeat(500)}.` },
      ],
      true,
    );
    expect(chunks).toHaveLength(2);
    expect(reassembleChunks(chunks)).toBe(`First ${'a'.repeat(500)}.\n\nSecond ${'b'.repeat(500)}.`);
  });

  it('falls back to matching text when the chunks carry no offsets', () => {
    const pages = document();
    expect(reassembleChunks(stored(pages, false))).toBe(reassembleChunks(stored(pages, true)));
  });

  it('with offsets, keeps a phrase that merely repeats across a chunk boundary', () => {
    const chunks: StoredChunk[] = [
      { chunk_index: 0, text: 'The application was refused by Coventry City Council', start_offset: 0, end_offset: 52 },
      { chunk_index: 1, text: 'Coventry City Council then appealed.', start_offset: 54, end_offset: 90 },
    ];
    expect(reassembleChunks(chunks)).toBe(
      'The application was refused by Coventry City Council\n\nCoventry City Council then appealed.',
    );
    // The text-only fallback cannot tell this from an overlap: the reason offsets should be stored.
    const bare = chunks.map(({ chunk_index, text }) => ({ chunk_index, text }));
    expect(reassembleChunks(bare)).toBe('The application was refused by Coventry City Council then appealed.');
  });

  it('does not cut an emoji in half in the text-only fallback', () => {
    const out = reassembleChunks([
      { chunk_index: 0, text: 'ab\uD83D' },
      { chunk_index: 1, text: '\uD83D\uDE00 cd' },
    ]);
    expect(out).toBe('ab\uD83D\n\n\uD83D\uDE00 cd');
  });

  it('returns an empty string for no chunks and the text for one', () => {
    expect(reassembleChunks([])).toBe('');
    expect(reassembleChunks([{ chunk_index: 0, text: 'only' }])).toBe('only');
  });
});
