// SPDX-License-Identifier: AGPL-3.0-or-later
import * as mupdf from 'mupdf';
import { makePdf, pdfString, wordRecall } from '@lectern/testing';
import { createConversionEngine, DEFAULT_OCR_SETTINGS, type ConversionEngine, type OcrSettings } from '../index.js';
import { ocrSettings } from './ocr-settings.js';

// The internal OCR settings (bench/conversion/ocr-trials.bench.ts varies them): today's values by default, each
// value actually reaching tesseract.js (OCR_ENGINE=wasm here; the native program: ocr-native.spec.ts). The scans are made here: text pages rendered by mupdf, drawn as images.
const OCR_TIMEOUT = 240_000;

const LEFT = [
  'Alpha river flows north',
  'past the old mill and',
  'under the stone bridge',
  'toward the quiet harbour',
  'where fishing boats wait',
  'for the morning tide to',
  'carry them out to sea.',
  'Gulls follow every one.',
];
const RIGHT = [
  'Bravo train leaves early',
  'from the east platform',
  'with three green carriages',
  'bound for the coast and',
  'its long sandy beaches,',
  'stopping at each village',
  'along the valley line',
  'before the sun is high.',
];

/** A two-column page (the right column's lines half a line lower) rendered at 200 DPI and drawn as an 8-bit grey image on an image-only page. */
function twoColumnScan(): Buffer {
  const line = (x: number, y: number, s: string): string => `BT /F1 14 Tf ${x} ${y} Td (${pdfString(s)}) Tj ET`;
  const content = [
    ...LEFT.map((s, i) => line(60, 700 - i * 22, s)),
    ...RIGHT.map((s, i) => line(340, 689 - i * 22, s)),
  ].join('\n');
  const page = mupdf.Document.openDocument(makePdf([{ content }]), 'application/pdf').loadPage(0);
  const scale = 200 / 72;
  const pix = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false);
  const gray = new Uint8Array(pix.getPixels());
  return makePdf([
    { content: 'q 612 0 0 792 0 0 cm /Im1 Do Q', image: { width: pix.getWidth(), height: pix.getHeight(), gray } },
  ]);
}

const engines: ConversionEngine[] = [];
const engineWith = (settings?: Partial<OcrSettings>): ConversionEngine => {
  const e = createConversionEngine({
    pdfWorkers: 1,
    ocrWorkers: 1,
    ocrEngine: 'wasm',
    ...(settings ? { ocrSettings: settings } : {}),
  });
  engines.push(e);
  return e;
};
afterAll(() => Promise.all(engines.map((e) => e.close())));

const ocrText = async (engine: ConversionEngine): Promise<string> => {
  const r = await engine.convert({ bytes: twoColumnScan(), filename: 'scan.pdf' });
  expect(r.pages[0]?.method).toBe('ocr');
  return (r.pages[0]?.text ?? '').replace(/\s+/g, ' ');
};
const reference = [...LEFT, ...RIGHT].join(' ');

describe('OCR settings', () => {
  it("default to today's values: best_int model data, automatic segmentation, 300 DPI, Otsu", () => {
    expect(ocrSettings()).toEqual({ langData: '4.0.0_best_int', psm: 3, dpi: 300, thresholding: 0 });
    expect(DEFAULT_OCR_SETTINGS).toEqual(ocrSettings());
    expect(ocrSettings({ psm: 6, dpi: 400 })).toEqual({ ...DEFAULT_OCR_SETTINGS, psm: 6, dpi: 400 });
  });

  it('refuse a render resolution outside 100-600 DPI when the engine is made', () => {
    for (const dpi of [50, 1200, Number.NaN]) {
      expect(() => ocrSettings({ dpi })).toThrow(RangeError);
      expect(() => createConversionEngine({ ocrSettings: { dpi } })).toThrow(RangeError);
    }
  });

  it(
    'automatic segmentation (the default) reads the columns one after the other',
    async () => {
      const text = await ocrText(engineWith());
      expect(wordRecall(text, reference)).toBeGreaterThanOrEqual(0.9);
      expect(text).toContain('Alpha river flows north past the old mill');
      // the whole left column before the right one
      expect(text.indexOf('Gulls follow every one')).toBeLessThan(text.indexOf('Bravo train leaves early'));
    },
    OCR_TIMEOUT,
  );

  it(
    'single-block segmentation reads each line across both columns (with the standard model data, 250 DPI, Sauvola)',
    async () => {
      const text = await ocrText(engineWith({ langData: '4.0.0', psm: 6, dpi: 250, thresholding: 2 }));
      expect(wordRecall(text, reference)).toBeGreaterThanOrEqual(0.9);
      // one block: each line read straight across both columns, the right column's first line before the left's second
      expect(text.indexOf('Bravo train leaves early')).toBeGreaterThan(-1);
      expect(text.indexOf('Bravo train leaves early')).toBeLessThan(text.indexOf('past the old mill'));
    },
    OCR_TIMEOUT,
  );
});
