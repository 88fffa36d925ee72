// SPDX-License-Identifier: AGPL-3.0-or-later
import { LABEL_MATCH, labelScore } from '../fields/field-words.js';
import type { SchemaField } from '../schema-fields.js';
import { ocrPageWords, textOrientation, textSkew, type OcrWord } from '@lectern/conversion';
import { spansFromOcrWords } from './ocr-spans.js';

/**
 * Label ↔ value pairing from the page's layout (issue 26, round 10). The converter's Markdown loses the pairing of
 * a form's labels and values when it prints a column of labels before the column of their values ("Account" /
 * "Statement date" … then "7720 4415 09" / "18 November 2026"), or a boxed form's small labels above their values
 * as two rows; rules over the Markdown were written per layout and did not carry to unseen documents. Here the
 * page's own text lines with their boxes (mupdf's structured text, one read per page) say which text is beside or
 * under which: a label's value is the text right of it on the same baseline, or the text directly below it in the
 * same column. The pairs are read once per document; which label is a field's is decided by the extractor's own
 * label matcher (`candidatesIn` over `Label: value` lines), so the type, unit and extent checks are the same.
 */

/** A run of text on one line of a page, in PDF points, origin top-left. */
export interface Span {
  page: number;
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** The font size of its first character. */
  size: number;
  /**
   * Read by the OCR with a word holding a digit it was unsure of (round 14: "3.2" read as "32", "2.5" as "2.9:"):
   * the span is no value of a pair or a grid (a reader does not state a number they cannot read).
   */
  uncertain?: boolean;
  /**
   * A span read by the OCR: its box's corners on the page (ul, ur, ll, lr; PDF points, origin top-left, as mupdf's
   * search quads), for the evidence of a scanned page (`ocr-pages.ts`). The box above is in the levelled frame.
   */
  quad?: number[];
}

export interface LayoutPair {
  page: number;
  label: Span;
  value: Span;
  /** `right`: on the label's baseline; `below`: the next text under it in its column. */
  where: 'right' | 'below';
  /**
   * The heading of the label's block, when it has one: the text alone on its line above a column of labels that
   * starts at its left edge ("Life expectancy" over "Mechanical" / "Electrical").
   */
  heading?: string;
}

/**
 * Bounds: pages read per document, spans kept per page; pages without a text layer OCR'd per document (round 14),
 * their render's resolution and pixels, and each read's time.
 */
export const LAYOUT_LIMITS = {
  maxPages: 12,
  maxSpansPerPage: 1500,
  maxOcrPages: 6,
  ocrDpi: 300,
  maxOcrPixels: 16_000_000,
  ocrTimeoutMs: 60_000,
} as const;

/** Reads a page render's words (a grey PAM at `dpi`); null when no OCR engine is there. */
export type PageOcr = (image: Uint8Array, dpi: number) => Promise<OcrWord[] | null>;

/** The conversion's native tesseract (libs/conversion's `ocrPageWords`). */
const defaultOcr: PageOcr = (image, dpi) => ocrPageWords(image, dpi, undefined, LAYOUT_LIMITS.ocrTimeoutMs);

/**
 * The part of mupdf's API this reads. mupdf is imported when a layout is first read (it is an ES module only, and its
 * WASM build is large); eslint.config.mjs lists libs/extraction beside libs/conversion as a place that may use it.
 */
interface StextWalker {
  beginLine?(bbox: number[], wmode: number, direction: number[]): void;
  onChar?(c: string, origin: number[], font: unknown, size: number, quad: number[]): void;
  endLine?(): void;
}
interface MupdfLike {
  Matrix: {
    scale(sx: number, sy: number): unknown;
    rotate(degrees: number): unknown;
    concat(a: unknown, b: unknown): unknown;
  };
  ColorSpace: { DeviceGray: unknown };
  Document: {
    openDocument(
      bytes: Uint8Array,
      magic: string,
    ): {
      countPages(): number;
      loadPage(i: number): {
        toStructuredText(options: string): { walk(w: StextWalker): void; destroy(): void };
        getBounds(): number[];
        toPixmap(matrix: unknown, colorspace: unknown, alpha: boolean, showExtras: boolean): PixmapLike;
        destroy(): void;
      };
      destroy(): void;
    };
  };
}

