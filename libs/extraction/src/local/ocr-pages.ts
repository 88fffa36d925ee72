// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FindTextOptions, PageQuads, PdfPages } from '@lectern/conversion';
import type { Span } from './page-layout.js';

/** Text as compared: NFKC, lower case, without whitespace and Markdown's table and emphasis marks. */
const flat = (t: string): string =>
  t
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s|*_`]+/g, '');

/**
 * The evidence search of a document with scanned pages (issue 26, round 14): mupdf's search finds nothing on a
 * page with no text layer, so on a page the layout read by OCR a snippet is searched in the OCR's text (its spans
 * in reading order, compared without spaces and case) and its quads are the matching spans' boxes on the page
 * (`Span.quad`). Each part of a snippet ("label\n…\nvalue": split at the ellipsis and at line ends) must be found;
 * pages with a text layer keep mupdf's search.
 */
export const withOcrPages = (pdf: PdfPages, pages: Span[][]): PdfPages => {
  const ocr = new Map<number, { text: string; owner: Span[] }>();
  for (const spans of pages) {
    const read = spans.filter((s) => s.quad);
    if (read.length === 0) continue;
    let text = '';
    const owner: Span[] = [];
    for (const s of read) {
      const f = flat(s.text);
      text += f;
      for (let i = 0; i < f.length; i += 1) owner.push(s);
    }
    ocr.set(read[0]!.page, { text, owner });
  }
  if (ocr.size === 0) return pdf;
  const parts = (snippet: string) =>
    snippet
      .split(/\n|…|\.\.\./)
      .map(flat)
      .filter((p) => p.length > 0);
  const spansFor = (page: number, snippet: string): Span[] | undefined => {
    const o = ocr.get(page);
    const ps = parts(snippet);
    if (!o || ps.length === 0) return undefined;
    const found = new Set<Span>();
    for (const p of ps) {
      const at = o.text.indexOf(p);
      if (at < 0) return undefined;
      for (let i = at; i < at + p.length; i += 1) found.add(o.owner[i]!);
    }
    return [...found];
  };
  const quadsOn = (page: number, text: string, opts?: FindTextOptions): PageQuads | undefined => {
    const spans = spansFor(page, text);
    if (!spans) return undefined;
    const base = pdf.find(page, ' '); // (a blank text: the page's size, no search)
    return {
      page_width: base.page_width,
      page_height: base.page_height,
      quads: spans.slice(0, opts?.maxQuads ?? 64).map((s) => s.quad!),
    };
  };
  return {
    pageCount: pdf.pageCount,
    find: (page, text, opts) =>
      ocr.has(page) ? (quadsOn(page, text, opts) ?? pdf.find(page, text, opts)) : pdf.find(page, text, opts),
    pagesWith: (text) => {
      const pages = new Set(pdf.pagesWith(text));
      for (const page of ocr.keys()) if (spansFor(page, text)) pages.add(page);
      return [...pages].sort((a, b) => a - b);
    },
    close: () => pdf.close(),
  };
};
