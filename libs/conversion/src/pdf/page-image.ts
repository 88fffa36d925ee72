// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts/errors';
import type * as Mupdf from 'mupdf';
import { importEsm } from '../util/import-esm.js';

/**
 * Evidence a person can see (issue 26): where a text sits on a PDF page (mupdf's text search) and the page as a
 * PNG with those places highlighted. The mupdf WASM build is loaded by the first call, not by importing
 * @lectern/conversion.
 */

/** Bounds of a page image: a client asks for less, never more. */
export const PAGE_IMAGE_LIMITS = {
  defaultDpi: 110,
  minDpi: 20,
  maxDpi: 200,
  /** Pixels of one image (width x height); a larger page is drawn at a lower resolution to fit. */
  maxPixels: 6_000_000,
  /** Highlight boxes drawn on one image. */
  maxHighlights: 500,
  /** Characters of a text searched for. */
  maxNeedleChars: 1000,
} as const;

/** Where a text is on a page: mupdf's quads (8 numbers each: ul, ur, ll, lr corners), PDF points, origin top-left. */
export interface PageQuads {
  page_width: number;
  page_height: number;
  quads: number[][];
}

export interface FindTextOptions {
  /** Stop after this many quads (default 64). */
  maxQuads?: number;
}

export interface RenderPageOptions {
  /** 1-based page number. */
  page: number;
  /** Default 110, at most 200. */
  dpi?: number;
  /** Quads (8 numbers each, PDF points, origin top-left) drawn as translucent boxes. */
  highlights?: readonly (readonly number[])[];
  /** Default `PAGE_IMAGE_LIMITS.maxPixels`; never more. */
  maxPixels?: number;
}

const pageNotFound = (page: number, count: number) =>
  new AppError('page_not_found', `The document has ${count} page(s); there is no page ${page}.`, { httpStatus: 404 });

const invalid = (message: string) => new AppError('invalid_arguments', message, { httpStatus: 400 });

const isPdf = (bytes: Uint8Array): boolean => {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes('%PDF-');
};

type MupdfModule = typeof Mupdf;

/** mupdf's search options: case and diacritics ignored (whitespace runs already match one space). */
const SEARCH_OPTIONS = 'ignore-case,ignore-diacritics';

/** A PDF opened once for several searches (one document per task, many evidence leaves). Call `close()`. */
export interface PdfPages {
  readonly pageCount: number;
  /** The text's quads on page `page` (1-based); no quads when it is not there. */
  find(page: number, text: string, opts?: FindTextOptions): PageQuads;
  /** The pages (1-based, in order) whose text contains `text` (by the same tolerant search). */
  pagesWith(text: string): number[];
  close(): void;
}

/**
 * The forms of a snippet tried in order, each a search mupdf understands: the text with its whitespace collapsed
 * (mupdf's search ignores case and lets one space match a line break), then without Markdown marks (`|` of table
 * cells, `**`, `\|`), then with hyphens at line ends rejoined ("con- stant" → "constant") and soft hyphens
 * removed. A text none of these finds is searched by its parts (`segments`).
 */