/** Where the command line's bin puts its `import()` (as libs/conversion's importEsm). */
const HOST_IMPORT = Symbol.for('lectern.import');
const importMupdf = (): Promise<MupdfLike> => {
  const host = (globalThis as { [HOST_IMPORT]?: (specifier: string) => Promise<unknown> })[HOST_IMPORT];
  return (host ? host('mupdf') : import('mupdf')) as Promise<MupdfLike>;
};

/**
 * A line's characters in spans: a gap wider than one and a half of the font's spaces (two spaces, a column's
 * gutter) starts a new span, so a table row or a form's "Label  value" line printed as one text run is read as its
 * parts.
 */
const spansOfLine = (page: number, chars: { c: string; q: number[]; size: number }[]): Span[] => {
  const spans: Span[] = [];
  // the width of one space of the line's font (its space characters' boxes), else a third of an em
  const space = chars.find((ch) => ch.c === ' ');
  const spaceWidth = space ? Math.abs(Math.max(space.q[2]!, space.q[6]!) - Math.min(space.q[0]!, space.q[4]!)) : 0;
  let cur: { text: string; x0: number; y0: number; x1: number; y1: number; size: number } | undefined;
  let lastRight = -Infinity;
  const flush = () => {
    if (cur && cur.text.trim()) spans.push({ page, ...cur, text: cur.text.replace(/\s+/g, ' ').trim() });
    cur = undefined;
  };
  for (const { c, q, size } of chars) {
    const x0 = Math.min(q[0]!, q[4]!);
    const x1 = Math.max(q[2]!, q[6]!);
    const y0 = Math.min(q[1]!, q[3]!);
    const y1 = Math.max(q[5]!, q[7]!);
    if (/\s/.test(c)) {
      if (cur) cur.text += ' ';
      continue;
    }
    // more than one space's width (and a third of an em) between two characters: a new span
    if (cur && x0 - lastRight > Math.max((spaceWidth || size * 0.33) * 1.5, size * 0.33, 2)) flush();
    if (!cur) cur = { text: '', x0, y0, x1, y1, size };
    cur.text += c;
    cur.x0 = Math.min(cur.x0, x0);
    cur.y0 = Math.min(cur.y0, y0);
    cur.x1 = Math.max(cur.x1, x1);
    cur.y1 = Math.max(cur.y1, y1);
    lastRight = x1;
  }
  flush();
  return spans;
};

/**
 * Every page's spans (at most `LAYOUT_LIMITS.maxPages` pages), read once; a page with no text layer (a scan) is
 * rendered and read by the OCR (`ocr`; round 14), its words' boxes becoming its spans (`spansFromOcrWords`).
 * Throws when the bytes are not a PDF mupdf opens.
 */
export const readPageSpans = async (
  bytes: Uint8Array,
  maxPages: number = LAYOUT_LIMITS.maxPages,
  ocr: PageOcr | null = defaultOcr,
): Promise<Span[][]> => {
  const mupdf = await importMupdf();
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  try {
    const pages: Span[][] = [];
    let ocrPages = 0;
    const count = Math.min(doc.countPages(), maxPages);
    for (let p = 0; p < count; p += 1) {
      const page = doc.loadPage(p);
      const text = page.toStructuredText('preserve-whitespace');
      const spans: Span[] = [];
      let chars: { c: string; q: number[]; size: number }[] = [];
      text.walk({
        beginLine: () => {
          chars = [];
        },
        onChar: (c, _origin, _font, size, quad) => {
          chars.push({ c, q: Array.from(quad), size });
        },
        endLine: () => {
          if (spans.length < LAYOUT_LIMITS.maxSpansPerPage) spans.push(...spansOfLine(p + 1, chars));
        },
      });
      text.destroy();
      if (spans.length === 0 && ocr && ocrPages < LAYOUT_LIMITS.maxOcrPages) {
        ocrPages += 1;
        spans.push(...(await ocrSpans(mupdf, page, p + 1, ocr)));
      }
      page.destroy();
      pages.push(spans.slice(0, LAYOUT_LIMITS.maxSpansPerPage));
    }
    return pages;
  } finally {
    doc.destroy();
  }
};

/** A page's render: grey pixels, or a PAM image, with the pixmap's origin (its first pixel's place, scaled). */
interface PixmapLike {
  asPAM(): Uint8Array;
  getPixels(): ArrayLike<number>;
  getWidth(): number;
  getHeight(): number;
  getStride(): number;
  getX(): number;
  getY(): number;
  destroy(): void;
}

