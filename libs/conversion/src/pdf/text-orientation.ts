// SPDX-License-Identifier: AGPL-3.0-or-later
// Which way up a scanned page is, from a binarised render and no OCR, in the mupdf worker thread
// (`pdf-page.worker.ts`). Hand-written because the npm language data for tesseract.js has no OSD model
// (native tesseract's orientation detector), and reading a page the wrong way up costs a full recognition
// pass (~3 s) before the right one.
import type { PageOrientation } from './pdf-page.protocol.js';

const STRIPS = 8; // narrow strips keep a skewed line inside one band of rows
const MIN_BAND = 4; // rows; thinner bands are specks or rules
const MAX_BAND = 60; // rows; taller bands are pictures or merged lines
const DOMINANCE = 1.5; // the winning axis / direction must beat the other by this factor
const MIN_VOTES = 15; // text lines needed before trusting a direction

/**
 * Text-line statistics along one axis: `get(x, y)` says whether a pixel is ink, lines run along x.
 * Each strip's row profile is cut into bands (text lines); a band's core is its rows holding at least half
 * of its densest row (the x-height). Latin-script lines carry more ink above the core (capitals, ascenders
 * b d f h k l t) than below it (descenders g j p q y): a line votes "up" or "down" by that asymmetry.
 */
function lineVotes(
  get: (x: number, y: number) => boolean,
  w: number,
  h: number,
): { lines: number; up: number; down: number } {
  const sw = Math.floor(w / STRIPS);
  const prof = new Float64Array(h);
  let lines = 0;
  let up = 0;
  let down = 0;
  for (let s = 0; s < STRIPS && sw > 0; s++) {
    const x0 = s * sw;
    for (let y = 0; y < h; y++) {
      let c = 0;
      for (let x = x0; x < x0 + sw; x++) if (get(x, y)) c++;
      prof[y] = c;
    }
    let y = 0;
    while (y < h) {
      while (y < h && prof[y] === 0) y++;
      const start = y;
      while (y < h && (prof[y] as number) > 0) y++;
      const end = y;
      if (end - start < MIN_BAND || end - start > MAX_BAND) continue;
      let max = 0;
      for (let k = start; k < end; k++) max = Math.max(max, prof[k] as number);
      if (max < sw * 0.15) continue; // a sparse band: stray marks, not a line of text
      let c0 = -1;
      let c1 = -1;
      for (let k = start; k < end; k++) {
        if ((prof[k] as number) >= max * 0.5) {
          if (c0 < 0) c0 = k;
          c1 = k;
        }
      }
      let above = 0;
      let below = 0;
      for (let k = start; k < c0; k++) above += prof[k] as number;
      for (let k = c1 + 1; k < end; k++) below += prof[k] as number;
      lines++;
      if (above > below * 1.2) up++;
      else if (below > above * 1.2) down++;
    }
  }
  return { lines, up, down };
}

/**
 * Orientation of a grey page image (0 = ink, 255 = paper; render at ~100 DPI): the clockwise rotation
 * (0, 90, 180, 270) that makes its text upright, and whether the evidence is strong enough to act on.
 * `axis` alone may be known (lines run one way, but too few of them lean either way).
 */
export function textOrientation(
  px: ArrayLike<number>,
  w: number,
  h: number,
  stride: number,
): Omit<PageOrientation, 'skew'> {
  const horizontal = lineVotes((x, y) => (px[y * stride + x] as number) < 128, w, h);
  // the transposed image: the page's columns become rows, so lines of a quarter-turned page run along x
  const vertical = lineVotes((x, y) => (px[x * stride + y] as number) < 128, h, w);
  const axis: PageOrientation['axis'] =
    horizontal.lines >= 10 && horizontal.lines >= vertical.lines * 2
      ? 'horizontal'
      : vertical.lines >= 10 && vertical.lines >= horizontal.lines * 2
        ? 'vertical'
        : 'unknown';
  const v = axis === 'vertical' ? vertical : horizontal;
  // in the transposed image "up" means the tops of the letters face the page's right edge: turn 90°
  const [upright, flipped] = axis === 'vertical' ? [90, 270] : [0, 180];
  const isUp = v.up >= MIN_VOTES && v.up >= v.down * DOMINANCE;
  const isDown = v.down >= MIN_VOTES && v.down >= v.up * DOMINANCE;
  return {
    axis,
    rotation: isDown ? flipped : upright,
    confident: axis !== 'unknown' && (isUp || isDown),
    lines: v.lines,
    up: v.up,
    down: v.down,
  };
}

const MAX_SKEW = 8; // degrees searched either way
const MIN_SKEW = 0.3; // smaller tilts are left alone (a re-render for nothing)

/**
 * Skew of horizontal text lines in a grey page image, in degrees: rendering the page with an extra
 * `Matrix.rotate(skew)` makes its lines level. The angle whose row projection of the ink is sharpest (largest
 * sum of squared row counts: lines and gaps line up) wins, coarse 0.5° steps then 0.1°. Tesseract's own page
 * layout (automatic segmentation) splits and merges the lines of a page tilted by 2-3°, so the OCR render is
 * levelled first; ~15 ms on a 100-DPI page.
 */
export function textSkew(px: ArrayLike<number>, w: number, h: number, stride: number): number {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x += 2) {
      if ((px[y * stride + x] as number) < 128) {
        xs.push(x - w / 2);
        ys.push(y - h / 2);
      }
    }
  }
  if (xs.length < 1000) return 0;
  const size = Math.ceil(Math.hypot(w, h)) + 2;
  const bins = new Float64Array(size);
  const sharpness = (deg: number): number => {
    const a = (deg * Math.PI) / 180;
    const c = Math.cos(a);
    const s = Math.sin(a);
    bins.fill(0);
    for (let i = 0; i < xs.length; i++) {
      const k = Math.round((ys[i] as number) * c + (xs[i] as number) * s + size / 2);
      bins[k] = (bins[k] as number) + 1;
    }
    let q = 0;
    for (let i = 0; i < size; i++) q += (bins[i] as number) * (bins[i] as number);
    return q;
  };
  let best = 0;
  let bestScore = sharpness(0);
  const consider = (deg: number): void => {
    const q = sharpness(deg);
    if (q > bestScore) {
      bestScore = q;
      best = deg;
    }
  };
  for (let d = -MAX_SKEW; d <= MAX_SKEW; d += 0.5) consider(d);
  const coarse = best;
  for (let k = -4; k <= 4; k++) consider(coarse + k / 10);
  const angle = Math.round(best * 10) / 10;
  return Math.abs(angle) < MIN_SKEW ? 0 : angle;
}