const needleForms = (text: string): string[] => {
  const collapsed = text
    .replace(/\u00ad/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const unmarked = collapsed
    .replace(/\\\|/g, '\uE000')
    .replace(/\s*\|\s*/g, ' ')
    .replace(/\uE000/g, '|')
    .replace(/\*\*|__|`/g, '')
    .replace(/^#+\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const dehyphenated = unmarked.replace(/(\p{L})- (\p{Ll})/gu, '$1$2');
  return [...new Set([collapsed, unmarked, dehyphenated].filter((t) => t.length > 0))];
};

/** A table row or a multi-line snippet in parts: its cells (unescaped `\|` kept inside a cell) or its lines. */
const segments = (text: string): string[] =>
  text
    .replace(/\\\|/g, '\uE000')
    .split(/\s*\|\s*|\n+/)
    .map((s) =>
      s
        .replace(/\uE000/g, '|')
        .replace(/\*\*|`/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((s) => /[\p{L}\p{N}]/u.test(s));

const centre = (q: readonly number[]): [number, number] => [
  ((q[0] ?? 0) + (q[2] ?? 0) + (q[4] ?? 0) + (q[6] ?? 0)) / 4,
  ((q[1] ?? 0) + (q[3] ?? 0) + (q[5] ?? 0) + (q[7] ?? 0)) / 4,
];

/**
 * Each part's hits, then the placement whose parts lie closest to the first part's (a row reads along one
 * line: vertical distance weighs ten times horizontal). A part found nowhere fails the whole search, so a
 * snippet whose words are scattered over the page is not "found".
 */
const findBySegments = (search: (needle: string) => number[][][], parts: string[]): number[][] | undefined => {
  const hitsPerPart = parts.map((p) => search(p));
  if (hitsPerPart.some((h) => h.length === 0)) return undefined;
  let best: { cost: number; quads: number[][] } | undefined;
  for (const anchor of hitsPerPart[0]!.slice(0, 50)) {
    const [ax, ay] = centre(anchor[0]!);
    let cost = 0;
    const quads = [...anchor];
    for (const hits of hitsPerPart.slice(1)) {
      let nearest: { d: number; hit: number[][] } | undefined;
      for (const hit of hits) {
        const [x, y] = centre(hit[0]!);
        const d = Math.abs(y - ay) * 10 + Math.abs(x - ax);
        if (!nearest || d < nearest.d) nearest = { d, hit };
      }
      cost += nearest!.d;
      quads.push(...nearest!.hit);
    }
    if (!best || cost < best.cost) best = { cost, quads };
  }
  return best?.quads;
};

const openDoc = (mupdf: MupdfModule, bytes: Uint8Array): Mupdf.Document => {
  if (!isPdf(bytes))
    throw new AppError('not_a_pdf', 'Page images and quads exist for PDF documents only.', { httpStatus: 415 });
  try {
    return mupdf.Document.openDocument(bytes, 'application/pdf');
  } catch (cause) {
    throw new AppError('extraction_failed', 'The PDF could not be opened.', { httpStatus: 422, cause });
  }
};

const openWith = (mupdf: MupdfModule, bytes: Uint8Array): PdfPages => {
  const doc = openDoc(mupdf, bytes);
  const pageCount = doc.countPages();
  // one structured text per page, kept for every search of the document (building it is the costly part)
  const pages = new Map<number, { page: Mupdf.Page; text: Mupdf.StructuredText }>();
  const load = (page: number) => {
    if (!Number.isInteger(page) || page < 1 || page > pageCount) throw pageNotFound(page, pageCount);
    let loaded = pages.get(page);
    if (!loaded) {
      const p = doc.loadPage(page - 1);
      loaded = { page: p, text: p.toStructuredText('dehyphenate') };
      pages.set(page, loaded);
    }
    return loaded;
  };
  const quadsOn = (text: Mupdf.StructuredText, needle: string, max: number): number[][] => {
    const search = (n: string): number[][][] =>
      text.search(n.slice(0, PAGE_IMAGE_LIMITS.maxNeedleChars), SEARCH_OPTIONS) as unknown as number[][][];
    for (const form of needleForms(needle)) {
      const hits = search(form);
      if (hits.length > 0) return hits.flat().slice(0, max);
    }
    const parts = segments(needle);
    if (parts.length < 2) return [];
    return (findBySegments(search, parts) ?? []).slice(0, max);
  };
  return {
    pageCount,
    find(page, text, opts = {}) {
      const loaded = load(page);
      const [x0, y0, x1, y1] = loaded.page.getBounds();
      const quads = text.trim() ? quadsOn(loaded.text, text, opts.maxQuads ?? 64) : [];
      return { page_width: x1 - x0, page_height: y1 - y0, quads: quads.map((q) => Array.from(q)) };
    },
    pagesWith(text) {
      const found: number[] = [];
      if (!text.trim()) return found;
      for (let p = 1; p <= pageCount; p += 1) if (quadsOn(load(p).text, text, 1).length > 0) found.push(p);
      return found;
    },
    close() {
      for (const { page, text } of pages.values()) {
        text.destroy();
        page.destroy();
      }
      pages.clear();
      doc.destroy();
    },
  };
};

/** Open a PDF for several searches (see `PdfPages`). Typed errors: `not_a_pdf` (415), `extraction_failed` (422). */
export const openPdfPages = async (bytes: Uint8Array): Promise<PdfPages> =>
  openWith(await importEsm<MupdfModule>('mupdf'), bytes);

/**
 * Where `text` is on page `page` (1-based) of a PDF: mupdf's `Page.search` quads. Tolerant of the differences
 * between a snippet (Markdown from the converter, an LLM's copy) and the page's text layer: case, runs of
 * whitespace and line breaks, Markdown table pipes and emphasis, words hyphenated at a line end; a table row
 * or a multi-line snippet not found whole is found by its cells or lines, placed on one line as closely as the
 * page allows. No quads: not on that page. `page_not_found` (404) outside the document.
 */
export const findTextQuads = async (
  bytes: Uint8Array,
  page: number,
  text: string,
  opts: FindTextOptions = {},
): Promise<PageQuads> => {
  const pdf = await openPdfPages(bytes);
  try {
    return pdf.find(page, text, opts);
  } finally {
    pdf.close();
  }
};

/**
 * Page `page` of a PDF as a PNG (RGB), with translucent yellow boxes over `highlights`. Bounded: dpi within
 * 20-200 (400 `invalid_arguments` otherwise), at most `maxPixels` pixels (a larger page is drawn at a lower
 * resolution to fit), page within the document (404 `page_not_found`), at most 500 highlights.
 */
export const renderPagePng = async (bytes: Uint8Array, options: RenderPageOptions): Promise<Buffer> => {
  const dpi = options.dpi ?? PAGE_IMAGE_LIMITS.defaultDpi;
  if (!Number.isFinite(dpi) || dpi < PAGE_IMAGE_LIMITS.minDpi || dpi > PAGE_IMAGE_LIMITS.maxDpi)
    throw invalid(`dpi must be between ${PAGE_IMAGE_LIMITS.minDpi} and ${PAGE_IMAGE_LIMITS.maxDpi}.`);
  const highlights = options.highlights ?? [];
  if (highlights.length > PAGE_IMAGE_LIMITS.maxHighlights)
    throw invalid(`At most ${PAGE_IMAGE_LIMITS.maxHighlights} highlights per image.`);
  if (highlights.some((q) => q.length !== 8 || q.some((n) => !Number.isFinite(n))))
    throw invalid('A highlight is a quad of 8 finite numbers.');
  const maxPixels = Math.min(options.maxPixels ?? PAGE_IMAGE_LIMITS.maxPixels, PAGE_IMAGE_LIMITS.maxPixels);
  const mupdf = await importEsm<MupdfModule>('mupdf');
  const doc = openDoc(mupdf, bytes);
  try {
    const count = doc.countPages();
    if (!Number.isInteger(options.page) || options.page < 1 || options.page > count)
      throw pageNotFound(options.page, count);
    {
      const page = doc.loadPage(options.page - 1);
      const [x0, y0, x1, y1] = page.getBounds();
      const width = Math.max(1, x1 - x0);
      const height = Math.max(1, y1 - y0);
      let scale = dpi / 72;
      const pixels = width * height * scale * scale;
      // 0.99: the pixmap's edges round outwards
      if (pixels > maxPixels) scale *= Math.sqrt(maxPixels / pixels) * 0.99;
      if (scale * 72 < 1)
        throw new AppError('too_large', 'The page is too large to draw within the pixel bound.', { httpStatus: 413 });
      const matrix = mupdf.Matrix.scale(scale, scale);
      const pix = page.toPixmap(matrix, mupdf.ColorSpace.DeviceRGB, false, true);
      if (highlights.length > 0) {
        const device = new mupdf.DrawDevice(matrix, pix);
        for (const q of highlights) {
          // a quad's corners are ul, ur, ll, lr: drawn as ul → ur → lr → ll
          const path = new mupdf.Path();
          path.moveTo(q[0]!, q[1]!);
          path.lineTo(q[2]!, q[3]!);
          path.lineTo(q[6]!, q[7]!);
          path.lineTo(q[4]!, q[5]!);
          path.closePath();
          device.fillPath(path, false, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, [1, 0.85, 0], 0.4);
          path.destroy();
        }
        device.close();
        device.destroy();
      }
      const png = Buffer.from(pix.asPNG());
      pix.destroy();
      page.destroy();
      return png;
    }
  } finally {
    doc.destroy();
  }
};