/**
 * A page without a text layer (round 14): rendered grey and turned level as the conversion's OCR renders it
 * (libs/conversion's `ocrPage`: orientation and skew measured on a 100-DPI render by `textOrientation` /
 * `textSkew`, then a 300-DPI render, at most 16 Mpx, rotated by both), so tesseract reads the same image and the
 * same words as the Markdown's text; its words' boxes become spans in the levelled render's frame, scaled back to
 * points about the page's origin (within the page's skew, a degree or so, of the page's own coordinates).
 */
const ocrSpans = async (
  mupdf: MupdfLike,
  page: ReturnType<ReturnType<MupdfLike['Document']['openDocument']>['loadPage']>,
  pageNo: number,
  ocr: PageOcr,
): Promise<Span[]> => {
  const [x0, y0, x1, y1] = page.getBounds();
  const area = Math.abs((x1! - x0!) * (y1! - y0!));
  if (!(area > 0)) return [];
  const bounded = (dpi: number) => Math.min(dpi / 72, Math.sqrt(LAYOUT_LIMITS.maxOcrPixels / area));
  const grey = <T>(rotate: number, fn: (px: ArrayLike<number>, w: number, h: number, stride: number) => T): T => {
    const m = mupdf.Matrix.concat(mupdf.Matrix.scale(bounded(100), bounded(100)), mupdf.Matrix.rotate(rotate));
    const pix = page.toPixmap(m, mupdf.ColorSpace.DeviceGray, false, true);
    try {
      return fn(pix.getPixels(), pix.getWidth(), pix.getHeight(), pix.getStride());
    } finally {
      pix.destroy();
    }
  };
  const o = grey(0, (px, w, h, stride) => {
    const found = textOrientation(px, w, h, stride);
    return { ...found, skew: found.axis === 'horizontal' ? textSkew(px, w, h, stride) : 0 };
  });
  // (a page turned a quarter is left to the Markdown: its lines would need their own turn)
  if (o.axis === 'vertical') return [];
  const rotate = (o.confident ? o.rotation : 0) + o.skew;
  const scale = bounded(LAYOUT_LIMITS.ocrDpi);
  const m = mupdf.Matrix.concat(mupdf.Matrix.scale(scale, scale), mupdf.Matrix.rotate(rotate));
  const pix = page.toPixmap(m, mupdf.ColorSpace.DeviceGray, false, true);
  let image: Uint8Array;
  let origin: [number, number];
  try {
    image = pix.asPAM();
    origin = [pix.getX(), pix.getY()];
  } finally {
    pix.destroy();
  }
  try {
    const words = await ocr(image, scale * 72);
    // (the render's pixel 0,0 is the turned page's corner; a quad's corners turned back onto the page: mupdf's
    // rotate(θ) maps x, y to x cos θ - y sin θ, x sin θ + y cos θ)
    const [ox, oy] = [origin[0] / scale, origin[1] / scale];
    const [c, s] = [Math.cos((rotate * Math.PI) / 180), Math.sin((rotate * Math.PI) / 180)];
    const onPage = (q: number[]): number[] =>
      [0, 2, 4, 6].flatMap((i) => {
        const [x, y] = [q[i]! + ox, q[i + 1]! + oy];
        return [x * c + y * s, -x * s + y * c];
      });
    return (words ? spansFromOcrWords(pageNo, words, scale) : []).map((sp) => ({
      ...sp,
      x0: sp.x0 + ox,
      x1: sp.x1 + ox,
      y0: sp.y0 + oy,
      y1: sp.y1 + oy,
      ...(sp.quad ? { quad: onPage(sp.quad) } : {}),
    }));
  } catch {
    return []; // an OCR that fails or times out leaves the page without a layout (the Markdown's rules still read it)
  }
};

const words = (text: string): string[] => text.split(/\s+/).filter((w) => w.length > 0);

/**
 * Text that reads as a label, not a value: short (at most six words, 48 characters), no digit, not a sentence
 * (no final full stop, a lower-case start only after a capital word), and either ending in a colon, in capitals
 * ("ORDER NO.", "PLACED ON"), or a phrase some field of the schema is labelled by.
 */
export const labelLike = (text: string, fields: SchemaField[]): boolean => {
  const t = text.trim();
  if (!t || t.length > 48 || /\d/.test(t) || words(t).length > 6) return false;
  if (/[:：]$/.test(t)) return true;
  if (/\p{L}/u.test(t) && t === t.toUpperCase() && /\p{Lu}{2}/u.test(t)) return true;
  const bare = t.replace(/[.:]$/, '');
  return fields.some((f) => labelScore(f, bare, true) >= LABEL_MATCH);
};

