// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, type ConversionResult } from '@lectern/contracts';
import { OCR_THRESHOLDS } from '@lectern/conversion';

/**
 * What becomes of a scanned (image-based) PDF (`SCANNED_PDF_POLICY`): `ocr` (default) keeps a pure scan whose OCR
 * reads as prose; `skip` is spec 000's rule as written: every image-based document is skipped.
 */
export type ScannedPdfPolicy = 'ocr' | 'skip';
export const SCANNED_PDF_POLICIES = ['ocr', 'skip'] as const;

/** Spec 000's answer for a skipped document. */
export interface ImageBasedSkip {
  status: 'skipped';
  reason: 'image_based';
  image_ratio: number;
  total_pages: number;
}

/** Every page lacked a text layer (the conversion OCR'd it, or left it empty when OCR was off or skipped). */
const isPureScan = (result: ConversionResult): boolean =>
  result.pages.every((p) => p.method === 'ocr' || p.char_count < OCR_THRESHOLDS.minTextChars);

/**
 * A document whose pages have no text layer at all, OCR'd, reads as prose: at least 30 real words a page and a mean
 * confidence of 60 or more (`OCR_THRESHOLDS.scannedText`; maps and drawings yield a few labels at low confidence).
 */
export const readsAsScannedText = (result: ConversionResult): boolean => {
  if (!isPureScan(result)) return false;
  const ocrPages = result.pages.filter((p) => p.method === 'ocr');
  if (ocrPages.length === 0) return false;
  const words = ocrPages.reduce((n, p) => n + p.text.split(/\s+/).filter((w) => /[A-Za-z]{3,}/.test(w)).length, 0);
  const confidence = ocrPages.reduce((n, p) => n + (p.ocr_confidence ?? 0), 0) / ocrPages.length;
  const { minWordsPerPage, minConfidence } = OCR_THRESHOLDS.scannedText;
  return words / ocrPages.length >= minWordsPerPage && confidence >= minConfidence;
};

/**
 * Spec 000 FR-001 step 3: an image-based document (average image ratio > threshold) is skipped, so no drawing is
 * OCR'd and stored. Under the `ocr` policy a pure scan that reads as prose (a scanned letter, a report) is kept:
 * users expect it searchable. Never kept: a rendering (by file name), or any scan when OCR is off.
 */
export const imageBasedRule =
  (policy: ScannedPdfPolicy, enableOcr: boolean) =>
  (converted: ConversionResult): ImageBasedSkip | undefined => {
    if (!converted.image_based) return undefined;
    const keep = policy === 'ocr' && enableOcr && !converted.is_rendering && readsAsScannedText(converted);
    if (keep) return undefined;
    return {
      status: 'skipped',
      reason: 'image_based',
      image_ratio: Number(converted.average_image_ratio.toFixed(3)),
      total_pages: converted.page_count,
    };
  };

/**
 * Whether a kept document contains drawings: a rendering, or an image-based document that is not a scan of text.
 * (The conversion calls every image-based document a drawing; a page that is one scanned image of prose is not.)
 */
export const containsDrawings = (converted: ConversionResult): boolean =>
  converted.contains_drawings && (converted.is_rendering || !readsAsScannedText(converted));

/** Characters of text the conversion found (trimmed, per page). */
export const totalChars = (converted: ConversionResult): number =>
  converted.pages.reduce((n, p) => n + p.text.trim().length, 0);

/** `no_content` for a document without any text. */
export const requireText = (converted: ConversionResult, filename: string): void => {
  if (totalChars(converted) === 0) throw new AppError('no_content', `No text could be extracted from ${filename}`);
};
