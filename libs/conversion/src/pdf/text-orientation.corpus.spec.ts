// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import * as mupdf from 'mupdf';
import { corpusFile } from '@lectern/testing';
import { PdfWorkerPool, type DocRef } from './pdf-worker-pool.js';

const scan = (name: string): string => corpusFile('scanned-ocr', 'ocrmypdf-resources', name);
const ref = (path: string, key = path): DocRef => ({
  key,
  mime: 'application/pdf',
  bytes: new Uint8Array(readFileSync(path)),
});

/** A one-page PDF holding `page` of `path` turned by `rotate` degrees (the page's /Rotate, as a scanner writes it). */
function turned(path: string, rotate: number): DocRef {
  const src = mupdf.PDFDocument.openDocument(readFileSync(path), 'application/pdf') as mupdf.PDFDocument;
  const out = new mupdf.PDFDocument();
  out.graftPage(0, src, 0);
  out.findPage(0).put('Rotate', rotate);
  const bytes = out.saveToBuffer('compress').asUint8Array().slice();
  return { key: `${path}@${rotate}`, mime: 'application/pdf', bytes };
}

describe('page orientation without OCR (text-orientation.ts through PdfWorkerPool.orientation)', () => {
  const pool = new PdfWorkerPool(1);
  afterAll(() => pool.close());

  it('says which way up each page of cardinal.pdf is (scanned at 0/90/180/270 degrees)', async () => {
    const doc = ref(scan('cardinal.pdf'));
    const got = [];
    for (const page of [1, 2, 3, 4]) got.push(await pool.orientation(doc, page));
    expect(got.map((o) => o.rotation)).toEqual([0, 270, 180, 90]);
    expect(got.map((o) => o.axis)).toEqual(['horizontal', 'vertical', 'horizontal', 'vertical']);
    expect(got.every((o) => o.confident)).toBe(true);
  });

  it.each([90, 180, 270])('undoes a %i-degree turn of the linn page', async (rotate) => {
    const o = await pool.orientation(turned(scan('linn.pdf'), rotate), 1);
    expect(o).toMatchObject({ rotation: (360 - rotate) % 360, confident: true });
  });

  it('keeps skewed and illustrated pages upright', async () => {
    for (const name of ['skew.pdf', 'rotated_skew.pdf', 'c02-22.pdf']) {
      const o = await pool.orientation(ref(scan(name)), 1);
      expect({ name, rotation: o.rotation, axis: o.axis }).toEqual({ name, rotation: 0, axis: 'horizontal' });
    }
  });

  it('measures how far the lines of a scanned page tilt', async () => {
    const skews: Record<string, number> = {};
    for (const name of ['linn.pdf', 'skew.pdf', 'rotated_skew.pdf'])
      skews[name] = (await pool.orientation(ref(scan(name)), 1)).skew;
    expect(skews['linn.pdf']).toBe(0);
    expect(skews['skew.pdf']).toBeCloseTo(-1.9, 0);
    expect(skews['rotated_skew.pdf']).toBeCloseTo(2.8, 0);
    // measured in the turned frame for a quarter-turned page: the cardinal scans are level
    expect((await pool.orientation(ref(scan('cardinal.pdf')), 2)).skew).toBe(0);
  });

  it('is not confident about a page without text', async () => {
    const blank = new mupdf.PDFDocument();
    blank.insertPage(-1, blank.addPage([0, 0, 595, 842], 0, {}, ''));
    const bytes = blank.saveToBuffer('').asUint8Array().slice();
    const o = await pool.orientation({ key: 'blank', mime: 'application/pdf', bytes }, 1);
    expect(o).toMatchObject({ axis: 'unknown', confident: false, rotation: 0 });
  });
});
