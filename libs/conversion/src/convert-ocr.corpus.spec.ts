// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import * as mupdf from 'mupdf';
import { corpusFile, wordRecall as recallOf } from '@lectern/testing';
import { createConversionEngine } from './index.js';

/** One engine for the whole file (it owns the mupdf and tesseract workers); closed after the last test. */
const engine = createConversionEngine();
afterAll(() => engine.close());

// OCR is seconds per page on 2 cores; these few pages may need more than the default minute on a busy machine.
const OCR_TIMEOUT = 240_000;

const SCANS = ['scanned-ocr', 'ocrmypdf-resources'] as const;
const scan = (name: string): string => corpusFile(...SCANS, name);

const reference = readFileSync(scan('linn.txt'), 'utf8');
/** Share of the reference's words (with multiplicity) found in the OCR text. */
const wordRecall = (text: string): number => recallOf(text, reference);

const recalls: string[] = [];

/** Minimal 8-bit grey, uncompressed, single-strip TIFF. */
function tiff(grey: Buffer, w: number, h: number): Uint8Array {
  const entries: [number, number, number][] = [
    [256, 4, w], // ImageWidth (LONG)
    [257, 4, h], // ImageLength
    [258, 3, 8], // BitsPerSample (SHORT)
    [259, 3, 1], // Compression: none
    [262, 3, 1], // Photometric: black is zero
    [273, 4, 8 + 2 + 9 * 12 + 4], // StripOffsets: right after the IFD
    [277, 3, 1], // SamplesPerPixel
    [278, 4, h], // RowsPerStrip
    [279, 4, w * h], // StripByteCounts
  ];
  const ifd = Buffer.alloc(2 + entries.length * 12 + 4);
  ifd.writeUInt16LE(entries.length, 0);
  entries.forEach(([tag, type, value], i) => {
    const o = 2 + i * 12;
    ifd.writeUInt16LE(tag, o);
    ifd.writeUInt16LE(type, o + 2);
    ifd.writeUInt32LE(1, o + 4);
    if (type === 3) ifd.writeUInt16LE(value, o + 8);
    else ifd.writeUInt32LE(value, o + 8);
  });
  const head = Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]);
  return Buffer.concat([head, ifd, grey]);
}

/** Minimal 24-bit BMP (rows bottom-up, padded to 4 bytes). */
function bmp(grey: Buffer, w: number, h: number): Uint8Array {
  const row = Math.ceil((w * 3) / 4) * 4;
  const out = Buffer.alloc(54 + row * h);
  out.write('BM', 0, 'latin1');
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(w, 18);
  out.writeInt32LE(h, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  out.writeUInt32LE(row * h, 34);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const v = grey[y * w + x] ?? 255;
      const o = 54 + (h - 1 - y) * row + x * 3;
      out[o] = v;
      out[o + 1] = v;
      out[o + 2] = v;
    }
  return out;
}

