// SPDX-License-Identifier: AGPL-3.0-or-later
import { probeNativeTesseract, recognizeNativeWords, type NativeTesseract, type OcrWord } from './ocr-native.js';
import { DEFAULT_OCR_SETTINGS } from './ocr-settings.js';

let native: Promise<NativeTesseract | null> | undefined;

/**
 * The words of a page image (a grey PAM, as mupdf renders it) with their boxes in the image's pixels, read by the
 * native tesseract with the conversion's settings (issue 26, round 14: the extraction's page layout of a scanned
 * page). Null when no native tesseract with the eng data is on PATH (the caller then has no layout for the page).
 */
export async function ocrPageWords(
  image: Uint8Array,
  dpi: number,
  signal?: AbortSignal,
  timeoutMs?: number,
): Promise<OcrWord[] | null> {
  native ??= probeNativeTesseract('eng').then((r) => r.native);
  const tesseract = await native;
  if (!tesseract) return null;
  const { psm, thresholding } = DEFAULT_OCR_SETTINGS;
  return recognizeNativeWords(tesseract.bin, image, {
    lang: 'eng',
    dpi,
    psm,
    thresholding,
    ...(signal ? { signal } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
  });
}
