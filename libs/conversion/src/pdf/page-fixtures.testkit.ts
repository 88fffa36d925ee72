// SPDX-License-Identifier: AGPL-3.0-or-later
import type { RawBlock, RawLine, RawPage } from './pdf-page.protocol.js';

// Page data built by hand for the layout and table tests: text lines with boxes and font sizes, as the mupdf
// engines hand them to page-layout.ts (points, origin at the page's top-left corner).

/** An A4-ish page. */
export const PAGE = { width: 612, height: 792 };

/** Width of `text` set at `size` points (a proportional font averages about half an em per character). */
export const textWidth = (text: string, size: number): number => text.length * size * 0.5;

/** One raw line (or fragment) starting at (x0, y0). */
export function line(
  text: string,
  x0: number,
  y0: number,
  opts: { size?: number; bold?: boolean; leadSize?: number } = {},
): RawLine {
  const size = opts.size ?? 10;
  return {
    text,
    x0,
    y0,
    x1: x0 + textWidth(text, size),
    y1: y0 + size * 1.2,
    size,
    leadSize: opts.leadSize ?? size,
    bold: opts.bold ?? false,
  };
}

/** Lines stacked from (x0, y0), `leading` points apart. */
export function stack(
  texts: string[],
  x0: number,
  y0: number,
  opts: { size?: number; bold?: boolean; leading?: number } = {},
): RawLine[] {
  const leading = opts.leading ?? (opts.size ?? 10) * 1.4;
  return texts.map((t, k) => line(t, x0, y0 + k * leading, opts));
}

/** A raw block around its lines. */
export function block(lines: RawLine[]): RawBlock {
  return {
    x0: Math.min(...lines.map((l) => l.x0)),
    y0: Math.min(...lines.map((l) => l.y0)),
    x1: Math.max(...lines.map((l) => l.x1)),
    y1: Math.max(...lines.map((l) => l.y1)),
    lines,
  };
}

export function page(blocks: RawBlock[], pageNumber = 1): RawPage {
  return { pageNumber, ...PAGE, blocks, imageRatio: 0 };
}