describe('convertDocument: OCR of image-only documents (ocrmypdf samples)', () => {
  afterAll(async () => {
    // The issue asks for the recall to be reported, not only asserted.
    process.stdout.write(`\nOCR word recall vs linn.txt:\n${recalls.join('\n')}\n`);
  });

  it.each(['linn.pdf', 'skew.pdf', 'rotated_skew.pdf'])(
    'OCRs %s with word recall >= 90%%',
    async (name) => {
      const stages = new Set<string>();
      const r = await engine.convert({ path: scan(name) }, { onProgress: (p) => stages.add(p.stage) });
      expect(r.method).toBe('ocr');
      expect(r.page_count).toBe(1);
      const page = r.pages[0];
      expect(page?.method).toBe('ocr');
      expect(page?.ocr_confidence).toBeGreaterThan(70);
      expect(r.image_based).toBe(true); // a full-page scan: callers may choose to skip it
      expect(stages.has('ocr')).toBe(true);
      const recall = wordRecall(page?.text ?? '');
      recalls.push(`  ${name}: ${(recall * 100).toFixed(1)}% (confidence ${page?.ocr_confidence})`);
      expect(recall).toBeGreaterThanOrEqual(0.9);
      expect(r.markdown).toContain('LinnSequencer');
      // reading order: a two-column page is read column by column, not straight across both
      expect(page?.text.replace(/\s+/g, ' ')).toContain(
        'simply press RECORD and PLAY, then play your MIDI keyboard in time',
      );
    },
    OCR_TIMEOUT,
  );

  it(
    'turns pages scanned at 90/180/270 degrees upright (cardinal.pdf)',
    async () => {
      const r = await engine.convert({ path: scan('cardinal.pdf') });
      expect(r.page_count).toBe(4);
      expect(r.pages.map((p) => p.rotation ?? 0)).toEqual([0, 270, 180, 90]);
      for (const p of r.pages) {
        const recall = wordRecall(p.text);
        recalls.push(
          `  cardinal.pdf page ${p.page_number} (turned ${p.rotation ?? 0}°): ${(recall * 100).toFixed(1)}%`,
        );
        expect(p.method).toBe('ocr');
        expect(recall).toBeGreaterThanOrEqual(0.9);
      }
      // each page's text lands on its own page in the page map
      expect(r.page_map.map((e) => e.page)).toEqual([1, 2, 3, 4]);
    },
    OCR_TIMEOUT,
  );

  it(
    'OCRs an image file as a one-page document',
    async () => {
      const r = await engine.convert({ bytes: readFileSync(scan('linn.png')), filename: 'linn.png' });
      expect(r.detected_type).toBe('image');
      expect(r.method).toBe('ocr');
      expect(r.page_count).toBe(1);
      const recall = wordRecall(r.pages[0]?.text ?? '');
      recalls.push(`  linn.png: ${(recall * 100).toFixed(1)}%`);
      expect(recall).toBeGreaterThanOrEqual(0.9);
    },
    OCR_TIMEOUT,
  );

  it(
    'OCRs JPEG, TIFF and BMP images too',
    async () => {
      // the linn scan re-encoded: JPEG by mupdf, uncompressed TIFF and BMP written by hand (no encoder here)
      const img = new mupdf.Image(readFileSync(scan('linn.png')));
      const pix = img.toPixmap().convertToColorSpace(mupdf.ColorSpace.DeviceGray, false);
      const w = pix.getWidth();
      const h = pix.getHeight();
      const stride = pix.getStride();
      const px = pix.getPixels();
      const grey = Buffer.alloc(w * h);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) grey[y * w + x] = px[y * stride + x] ?? 255;
      const files: [string, Uint8Array][] = [
        ['scan.jpg', pix.asJPEG(90)],
        ['scan.tif', tiff(grey, w, h)],
        ['scan.bmp', bmp(grey, w, h)],
      ];
      for (const [filename, bytes] of files) {
        const r = await engine.convert({ bytes, filename });
        expect(r.detected_type).toBe('image');
        expect(r.method).toBe('ocr');
        const recall = wordRecall(r.pages[0]?.text ?? '');
        recalls.push(`  linn as ${filename.split('.')[1]}: ${(recall * 100).toFixed(1)}%`);
        expect(recall).toBeGreaterThanOrEqual(0.9);
      }
    },
    OCR_TIMEOUT,
  );

  it('skips OCR for a rendering (by filename) and when OCR is disabled, saying so', async () => {
    const bytes = readFileSync(scan('linn.pdf'));
    const render = await engine.convert({ bytes, filename: 'Site CGI render - street scene.pdf' });
    expect(render.is_rendering).toBe(true);
    expect(render.contains_drawings).toBe(true);
    expect(render.pages[0]?.method).toBe('text_layer');
    expect(render.pages[0]?.char_count).toBe(0);
    expect(render.warnings.join(' ')).toMatch(/rendering/);
    const off = await engine.convert({ bytes, filename: 'linn.pdf' }, { enableOcr: false });
    expect(off.pages[0]?.char_count).toBe(0);
    expect(off.warnings.join(' ')).toMatch(/OCR disabled/);
  });
});

describe('convertDocument: text layer and OCR in one document', () => {
  it(
    'mixes text-layer and OCR pages, each in its place in the Markdown and the page map',
    async () => {
      // NPPF page 4 (text layer) followed by the linn scan (image only), assembled with mupdf
      const out = new mupdf.PDFDocument();
      const nppf = new mupdf.PDFDocument(
        readFileSync(corpusFile('uk-planning-policy', 'nppf-2024', 'NPPF_December_2024.pdf')),
      );
      const linn = new mupdf.PDFDocument(readFileSync(scan('linn.pdf')));
      out.graftPage(-1, nppf, 3);
      out.graftPage(-1, linn, 0);
      const bytes = out.saveToBuffer('').asUint8Array();
      const r = await engine.convert({ bytes, filename: 'mixed.pdf' });
      expect(r.method).toBe('mixed');
      expect(r.pages.map((p) => p.method)).toEqual(['text_layer', 'ocr']);
      expect(r.headings[0]).toMatchObject({ title: '1. Introduction', page: 1 });
      const scanStart = r.page_map[1]?.offset ?? -1;
      expect(r.markdown.indexOf('LinnSequencer')).toBeGreaterThanOrEqual(scanStart);
      expect(r.markdown.indexOf('The National Planning Policy Framework sets out')).toBeLessThan(scanStart);
      expect(wordRecall(r.pages[1]?.text ?? '')).toBeGreaterThanOrEqual(0.9);
    },
    OCR_TIMEOUT,
  );
});

describe('convertDocument: image-based detection', () => {
  it('does not flag a Coventry control plan printed over page-size images: its pages carry a text layer of prose', async () => {
    const file = corpusFile(
      'uk-planning-policy',
      'dataset',
      'Coventry',
      '2. Supplementary Planning Documents (SPD)',
      'Historic Control Plans',
      'Stoke Green control plan',
      'Stoke_Green_control_plan.pdf',
    );
    const r = await engine.convert({ path: file });
    expect(r.page_count).toBe(3);
    expect(r.pages.slice(1).every((p) => p.image_ratio > 0.95)).toBe(true);
    expect(r.average_image_ratio).toBeGreaterThan(0.7); // measured as it is
    expect(r.pages.every((p) => p.method === 'text_layer')).toBe(true);
    expect(r.image_based).toBe(false);
    expect(r.contains_drawings).toBe(false);
  });

  it('does not flag a text document', async () => {
    const r = await engine.convert({ path: corpusFile('long-manuals', 'R-intro.pdf') }, { maxPages: 2000 });
    expect(r.image_based).toBe(false);
    expect(r.average_image_ratio).toBeLessThan(0.1);
  });
});