/** Text that may label a value beside or under it: short, with a letter, not a sentence. */
const mayLabel = (text: string): boolean => {
  const t = text.trim();
  // (a digit: a value, or a label with its value in it, which the Markdown's rules read)
  if (!/\p{L}/u.test(t) || /\d/.test(t) || t.length > 48 || words(t).length > 6) return false;
  // a sentence or a clause, not a label
  if (/[.;!?]$/.test(t) && !/\b(?:no|nr|ref|approx|max|min|typ)\.$/i.test(t)) return false;
  // "Label: value" on one line: the Markdown's own rules read it
  if (/[:：]\s*\S/.test(t)) return false;
  return true;
};

/** A value, not a sentence: at most 60 characters and 8 words, no full stop ending a clause of 5 words or more. */
const oneValue = (text: string): boolean =>
  text.length <= 60 && words(text).length <= 8 && !(words(text).length >= 5 && /[.;]$/.test(text));

/** A sentence: five words or more ending in a full stop, or more than twelve words (round 11). */
const sentence = (text: string): boolean =>
  (words(text).length >= 5 && /[.;!?]$/.test(text.trim())) || words(text).length > 12;

const centreY = (s: Span) => (s.y0 + s.y1) / 2;
const sameBaseline = (a: Span, b: Span) =>
  Math.abs(centreY(a) - centreY(b)) <= Math.min(a.y1 - a.y0, b.y1 - b.y0) * 0.5;

/**
 * The label ↔ value pairs of a document's pages:
 * - **right**: the nearest span right of a label-like span on its baseline, when that span is not itself a label
 *   and is the last of the line or followed by a label (a form's second pair); a table row with several value
 *   columns is the table reader's (which column is meant is not known here), a cell with a value on its left
 *   labels nothing, and a row of three texts or more without a digit is a header row (no values);
 * - **below**: a label-like span with no value beside it whose next span down in its column (left edges within
 *   6 pt, or the label's extent overlapping it; at most 1.8 line heights under it) is one short value, not a label
 *   — a boxed form's label above its value, a column header over its only cell; the span under that value must
 *   be a label or nothing (an address block, a paragraph or a column of many cells is not one value).
 * A label has no digit (a line holding a digit is a value, or a label with its value, which the Markdown's rules
 * read).
 * A span that is itself label-like is never a value.
 */
