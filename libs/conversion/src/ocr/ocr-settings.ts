// SPDX-License-Identifier: AGPL-3.0-or-later
import { CONVERSION_OCR_DEFAULTS } from '@lectern/contracts/conversion';

/**
 * Every OCR setting and threshold of Lectern, in one place: how pages are OCR'd (tesseract's settings), when a
 * page or a document needs OCR, and when an OCR read is trusted. The two a caller may set per conversion
 * (`imageRatioThreshold`, `ocrMinConfidence`: the conversion options' contract in libs/contracts, whose layer
 * cannot import this one) are read from there, so each value is written once.
 */
export const OCR_THRESHOLDS = {
  /** A PDF page with fewer visible characters than this has no usable text layer (OCR'd if it carries an image or lettering). */
  minTextChars: 10,
  /** Average image ratio above which a document is image-based (IMAGE_RATIO_THRESHOLD's default). */
  imageRatio: CONVERSION_OCR_DEFAULTS.imageRatioThreshold,
  /** Below this mean confidence an OCR'd page is warned about (`ocrMinConfidence`'s default). */
  warnConfidence: CONVERSION_OCR_DEFAULTS.ocrMinConfidence,
  /** Resolutions an OCR render may use (a render's size grows with the square). */
  minDpi: 100,
  maxDpi: 600,
  /** Orientation trials (ocr-page.ts): a smaller render, and when a read is good enough to stop trying. */
  orientation: {
    trialDpi: 150,
    /** A read this confident with this many words is upright. */
    goodConfidence: 70,
    goodWords: 5,
    /** A hard page (old type, illustrations) read this well is kept rather than tried other ways up. */
    plausibleConfidence: 55,
    plausibleWords: 10,
  },
  /**
   * Spec 000's scan rule: a document with no text layer at all is kept (not skipped as image-based) only if its
   * OCR reads as prose — at least this many real words a page at this mean confidence or more.
   */
  scannedText: { minWordsPerPage: 30, minConfidence: 60 },
} as const;

/**
 * How long a tesseract worker may sit idle before it is terminated and its memory (~250-300 MB with the eng model
 * after a 300-DPI page) given back; the next OCR page starts one again (~1-2 s of CPU). Engine option `ocrIdleMs`.
 */
export const OCR_IDLE_RELEASE_MS = 30_000;

/** Language data directories of `@tesseract.js-data/eng` available offline (no float "best" model is installed). */
export const OCR_LANG_DATA = ['4.0.0_best_int', '4.0.0'] as const;

/**
 * How pages are OCR'd. Internal tuning knobs (bench/conversion/ocr-trials.bench.ts measures them), not a public
 * contract: the service and the command line always run with DEFAULT_OCR_SETTINGS.
 */
export interface OcrSettings {
  /** `4.0.0_best_int`: tessdata_best's LSTM, integerised; `4.0.0`: tessdata's (legacy + integer LSTM; only the LSTM is used). */
  langData: (typeof OCR_LANG_DATA)[number];
  /** tesseract's page segmentation mode: 3 AUTO, 4 single column, 6 single block, 11 sparse text, 12 sparse text + OSD. */
  psm: 3 | 4 | 6 | 11 | 12;
  /** Resolution a PDF page is rendered at for OCR (an image file is read at its own). */
  dpi: number;
  /** tesseract's `thresholding_method`: 0 Otsu, 1 LeptonicaOtsu, 2 Sauvola. */
  thresholding: 0 | 1 | 2;
}

/** Measured in bench/conversion/ocr-trials.bench.ts (docs/benchmarks/conversion.md, "OCR quality"). */
export const DEFAULT_OCR_SETTINGS: Readonly<OcrSettings> = {
  langData: '4.0.0_best_int',
  psm: 3,
  dpi: 300,
  thresholding: 0,
};

/** The defaults with `overrides` applied; a resolution outside 100-600 DPI is refused (a render's size grows with its square). */
export function ocrSettings(overrides: Partial<OcrSettings> = {}): OcrSettings {
  const s = { ...DEFAULT_OCR_SETTINGS, ...overrides };
  if (!Number.isFinite(s.dpi) || s.dpi < OCR_THRESHOLDS.minDpi || s.dpi > OCR_THRESHOLDS.maxDpi)
    throw new RangeError(`OCR resolution ${s.dpi} DPI outside ${OCR_THRESHOLDS.minDpi}-${OCR_THRESHOLDS.maxDpi}`);
  return s;
}
