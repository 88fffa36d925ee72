// SPDX-License-Identifier: AGPL-3.0-or-later
import type { OcrWord } from '@lectern/conversion';
import type { Span } from './page-layout.js';

/**
 * A word holding a digit read with less confidence than this is not stated (tesseract's confidence, 0–100; on
 * variant 19 the misread numbers — "32" for 3.2, "2.9:" for 2.5, "3.10" for 3.75 — were read at 3–66, the right
 * ones mostly at 74–97).
 */
export const OCR_DIGIT_CONFIDENCE = 70;

/**
 * The skew of a page's lines is measured on lines of this many words or more whose first and last words' centres
 * are this many word heights apart, and levelled up to this angle.
 */
const SKEW = { minWords: 2, minHeights: 4, maxRadians: (5 * Math.PI) / 180 } as const;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * The slope of a scanned page's lines (radians, clockwise positive in image coordinates: y down): the median over
 * its lines of two words or more, at least four of their words' heights apart, of the least-squares slope of the words' bottoms against their centres. A page
 * scanned a degree off level has lines whose two ends differ by more than a line's height over a text column's
 * width, so pairing by raw y would put one line's label beside the next line's value.
 */
export const pageSkew = (lines: OcrWord[][]): number => {
  const slopes: number[] = [];
  for (const ws of lines) {
    if (ws.length < SKEW.minWords) continue;
    const xs = ws.map((w) => w.left + w.width / 2);
    if (Math.max(...xs) - Math.min(...xs) < median(ws.map((w) => w.height)) * SKEW.minHeights) continue;
    const ys = ws.map((w) => w.top + w.height);
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    let sxy = 0;
    let sxx = 0;
    for (let i = 0; i < xs.length; i += 1) {
      sxy += (xs[i]! - mx) * (ys[i]! - my);
      sxx += (xs[i]! - mx) ** 2;
    }
    if (sxx > 0) slopes.push(sxy / sxx);
  }
  if (slopes.length === 0) return 0;
  const angle = Math.atan(median(slopes));
  return Math.abs(angle) > SKEW.maxRadians ? 0 : angle;
};

/**
 * A scanned page's spans from its OCR words (issue 26, round 14): tesseract's lines, levelled by the page's skew
 * (each word's centre turned about the page's origin by the lines' slope, so a line's words share a y and the next
 * line's lie below it), each line cut into spans where the gap between two words is wider than half the line's
 * height (a column's gutter, not a space), in PDF points (`pxPerPt` pixels of the render per point). The boxes are
 * the levelled frame's (within a degree of the page's own), each span's `quad` its corners in the render's frame.
 */
export const spansFromOcrWords = (page: number, words: OcrWord[], pxPerPt: number): Span[] => {
  const byLine = new Map<string, OcrWord[]>();
  for (const w of words) {
    if (!Number.isFinite(w.left + w.top + w.width + w.height) || w.width <= 0 || w.height <= 0) continue;
    // (specks of grain read as a mark with no letter or digit and no confidence)
    if (!/[\p{L}\p{N}]/u.test(w.text) && !(w.confidence >= 50)) continue;
    const l = byLine.get(w.line);
    if (l) l.push(w);
    else byLine.set(w.line, [w]);
  }
  const lines = [...byLine.values()];
  const angle = pageSkew(lines);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const levelled = lines.map((ws) =>
    ws
      .map((w) => {
        const cx = w.left + w.width / 2;
        const cy = w.top + w.height / 2;
        const x = cx * cos + cy * sin;
        const y = -cx * sin + cy * cos;
        return {
          text: w.text,
          confidence: w.confidence,
          x0: x - w.width / 2,
          x1: x + w.width / 2,
          y0: y - w.height / 2,
          y1: y + w.height / 2,
        };
      })
      .sort((a, b) => a.x0 - b.x0),
  );
  // the page's space: the median gap between two words of a line
  const gaps = levelled.flatMap((l) => l.slice(1).map((w, i) => w.x0 - l[i]!.x1)).filter((g) => g > 0);
  const space = median(gaps);
  const spans: Span[] = [];
  for (const level of levelled) {
    const height = median(level.map((w) => w.y1 - w.y0));
    const y0 = Math.min(...level.map((w) => w.y0));
    const y1 = Math.max(...level.map((w) => w.y1));
    let cur: { text: string[]; x0: number; x1: number; uncertain: boolean } | undefined;
    /** A levelled point back in the render's frame (the skew undone), in points. */
    const back = (x: number, y: number) => [(x * cos - y * sin) / pxPerPt, (x * sin + y * cos) / pxPerPt];
    const flush = () => {
      if (cur)
        spans.push({
          quad: [...back(cur.x0, y0), ...back(cur.x1, y0), ...back(cur.x0, y1), ...back(cur.x1, y1)],
          page,
          text: cur.text.join(' '),
          x0: cur.x0 / pxPerPt,
          y0: y0 / pxPerPt,
          x1: cur.x1 / pxPerPt,
          y1: y1 / pxPerPt,
          size: (y1 - y0) / pxPerPt / 1.2,
          ...(cur.uncertain ? { uncertain: true } : {}),
        });
      cur = undefined;
    };
    for (const w of level) {
      if (cur && w.x0 - cur.x1 > Math.max(space * 2.5, height)) flush();
      if (!cur) cur = { text: [], x0: w.x0, x1: w.x1, uncertain: false };
      cur.text.push(w.text);
      if (/\d/.test(w.text) && !(w.confidence >= OCR_DIGIT_CONFIDENCE)) cur.uncertain = true;
      cur.x1 = Math.max(cur.x1, w.x1);
    }
    flush();
  }
  return spans;
};