export const layoutPairs = (pages: Span[][], fields: SchemaField[]): LayoutPair[] => {
  const pairs: LayoutPair[] = [];
  for (const spans of pages) {
    const isLabel = new Map<Span, boolean>();
    const labelish = (s: Span) => {
      let v = isLabel.get(s);
      if (v === undefined) isLabel.set(s, (v = labelLike(s.text, fields)));
      return v;
    };
    const sorted = [...spans].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
    const under = (s: Span): Span | undefined => {
      const h = s.y1 - s.y0;
      let best: Span | undefined;
      for (const o of sorted) {
        // (below: its middle under the label's box; a small label's box and its value's may overlap a little)
        if (o === s || centreY(o) < s.y1) continue;
        if (o.y0 - s.y1 > h * 1.8) break;
        const column = Math.abs(o.x0 - s.x0) <= 6 || (o.x0 < s.x1 && o.x1 > s.x0 && o.x0 >= s.x0 - 6);
        if (!column) continue;
        if (!best || o.y0 < best.y0) best = o;
      }
      return best;
    };
    /**
     * Alone on its line within its block: no other text on its baseline overlaps it or the block's extent to its
     * right (`right`): a two-column page prints two blocks' headings on one line ("Output" … "Input"; round 11).
     */
    const alone = (s: Span, right = Infinity) =>
      !sorted.some((o) => o !== s && sameBaseline(o, s) && o.x1 > s.x0 - 1 && o.x0 < Math.max(right, s.x1));
    /**
     * Up the label's column (left edges within 2 pt), over labels with a text beside them, to the first text alone on
     * its line with no digit: the block's heading. None when a line in between is not such a label row or the gap
     * between two lines is wider than two line heights.
     */
    const headingOf = (label: Span, right = Infinity): { heading?: string } => {
      let at = label;
      for (let steps = 0; steps < 12; steps += 1) {
        const h = at.y1 - at.y0;
        const above = sorted
          .filter((o) => o.y1 <= at.y0 + h * 0.3 && at.y0 - o.y1 <= h * 2 && Math.abs(o.x0 - label.x0) <= 2)
          .sort((a, b) => b.y1 - a.y1)[0];
        if (!above || /\d/.test(above.text) || !mayLabel(above.text)) return {};
        if (alone(above, right)) return above === label ? {} : { heading: above.text };
        at = above;
      }
      return {};
    };
    for (const label of sorted) {
      if (!mayLabel(label.text)) continue;
      const row = sorted.filter((o) => o !== label && sameBaseline(o, label));
      const right = row.filter((o) => o.x0 >= label.x1 - 1).sort((a, b) => a.x0 - b.x0);
      const left = row.filter((o) => o.x1 <= label.x0 + 1).sort((a, b) => b.x1 - a.x1);
      // a cell in the middle of a table row (a value on its left) labels nothing
      // (unless it is a form's second pair on the line: "Voltage  24 V DC    Voltage  100-240 VAC", a label with a
      // value before it, far apart, as a two-column page prints its blocks side by side; round 11)
      const secondPair =
        left.length === 2 &&
        !mayLabel(left[0]!.text) &&
        mayLabel(left[1]!.text) &&
        label.x0 - left[0]!.x1 > (label.y1 - label.y0) * 2;
      if (left.length > 0 && !labelish(left[0]!) && !labelish(label) && !secondPair) continue;
      // a row of three texts or more none of which has a digit is a table's header row: labels, no values
      const headerRow = row.length >= 2 && [label, ...row].every((o) => !/\d/.test(o.text));
      const nearest = right[0];
      // (or by a second label and its value, far apart: two blocks side by side; round 11)
      const beforeSecond =
        right.length === 3 &&
        mayLabel(right[1]!.text) &&
        !mayLabel(right[2]!.text) &&
        nearest !== undefined &&
        !mayLabel(nearest.text) &&
        right[1]!.x0 - nearest.x1 > (label.y1 - label.y0) * 2;
      if (nearest && !headerRow && !labelish(nearest) && (right.length === 1 || labelish(right[1]!) || beforeSecond)) {
        if (nearest.uncertain) continue;
        // (a sentence beside a marginal heading is prose, not the heading's value: "Duration" / "The agreement runs
        // for an initial period of 3 years …"; round 11)
        if (sentence(nearest.text)) continue;
        pairs.push({ page: label.page, label, value: nearest, where: 'right', ...headingOf(label, nearest.x1) });
        continue;
      }
      // below: only a label with no value beside it
      if (right.some((o) => !labelish(o))) continue;
      const value = under(label);
      if (!value || value.uncertain || labelish(value) || !oneValue(value.text)) continue;
      // one value under its label: a block of lines (an address, a paragraph, a column of cells) is not
      // (the block goes on when the next line follows the value as closely as the value follows its label)
      const next = under(value);
      const leading = value.y0 - label.y1 + (value.y1 - value.y0) * 0.5;
      if (next && !labelish(next) && next.y0 - value.y1 <= leading) continue;
      pairs.push({ page: label.page, label, value, where: 'below', ...headingOf(label) });
    }
  }
  return pairs;
};

/**
 * A cell of a grid on the page (issue 26, round 12): a value under a column header, on the line of a row label.
 * Round 10's pairs skip every row with several values (which column is meant is not known there); a field's row
 * label and the column its qualifier names (Min / Typ / Max, a model, a condition) say which cell it is.
 */
export interface GridCell {
  page: number;
  /** The row's first span: its label. */
  row: Span;
  /** The header span of the cell's column. */
  column: Span;
  value: Span;
  /** The row's value cells (its unit, symbol, condition and note cells not counted). */
  cells: number;
  /** The row's cell under a `Unit` header, when the grid has one. */
  unit?: Span;
}

/** Column headers that head no value: a unit, a symbol, a condition, a note, a parameter's name. */
const UNIT_HEADER = /^(?:units?|unit of measure|dim\.?|\[?unit\]?)$/i;
const NO_VALUE_HEADER =
  /^(?:symbols?|sym\.?|(?:test )?conditions?|notes?|remarks?|comments?|parameters?|characteristics?|items?|descriptions?|ref\.?)$/i;

