// SPDX-License-Identifier: AGPL-3.0-or-later
import { effectiveOptions } from './conversion-engine.js';

/** What a conversion runs with: a call (a client's options, a job's) may lower the operator's limits only. */
describe('effectiveOptions: a call cannot raise the engine limits', () => {
  const limits = { maxPages: 100, timeoutMs: 60_000, ocr: false, maxBytes: 1000 };

  it('clamps maxPages, timeoutMs, maxBytes and OCR to the limits', () => {
    expect(
      effectiveOptions({ enableOcr: false }, limits, {
        maxPages: 1_000_000,
        timeoutMs: 600_000,
        maxBytes: 1e9,
        enableOcr: true,
      }),
    ).toMatchObject({
      maxPages: 100,
      timeoutMs: 60_000,
      maxBytes: 1000,
      enableOcr: false,
    });
  });

  it('lets a call lower them, and applies the limits when the call says nothing', () => {
    expect(effectiveOptions({}, limits, { maxPages: 5, timeoutMs: 1000 })).toMatchObject({
      maxPages: 5,
      timeoutMs: 1000,
      maxBytes: 1000,
      enableOcr: false,
    });
    expect(effectiveOptions({}, { maxPages: 7 }, {})).toMatchObject({ maxPages: 7 });
  });

  it('keeps defaults unless the call overrides them, and OCR on when allowed', () => {
    expect(
      effectiveOptions({ enableOcr: true, imageRatioThreshold: 0.5 }, {}, { enableOcr: false, ocrMinConfidence: 50 }),
    ).toMatchObject({
      enableOcr: false,
      imageRatioThreshold: 0.5,
      ocrMinConfidence: 50,
    });
    expect(effectiveOptions({ enableOcr: false }, { ocr: true }, { enableOcr: true })).toMatchObject({
      enableOcr: true,
    });
  });
});
