// SPDX-License-Identifier: AGPL-3.0-or-later
import { codePointLength, countWords, isPythonSpace } from './python-text.js';
import { RecursiveCharacterTextSplitter, type SplitterOptions } from './recursive-character-splitter.js';

/** One page of extracted text (1-based page number, as printed in the PDF viewer). */
export interface PageText {
  page_number: number;
  text: string;
}

/** A chunk of a multi-page document with the FR-006/FR-008 metadata the chunker can know. */
export interface PageChunk {
  /** 0-based position of the chunk in the document. */
  chunk_index: number;
  text: string;
  /** Python `len(text)`: code points. */
  char_count: number;
  /** Python `len(text.split())`. */
  word_count: number;
  /** The pages whose text the chunk contains, ascending and comma-separated (e.g. `"14,15"`). */
  page_numbers: string;
  /** The same pages as numbers. */
  pages: number[];
  /** The first of `pages`: the `{page:03d}` of the chunk id. */
  first_page: number;
  /** Offsets of the chunk in `joinPages(pages)` (UTF-16 indices): `joined.slice(start_offset, end_offset) === text`. */
  start_offset: number;
  end_offset: number;
}

export interface ChunkPagesOptions extends SplitterOptions {
  /** Put between consecutive pages before splitting (whitespace only). Default `"\n\n"`, a paragraph break. */
  pageSeparator?: string;
}

/** Where each page's content (first to last non-whitespace character) lies in the joined text. */
interface PageRange {
  page: number;
  start: number;
  end: number;
}

/** The document text that `chunkPages` splits: page texts joined with the page separator. */
export function joinPages(pages: readonly PageText[], pageSeparator = '\n\n'): string {
  return pages.map((p) => p.text).join(pageSeparator);
}

/**
 * Split a multi-page document into chunks that know their pages (spec 000 FR-006 `chunk_pages`).
 * The pages are joined into one text (so a paragraph that runs over a page break can share a chunk) and
 * split once; a chunk's pages are exactly those with at least one non-whitespace character inside the
 * chunk's offsets. Whitespace-only pages therefore never appear in `page_numbers`.
 */
export function chunkPages(pages: readonly PageText[], options: ChunkPagesOptions = {}): PageChunk[] {
  const pageSeparator = options.pageSeparator ?? '\n\n';
  for (let i = 0; i < pageSeparator.length; i++) {
    // A non-whitespace separator could form a chunk that belongs to no page.
    if (!isPythonSpace(pageSeparator.charCodeAt(i))) throw new RangeError('pageSeparator must be whitespace only');
  }
  for (const p of pages) {
    if (!Number.isInteger(p.page_number) || p.page_number < 1) {
      throw new RangeError(`page_number must be a positive integer, got ${p.page_number}`);
    }
  }

  const ranges: PageRange[] = [];
  let offset = 0;
  for (const p of pages) {
    let s = 0;
    let e = p.text.length;
    while (s < e && isPythonSpace(p.text.charCodeAt(s))) s++;
    while (e > s && isPythonSpace(p.text.charCodeAt(e - 1))) e--;
    if (e > s) ranges.push({ page: p.page_number, start: offset + s, end: offset + e });
    offset += p.text.length + pageSeparator.length;
  }

  const splitter = new RecursiveCharacterTextSplitter(options);
  const spans = splitter.splitTextWithOffsets(joinPages(pages, pageSeparator));
  let firstCandidate = 0; // chunk starts never decrease, so pages before this one can be skipped
  return spans.map((span, chunk_index) => {
    while (firstCandidate < ranges.length && (ranges[firstCandidate]?.end ?? 0) <= span.start) firstCandidate++;
    const found = new Set<number>();
    for (let i = firstCandidate; i < ranges.length; i++) {
      const r = ranges[i] as PageRange;
      if (r.start >= span.end) break;
      if (r.end > span.start) found.add(r.page);
    }
    const sorted = [...found].sort((a, b) => a - b);
    return {
      chunk_index,
      text: span.text,
      char_count: codePointLength(span.text),
      word_count: countWords(span.text),
      page_numbers: sorted.join(','),
      pages: sorted,
      first_page: sorted[0] ?? pages[0]?.page_number ?? 1,
      start_offset: span.start,
      end_offset: span.end,
    };
  });
}
