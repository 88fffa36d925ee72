// SPDX-License-Identifier: AGPL-3.0-or-later
import { chunkPages, joinPages, type PageText } from './page-chunker.js';
import { codePointLength, countWords } from './python-text.js';

/** A page of sentences whose every word names its page: `p7w12` is word 12 of page 7. */
function markedPage(page: number, words: number): PageText {
  const parts: string[] = [];
  for (let i = 0; i < words; i++) parts.push(`p${page}w${i}${i % 9 === 8 ? '.' : ''}${i % 40 === 39 ? '\n' : ''}`);
  return { page_number: page, text: parts.join(' ').replace(/\n /g, '\n') };
}

/** The pages whose words appear in a chunk, read from the words themselves. */
const pagesIn = (text: string): number[] =>
  [...new Set([...text.matchAll(/p(\d+)w\d+/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);

describe('chunkPages', () => {
  it('records exactly the pages whose text each chunk contains', () => {
    const pages: PageText[] = [
      markedPage(1, 150),
      markedPage(2, 12),
      { page_number: 3, text: '' },
      { page_number: 4, text: '  \n\n \f ' },
      markedPage(5, 3),
      markedPage(6, 600),
      markedPage(7, 40),
      markedPage(8, 1),
    ];
    const chunks = chunkPages(pages);
    expect(chunks.length).toBeGreaterThan(10);
    const seen = new Set<number>();
    for (const c of chunks) {
      expect(c.pages).toEqual(pagesIn(c.text));
      expect(c.page_numbers).toBe(c.pages.join(','));
      expect(c.first_page).toBe(c.pages[0]);
      c.pages.forEach((p) => seen.add(p));
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([1, 2, 5, 6, 7, 8]);
    // Some chunk spans a page break.
    expect(chunks.some((c) => c.pages.length > 1)).toBe(true);
  });

  it('joins short pages into one chunk and starts the next chunk without overlap when a page does not fit', () => {
    const page = (n: number): PageText => ({ page_number: n, text: `Page ${n} ${'x'.repeat(293)}` });
    const chunks = chunkPages([page(1), page(2), page(3)]);
    expect(chunks.map((c) => c.page_numbers)).toEqual(['1,2', '3']);
    expect(chunks[0]!.text).toBe(`${page(1).text}\n\n${page(2).text}`);
  });

  it('skips a whitespace-only page inside a chunk', () => {
    const chunks = chunkPages([
      { page_number: 1, text: 'Heading' },
      { page_number: 2, text: ' \n ' },
      { page_number: 3, text: 'Body text.' },
    ]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.page_numbers).toBe('1,3');
    expect(chunks[0]!.first_page).toBe(1);
  });

  it('fills chunk_index, text, char_count and word_count', () => {
    const chunks = chunkPages([markedPage(14, 300), { page_number: 15, text: 'Café 😀 parking.' }]);
    chunks.forEach((c, i) => {
      expect(c.chunk_index).toBe(i);
      expect(c.char_count).toBe(codePointLength(c.text));
      expect(c.word_count).toBe(countWords(c.text));
      expect(c.char_count).toBeLessThanOrEqual(800);
    });
    expect(chunks[chunks.length - 1]!.text.endsWith('Café 😀 parking.')).toBe(true);
    const [spanning] = chunkPages([markedPage(14, 30), { page_number: 15, text: 'Café 😀 parking.' }]);
    expect(spanning!.page_numbers).toBe('14,15');
    expect(spanning!.first_page).toBe(14);
    expect(spanning!.char_count).toBe(spanning!.text.length - 1);
  });

  it('gives offsets into the joined page text', () => {
    const pages = [markedPage(1, 200), markedPage(2, 200)];
    const joined = joinPages(pages);
    for (const c of chunkPages(pages)) expect(joined.slice(c.start_offset, c.end_offset)).toBe(c.text);
  });

  it('returns no chunks for a document without text', () => {
    expect(chunkPages([])).toEqual([]);
    expect(chunkPages([{ page_number: 1, text: ' \n' }])).toEqual([]);
  });

  it('rejects invalid page numbers and a non-whitespace page separator', () => {
    expect(() => chunkPages([{ page_number: 0, text: 'a' }])).toThrow(RangeError);
    expect(() => chunkPages([{ page_number: 1.5, text: 'a' }])).toThrow(RangeError);
    expect(() => chunkPages([{ page_number: 1, text: 'a' }], { pageSeparator: '\n---\n' })).toThrow(RangeError);
  });
});
