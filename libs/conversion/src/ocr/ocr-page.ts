import { conversionError } from '../errors.js';
import type { DocRef } from '../pdf/pdf-worker-pool.js';
import type { FormatContext } from '../types.js';

export interface OcrPageResult {
  text: string;
  confidence: number;
  /** Clockwise rotation applied before recognition (0, 90, 180, 270). */
  rotation: number;
}

/** Trial renders for orientation are smaller: enough for tesseract to tell upright text from rotated. */
const TRIAL_DPI = 150;
const GOOD_CONFIDENCE = 70;

const words = (s: string): number => (s.match(/\p{L}{2,}/gu) ?? []).length;

/** Confidence weighted by how much real text came out (a few confident glyphs on a rotated page are not a read). */
const score = (r: { text: string; confidence: number }): number => r.confidence * Math.min(1, words(r.text) / 20);

/**
 * Renders one page and recognises it. Rotated pages (90/180/270): when the upright read is weak, each
 * orientation is tried on a smaller render and the page is read again at full resolution the best way up.
 * The eng language data has no OSD model, so orientation is decided by recognition confidence. Small skew
 * is straightened by tesseract itself (`rotateAuto`).
 */
export async function ocrPage(ctx: FormatContext, doc: DocRef, page: number, dpi: number): Promise<OcrPageResult> {
  const { pools, signal } = ctx;
  const read = async (rotation: number, atDpi: number): Promise<OcrPageResult> => {
    let png: Uint8Array;
    try {
      png = (await pools.pdf.render(doc, page, atDpi, rotation, signal)).png;
    } catch (e) {
      signal.throwIfAborted();
      throw conversionError('extraction_failed', `page ${page} could not be rendered for OCR`, e);
    }
    const r = await pools.ocr.recognize(png, signal);
    return { ...r, rotation };
  };
  const upright = await read(0, dpi);
  if (upright.text.trim().length === 0) return upright;
  if (upright.confidence >= GOOD_CONFIDENCE && words(upright.text) >= 5) return upright;
  const trialDpi = Math.min(dpi, TRIAL_DPI);
  let best = { rotation: 0, score: score(upright) };
  for (const rotation of [90, 270, 180]) {
    const t = await read(rotation, trialDpi);
    const s = score(t);
    if (s > best.score * 1.1) best = { rotation, score: s };
  }
  if (best.rotation === 0) return upright;
  const turned = await read(best.rotation, dpi);
  return score(turned) >= score(upright) ? turned : upright;
}
