// SPDX-License-Identifier: AGPL-3.0-or-later
// The WASM engine's text extraction (npm `mupdf`), for `pdf-page.worker.ts`: a page's structured text printed
// to JSON (boxes, first character's font) and HTML (style runs) and read back into RawPage lines. The native
// engine (`pdf-native.ts`) returns the same RawPage without the printing.
import type * as Mupdf from 'mupdf';
import type { RawBlock, RawLine, RawPage } from './pdf-page.protocol.js';

/** A box in mupdf's structured-text JSON. */
interface JsonBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** mupdf's structured text as JSON (`StructuredText.asJSON()`): the fields read here. */
interface StextJson {
  blocks: (
    | { type: 'image'; bbox: JsonBox }
    | {
        type: 'text';
        bbox: JsonBox;
        lines: { text: string; wmode: number; bbox: JsonBox; font: { name: string; weight: string; size: number } }[];
      }
  )[];
}

function area(b: { w: number; h: number }): number {
  return Math.max(0, b.w) * Math.max(0, b.h);
}

function clipArea(b: JsonBox, w: number, h: number): number {
  const x0 = Math.max(0, b.x);
  const y0 = Math.max(0, b.y);
  const x1 = Math.min(w, b.x + b.w);
  const y1 = Math.min(h, b.y + b.h);
  return x1 > x0 && y1 > y0 ? (x1 - x0) * (y1 - y0) : 0;
}

const ENTITY = /&(#x[0-9a-f]+|#\d+|[a-z]+);/gi;

/**
 * Per line of mupdf's HTML rendering of the structured text: the share of bold characters and the font size
 * carrying most characters. Much cheaper than asking for one JSON span per style run (preserve-spans), which
 * multiplies the JSON size on word-processor PDFs.
 */
function lineStyles(html: string): { bold: number; mono: number; size: number }[] {
  const out = [];
  for (const p of html.matchAll(/<p style="[^"]*">([\s\S]*?)<\/p>/g)) {
    let bold = 0;
    let boldChars = 0;
    let mono = 0;
    let monoChars = 0;
    let total = 0;
    let size = 0;
    const bySize = new Map<number, number>();
    for (const t of (p[1] as string).matchAll(/<(\/?)(b|tt|span)\b([^>]*)>|([^<]+)/g)) {
      if (t[4] !== undefined) {
        const n = t[4].replace(ENTITY, 'x').replace(/\s+/g, '').length;
        if (n === 0) continue;
        total += n;
        if (bold > 0) boldChars += n;
        if (mono > 0) monoChars += n;
        bySize.set(size, (bySize.get(size) || 0) + n);
      } else if (t[2] === 'b') bold += t[1] ? -1 : 1;
      else if (t[2] === 'tt') mono += t[1] ? -1 : 1;
      else if (!t[1]) {
        const m = /font-size:([\d.]+)pt/.exec(t[3] as string);
        if (m) size = Number(m[1]);
      }
    }
    let best = 0;
    let bestN = -1;
    for (const [s, n] of bySize) if (n > bestN) [best, bestN] = [s, n];
    out.push({ bold: total ? boldChars / total : 0, mono: total ? monoChars / total : 0, size: best });
  }
  return out;
}

/** One page's text lines (boxes, size, weight) and image-area ratio, read with mupdf's WASM build. */
export function extractPage(doc: Mupdf.Document, index: number): RawPage {
  const page = doc.loadPage(index);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    const width = x1 - x0;
    const height = y1 - y0;
    const stext = page.toStructuredText('preserve-whitespace,preserve-images');
    let json: StextJson;
    let styles: { bold: number; mono: number; size: number }[] | null;
    try {
      json = JSON.parse(stext.asJSON()) as StextJson;
      styles = lineStyles(stext.asHTML(0));
    } finally {
      stext.destroy();
    }
    // the JSON gives boxes and the first character's font; the HTML gives the style runs of every line,
    // one <p> per line in the same order (checked: fall back to the first-character font otherwise)
    const textLines = json.blocks.reduce((n, b) => n + (b.type === 'text' ? b.lines.length : 0), 0);
    if (styles.length !== textLines) styles = null;
    let lineIndex = 0;
    const blocks: RawBlock[] = [];
    let imageArea = 0;
    for (const b of json.blocks) {
      if (b.type === 'image') {
        imageArea += clipArea(b.bbox, width, height);
        continue;
      }
      if (b.type !== 'text') continue;
      const lines: RawLine[] = [];
      for (const l of b.lines) {
        const style = styles ? styles[lineIndex] : null;
        lineIndex += 1;
        if (!l.text || l.wmode !== 0 || !l.text.trim()) continue;
        lines.push({
          text: l.text,
          x0: l.bbox.x,
          y0: l.bbox.y,
          x1: l.bbox.x + l.bbox.w,
          y1: l.bbox.y + l.bbox.h,
          size: style && style.size > 0 ? style.size : l.font.size,
          leadSize: l.font.size,
          bold: style ? style.bold >= 0.95 : l.font.weight === 'bold' || /bold|black|heavy|semibold/i.test(l.font.name),
          mono: style ? style.mono >= 0.95 : false,
        });
      }
      if (lines.length)
        blocks.push({ x0: b.bbox.x, y0: b.bbox.y, x1: b.bbox.x + b.bbox.w, y1: b.bbox.y + b.bbox.h, lines });
    }
    const pageArea = area({ w: width, h: height });
    return {
      pageNumber: index + 1,
      width,
      height,
      blocks,
      imageRatio: pageArea > 0 ? Math.min(1, imageArea / pageArea) : 0,
    };
  } finally {
    page.destroy();
  }
}
