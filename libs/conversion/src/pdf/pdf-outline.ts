// SPDX-License-Identifier: AGPL-3.0-or-later
import type * as Mupdf from 'mupdf';
import { importEsm } from '../util/import-esm.js';

/** One entry of a PDF's outline (bookmarks), depth first: its title, depth (1 = top) and 1-based target page. */
export interface PdfOutlineEntry {
  title: string;
  level: number;
  /** 1-based page the entry points at; null when it points outside the document or nowhere. */
  page: number | null;
}

/** What the first pages of a PDF say about it: its info dictionary, outline and the text of its first pages. */
export interface PdfFrontMatter {
  pageCount: number;
  /** The info dictionary's non-empty entries, keys lower case (`title`, `author`, `subject`, ...). */
  metadata: Record<string, string>;
  outline: PdfOutlineEntry[];
  /** Plain text of the first `pages` pages, in mupdf's reading order. */
  text: string;
}

const INFO = ['Title', 'Author', 'Subject', 'Keywords'] as const;
/** Bounds: a hostile outline cannot make this walk unbounded. */
const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 32;

type OutlineItem = NonNullable<ReturnType<Mupdf.Document['loadOutline']>>[number];

const flatten = (items: OutlineItem[] | null, pageCount: number): PdfOutlineEntry[] => {
  const out: PdfOutlineEntry[] = [];
  const walk = (list: OutlineItem[], level: number): void => {
    for (const item of list) {
      if (out.length >= MAX_ENTRIES) return;
      const title = (item.title ?? '').replace(/\s+/g, ' ').trim();
      const page = typeof item.page === 'number' && item.page >= 0 && item.page < pageCount ? item.page + 1 : null;
      if (title !== '') out.push({ title, level, page });
      if (item.down && level < MAX_DEPTH) walk(item.down, level + 1);
    }
  };
  walk(items ?? [], 1);
  return out;
};

/**
 * A PDF's outline (mupdf `loadOutline`), flattened depth first. Runs mupdf's WASM build on the calling thread: an
 * outline is read from the document's catalogue without touching page content, so it is cheap even for a long book.
 */
export const readPdfOutline = async (bytes: Uint8Array): Promise<PdfOutlineEntry[]> =>
  (await readPdfFrontMatter(bytes, 0)).outline;

/**
 * Metadata, outline and the text of the first `pages` pages of a PDF (citation matching, section checks), without a
 * conversion: no layout, tables or OCR, so a page without a text layer gives no text here.
 */
export const readPdfFrontMatter = async (bytes: Uint8Array, pages = 2): Promise<PdfFrontMatter> => {
  const m = await importEsm<typeof Mupdf>('mupdf');
  const doc = m.Document.openDocument(bytes, 'application/pdf');
  try {
    const pageCount = doc.countPages();
    const metadata: Record<string, string> = {};
    for (const key of INFO) {
      const v = doc.getMetaData(`info:${key}`);
      if (v) metadata[key.toLowerCase()] = String(v);
    }
    const outline = flatten(doc.loadOutline(), pageCount);
    const texts: string[] = [];
    for (let i = 0; i < Math.min(pages, pageCount); i++) {
      const page = doc.loadPage(i);
      try {
        const stext = page.toStructuredText('preserve-whitespace');
        texts.push(stext.asText());
        stext.destroy();
      } finally {
        page.destroy();
      }
    }
    return { pageCount, metadata, outline, text: texts.join('\n') };
  } finally {
    doc.destroy();
  }
};
