// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { barsImage, makePdf, pdfTextAt } from '@lectern/testing';
import { createConversionEngine, type ConversionEngine, type PdfEngine } from '../index.js';
import { looksLikeLettering } from './convert-paged.js';

// OCR only where it can find something: a page under the 10-character threshold goes to OCR when it carries
// an image or a drawing dense like lettering; a blank page, a part title, a page of rules do not.
const ADDON = fileURLToPath(new URL('../../native/build/Release/lectern_mupdf.node', import.meta.url));
const ENGINES: PdfEngine[] = existsSync(ADDON) ? ['wasm', 'native'] : ['wasm'];
/** Idle period of the tesseract workers here (the default is OCR_IDLE_RELEASE_MS). */
const IDLE_MS = 3000;
const engines = new Map(
  ENGINES.map(
    (e) =>
      [e, createConversionEngine({ pdfEngine: e, pdfWorkers: 1, ocrWorkers: 1, ocrIdleMs: IDLE_MS })] as [
        PdfEngine,
        ConversionEngine,
      ],
  ),
);
afterAll(() => Promise.all([...engines.values()].map((e) => e.close())));

const show = (x: number, y: number, text: string, size = 11): string => pdfTextAt(x, y, text, size);
const TEXT = [
  'The committee met on Tuesday to consider the application for the new library building.',
  'Members discussed the design, the materials and the effect on the conservation area.',
]
  .map((l, i) => show(72, 700 - i * 16, l))
  .join('\n');

/** A ring drawn as one filled path of eight curves (a glyph-like outline: an "o"). */
const ring = (cx: number, cy: number, r: number): string => {
  const k = 0.55 * r;
  const circle = (rr: number, kk: number): string =>
    `${cx + rr} ${cy} m ${cx + rr} ${cy + kk} ${cx + kk} ${cy + rr} ${cx} ${cy + rr} c ${cx - kk} ${cy + rr} ${cx - rr} ${cy + kk} ${cx - rr} ${cy} c ` +
    `${cx - rr} ${cy - kk} ${cx - kk} ${cy - rr} ${cx} ${cy - rr} c ${cx + kk} ${cy - rr} ${cx + rr} ${cy - kk} ${cx + rr} ${cy} c h`;
  return `${circle(r, k)} ${circle(r * 0.6, k * 0.6)} f*`;
};

describe.each(ENGINES)('OCR gate (%s engine)', (pdfEngine) => {
  const engine = (): ConversionEngine => engines.get(pdfEngine) as ConversionEngine;

  it('a blank page, a part title and a page of rules are not sent to OCR', async () => {
    const bytes = makePdf([
      { content: TEXT },
      { content: '' },
      { content: show(250, 400, 'PART ONE', 24) },
      { content: '0.5 w 72 700 m 540 700 l S 72 100 m 540 100 l S 72 650 468 20 re f' },
      { content: TEXT },
    ]);
    const r = await engine().convert({ bytes, filename: 'book.pdf' });
    expect(r.pages.map((p) => p.method)).toEqual([
      'text_layer',
      'text_layer',
      'text_layer',
      'text_layer',
      'text_layer',
    ]);
    expect(r.pages.map((p) => p.ocr_confidence)).toEqual([null, null, null, null, null]);
    expect(r.pages[2]?.text).toBe('PART ONE');
    expect(r.warnings).toContain("3 page(s) without text, images or lettering drawn as paths: not OCR'd");
    // no page needed OCR: no tesseract worker was started
    expect(engine().ocrWorkersRunning()).toBe(0);
  });

  it('a page carrying an image, or lettering drawn as paths, is sent to OCR', async () => {
    const lettering = Array.from({ length: 24 }, (_, i) =>
      ring(80 + (i % 12) * 36, 600 - Math.floor(i / 12) * 40, 12),
    ).join('\n');
    const bytes = makePdf([
      { content: TEXT },
      { content: 'q 400 0 0 120 100 500 cm /Im1 Do Q', image: barsImage() },
      { content: `0 g ${lettering}` },
    ]);
    const r = await engine().convert({ bytes, filename: 'scan.pdf' });
    expect(r.pages.map((p) => p.method)).toEqual(['text_layer', 'ocr', 'ocr']);
    expect(r.warnings.join(' ')).not.toMatch(/not OCR'd/);
    // the pages that needed OCR started the (one-worker) pool; idle, the worker is terminated
    expect(engine().ocrWorkersRunning()).toBe(1);
    let waited = 0;
    while (engine().ocrWorkersRunning() > 0 && waited < 30_000) {
      await new Promise((done) => setTimeout(done, 100));
      waited += 100;
    }
    expect(engine().ocrWorkersRunning()).toBe(0);
  });
});

describe('looksLikeLettering', () => {
  it('many filled paths of several segments each; not rules, not shaded cells', () => {
    expect(looksLikeLettering({ fills: 24, strokes: 0, segments: 192, areaRatio: 0.05 })).toBe(true);
    expect(looksLikeLettering({ fills: 0, strokes: 400, segments: 400, areaRatio: 0.3 })).toBe(false);
    expect(looksLikeLettering({ fills: 40, strokes: 0, segments: 120, areaRatio: 0.4 })).toBe(false);
    expect(looksLikeLettering({ fills: 3, strokes: 0, segments: 60, areaRatio: 0.01 })).toBe(false);
  });
});
