// SPDX-License-Identifier: AGPL-3.0-or-later
import { conversionError } from '../errors.js';
import { OcrEngineError } from './ocr-native.js';
import type { DocRef, PageOrientation } from '../pdf/pdf-worker-pool.js';
import type { FormatContext } from '../types.js';
import { OCR_THRESHOLDS } from './ocr-settings.js';

export interface OcrPageResult {
  text: string;
  confidence: number;
  /** Clockwise rotation applied before recognition (0, 90, 180, 270). */
  rotation: number;
}

/** Trial renders for orientation are smaller: enough for tesseract to tell upright text from rotated. */
const {
  trialDpi: TRIAL_DPI,
  goodConfidence,
  goodWords,
  plausibleConfidence,
  plausibleWords,
} = OCR_THRESHOLDS.orientation;

const words = (s: string): number => (s.match(/\p{L}{2,}/gu) ?? []).length;

/** Confidence weighted by how much real text came out (a few confident glyphs on a rotated page are not a read). */
const score = (r: { text: string; confidence: number }): number => r.confidence * Math.min(1, words(r.text) / 20);

/**
 * Renders one page and recognises it the right way up. The eng language data has no OSD model, so the page's
 * orientation comes first from the shapes of its text lines (`text-orientation.ts`, ~20 ms): when that is
 * confident the page is read once, turned as it says. Otherwise, or when that read is weak, orientations are
 * tried on a band of a smaller render and the best is read at full resolution. A tilted page (skew.pdf,
 * rotated_skew.pdf: 2-3°) is rendered level, measured on the same small render: tesseract's automatic page
 * layout, which finds columns, splits and merges the lines of a tilted page (recall 89% instead of 96%), and
 * tesseract.js's own `rotateAuto` costs a layout pass per read.
 */
export async function ocrPage(ctx: FormatContext, doc: DocRef, page: number, dpi: number): Promise<OcrPageResult> {
  try {
    return await readPage(ctx, doc, page, dpi);
  } catch (e) {
    if (!(e instanceof OcrEngineError)) throw e;
    ctx.signal.throwIfAborted();
    // the engine's own words (tesseract's stderr, an exit code) go to the log; the client gets the fixed reason
    ctx.log?.warn({ file: ctx.filename, page, reason: e.reason, detail: e.detail }, 'OCR engine failed');
    throw conversionError('extraction_failed', `page ${page} could not be OCR'd: ${e.message}`, e);
  }
}

async function readPage(ctx: FormatContext, doc: DocRef, page: number, dpi: number): Promise<OcrPageResult> {
  const { pools, signal } = ctx;
  let o: PageOrientation = { axis: 'unknown', rotation: 0, confident: false, lines: 0, up: 0, down: 0, skew: 0 };
  try {
    o = await pools.pdf.orientation(doc, page, signal);
  } catch {
    signal.throwIfAborted(); // orientation is a hint only
  }
  // every render is levelled: tesseract's page layout splits the lines of a tilted page
  const { skew } = o;
  const render = async (
    rotation: number,
    atDpi: number,
  ): Promise<{ image: Uint8Array; width: number; height: number }> => {
    try {
      return await pools.pdf.render(doc, page, atDpi, rotation + skew, signal);
    } catch (e) {
      signal.throwIfAborted();
      throw conversionError('extraction_failed', `page ${page} could not be rendered for OCR`, e);
    }
  };
  /** Full-resolution reads, at most one per rotation. */
  const reads = new Map<number, Promise<OcrPageResult>>();
  const read = (rotation: number): Promise<OcrPageResult> => {
    let r = reads.get(rotation);
    if (!r) {
      r = render(rotation, dpi).then(async (img) => ({
        ...(await pools.ocr.recognize(img.image, signal, undefined, dpi)),
        rotation,
      }));
      reads.set(rotation, r);
    }
    return r;
  };
  /** An orientation trial reads only a central band of a small render: enough words to compare, a fraction of the time. */
  const trial = async (rotation: number): Promise<OcrPageResult> => {
    const trialDpi = Math.min(dpi, TRIAL_DPI);
    const img = await render(rotation, trialDpi);
    const band = {
      left: Math.round(img.width * 0.1),
      top: Math.round(img.height * 0.3),
      width: Math.round(img.width * 0.8),
      height: Math.round(img.height * 0.4),
    };
    const r = await pools.ocr.recognize(img.image, signal, band, trialDpi);
    return { ...r, rotation };
  };
  const good = (r: OcrPageResult): boolean => r.confidence >= goodConfidence && words(r.text) >= goodWords;
  const plausible = (r: OcrPageResult): boolean =>
    r.confidence >= plausibleConfidence && words(r.text) >= plausibleWords;
  // a rotated page reads as garbage (confidence ~30); a plausible read of a hard page (old type,
  // illustrations) is kept as it is rather than paying for trials that cannot beat it
  const acceptable = (r: OcrPageResult): boolean => r.text.trim().length === 0 || good(r) || plausible(r);
  /** The best-scoring read (the first one on ties). */
  const best = (...rs: (OcrPageResult | null)[]): OcrPageResult =>
    rs.reduce<OcrPageResult | null>((a, b) => (b && (!a || score(b) > score(a)) ? b : a), null) as OcrPageResult;
  /** Low-resolution trials pick the best of `rotations`; the winner is then read at full resolution. */
  const bestOf = async (rotations: number[], floor: OcrPageResult | null): Promise<OcrPageResult | null> => {
    let top: { rotation: number; score: number } | null = null;
    for (const rotation of rotations) {
      const t = await trial(rotation);
      const s = score(t);
      if (!top || s > top.score) top = { rotation, score: s };
      if (good(t)) break; // a clearly good read needs no comparison with the remaining orientations
    }
    if (!top || (floor && top.score <= score(floor) * 1.1)) return null;
    return read(top.rotation);
  };

  let first: OcrPageResult | null = null;
  if (o.confident) {
    first = await read(o.rotation);
    if (acceptable(first)) return first;
  }
  if (o.axis !== 'vertical') {
    // lines run horizontally (or nobody can tell): upright first, the common case
    const upright = await read(0);
    if (acceptable(upright)) return upright;
    const floor = best(upright, first);
    const rest = (o.axis === 'horizontal' ? [180] : [180, 90, 270]).filter((r) => !reads.has(r));
    return best(await bestOf(rest, floor), floor);
  }
  // lines run vertically: the page is turned a quarter, the hinted way first
  const quarter = (o.rotation === 270 ? [270, 90] : [90, 270]).filter((r) => !reads.has(r));
  const turned = await bestOf(quarter, first);
  if (turned && good(turned)) return turned;
  return best(turned, first, await read(0));
}
