// SPDX-License-Identifier: AGPL-3.0-or-later
import { ConversionOptionsSchema } from '@lectern/contracts';
import { OCR_THRESHOLDS } from '../index.js';

// One place for the OCR thresholds: the conversion options' defaults (what a job without options runs with) are
// the values OCR_THRESHOLDS names, and the thresholds are coherent with each other.
describe('OCR_THRESHOLDS', () => {
  it("are the conversion options' OCR defaults", () => {
    const defaults = ConversionOptionsSchema.parse({});
    expect(defaults.imageRatioThreshold).toBe(OCR_THRESHOLDS.imageRatio);
    expect(defaults.ocrMinConfidence).toBe(OCR_THRESHOLDS.warnConfidence);
    expect({ imageRatio: OCR_THRESHOLDS.imageRatio, warnConfidence: OCR_THRESHOLDS.warnConfidence }).toEqual({
      imageRatio: 0.7,
      warnConfidence: 70,
    });
  });

  it('hold the values the conversion and spec 000 scan rule were tuned with', () => {
    expect(OCR_THRESHOLDS.minTextChars).toBe(10);
    expect(OCR_THRESHOLDS.scannedText).toEqual({ minWordsPerPage: 30, minConfidence: 60 });
    expect(OCR_THRESHOLDS.orientation.trialDpi).toBeGreaterThanOrEqual(OCR_THRESHOLDS.minDpi);
    expect(OCR_THRESHOLDS.orientation.goodConfidence).toBeGreaterThan(OCR_THRESHOLDS.orientation.plausibleConfidence);
  });
});