/** The lines of a page: spans on one baseline, left to right, top to bottom. */
const linesOf = (spans: Span[]): Span[][] => {
  const lines: Span[][] = [];
  for (const s of [...spans].sort((a, b) => centreY(a) - centreY(b) || a.x0 - b.x0)) {
    const line = lines.find((l) => sameBaseline(l[0]!, s));
    if (line) line.push(s);
    else lines.push([s]);
  }
  for (const l of lines) l.sort((a, b) => a.x0 - b.x0);
  return lines.sort((a, b) => centreY(a[0]!) - centreY(b[0]!));
};

/** The header a cell is under: the one its extent overlaps most, else the nearest by centre within a column's width. */
const columnOf = (cell: Span, headers: Span[]): Span | undefined => {
  let best: Span | undefined;
  let most = 0;
  for (const h of headers) {
    const overlap = Math.min(h.x1, cell.x1) - Math.max(h.x0, cell.x0);
    if (overlap > most) [best, most] = [h, overlap];
  }
  if (best) return best;
  const mid = (s: Span) => (s.x0 + s.x1) / 2;
  const near = [...headers].sort((a, b) => Math.abs(mid(a) - mid(cell)) - Math.abs(mid(b) - mid(cell)))[0];
  return near && Math.abs(mid(near) - mid(cell)) <= Math.max(near.x1 - near.x0, cell.x1 - cell.x0) ? near : undefined;
};

/**
 * The cells of the grids on a document's pages. A grid is a header line (two column headers or more, each with a
 * letter, at most 40 characters, none a sentence) over rows: the next lines, each no further below the one above
 * than two and a half line heights, whose first span starts within 6 pt of the first row's and lies left of every
 * column header (the row label: a letter in it), with a digit in at least one of its other spans and each of those
 * under one column header (overlapping it, or centred within its width), no two in one column. A header line's
 * span over the row labels' column ("Parameter", "Model") heads no value; a `Unit` column's cell is its row's unit;
 * symbol, condition and note columns head no value. A line that is a grid's row is not another grid's header.
 */
export const gridCells = (pages: Span[][]): GridCell[] => {
  const cells: GridCell[] = [];
  for (const spans of pages) {
    const lines = linesOf(spans);
    const used = new Set<number>();
    for (let h = 0; h + 1 < lines.length; h += 1) {
      if (used.has(h)) continue;
      const header = lines[h]!;
      if (header.some((s) => !/\p{L}/u.test(s.text) || s.text.length > 40 || sentence(s.text))) continue;
      const first = lines[h + 1]![0]!;
      // the header spans right of the row labels' column
      const columns = header.filter((s) => s.x0 > first.x1 - 1 && !(Math.abs(s.x0 - first.x0) <= 6));
      if (columns.length < 2) continue;
      const rows: { label: Span; placed: Map<Span, Span> }[] = [];
      let prev = header;
      for (let r = h + 1; r < lines.length; r += 1) {
        const line = lines[r]!;
        const lh = prev[0]!.y1 - prev[0]!.y0;
        if (line[0]!.y0 - prev[0]!.y1 > lh * 2.5) break;
        const label = line[0]!;
        // (a row label starts with a letter, a digit or a bracket: a bullet starts a list item, not a row)
        if (
          Math.abs(label.x0 - first.x0) > 6 ||
          !/\p{L}/u.test(label.text) ||
          /^[•·▪◦‣\-–*]/u.test(label.text) ||
          label.x1 > columns[0]!.x0 + 1
        )
          break;
        const rest = line.slice(1);
        if (rest.length === 0 || !rest.some((s) => /\d/.test(s.text))) break;
        const placed = new Map<Span, Span>();
        let fits = true;
        for (const s of rest) {
          const col = columnOf(s, columns);
          if (!col || placed.has(col)) {
            fits = false;
            break;
          }
          placed.set(col, s);
        }
        if (!fits) break;
        rows.push({ label, placed });
        used.add(r);
        prev = line;
      }
      if (rows.length === 0) continue;
      const unitCol = columns.find((c) => UNIT_HEADER.test(c.text.trim()));
      for (const { label, placed } of rows) {
        const unit = unitCol ? placed.get(unitCol) : undefined;
        const values = [...placed].filter(([col]) => col !== unitCol && !NO_VALUE_HEADER.test(col.text.trim()));
        for (const [column, value] of values.filter(([, v]) => !v.uncertain))
          cells.push({ page: label.page, row: label, column, value, cells: values.length, ...(unit ? { unit } : {}) });
      }
    }
  }
  return cells;
};
