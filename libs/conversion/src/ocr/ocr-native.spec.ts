// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as mupdf from 'mupdf';
import { pino } from 'pino';
import { makePdf, pdfString, wordRecall } from '@lectern/testing';
import { createConversionEngine, type ConversionEngine } from '../index.js';
import {
  cropPam,
  findOnPath,
  NATIVE_OCR_MAX_PIXELS,
  parsePam,
  probeNativeTesseract,
  OcrEngineError,
  recognizeNative,
  textFromTsv,
} from './ocr-native.js';

// The native tesseract engine (OCR_ENGINE): Debian's `tesseract` program (tesseract-ocr, tesseract-ocr-eng; CI
// installs them) reading pages on stdin. The scans are made here: text rendered by mupdf.
const OCR_TIMEOUT = 120_000;
const LINES = [
  'The committee met on Tuesday evening',
  'to consider the planning application',
  'for the new library on Station Road.',
  'Members asked about parking spaces,',
  'the height of the roof and the trees.',
];

/** A page of LINES rendered at 300 DPI, grey, as the PDF workers render for OCR (PAM). */
function pagePam(): Uint8Array {
  const content = LINES.map((s, i) => `BT /F1 16 Tf 72 ${700 - i * 26} Td (${pdfString(s)}) Tj ET`).join('\n');
  const page = mupdf.Document.openDocument(makePdf([{ content }]), 'application/pdf').loadPage(0);
  const pix = page.toPixmap(mupdf.Matrix.scale(300 / 72, 300 / 72), mupdf.ColorSpace.DeviceGray, false);
  return pix.asPAM();
}

/** The same page drawn as an image on an image-only PDF page (a scan). */
function scanPdf(): Uint8Array {
  const content = LINES.map((s, i) => `BT /F1 16 Tf 72 ${700 - i * 26} Td (${pdfString(s)}) Tj ET`).join('\n');
  const page = mupdf.Document.openDocument(makePdf([{ content }]), 'application/pdf').loadPage(0);
  const pix = page.toPixmap(mupdf.Matrix.scale(200 / 72, 200 / 72), mupdf.ColorSpace.DeviceGray, false);
  const gray = new Uint8Array(pix.getPixels());
  return makePdf([
    { content: 'q 612 0 0 792 0 0 cm /Im1 Do Q', image: { width: pix.getWidth(), height: pix.getHeight(), gray } },
  ]);
}

const reference = LINES.join(' ');
const read = { lang: 'eng', dpi: 300, psm: 3, thresholding: 0 };
let bin = '';
beforeAll(async () => {
  const probe = await probeNativeTesseract('eng');
  if (!probe.native) throw new Error(`these tests need Debian's tesseract-ocr and tesseract-ocr-eng: ${probe.reason}`);
  bin = probe.native.bin;
});

describe('native tesseract: parts', () => {
  it('turns TSV into tesseract.js-shaped text (lines, a blank line between paragraphs) and mean word confidence', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t',
      '4\t1\t1\t1\t1\t0\t0\t0\t10\t10\t-1\t',
      '5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t90\tHello',
      '5\t1\t1\t1\t1\t2\t0\t0\t10\t10\t80\tworld',
      '5\t1\t1\t1\t2\t1\t0\t0\t10\t10\t70\tagain',
      '5\t1\t1\t1\t2\t2\t0\t0\t10\t10\t50\t ',
      '5\t1\t2\t1\t1\t1\t0\t0\t10\t10\t60\tNext',
    ].join('\n');
    expect(textFromTsv(tsv)).toEqual({ text: 'Hello world\nagain\n\nNext\n', confidence: 75 });
    expect(textFromTsv('level\tpage_num\n')).toEqual({ text: '', confidence: 0 });
  });

  it('crops a PAM image to a region, clamped to the image', () => {
    const pam = pagePam();
    const { width, height } = parsePam(pam);
    const band = parsePam(cropPam(pam, { left: 10, top: 20, width: 100, height: 50 }));
    expect([band.width, band.height, band.depth]).toEqual([100, 50, 1]);
    const edge = parsePam(cropPam(pam, { left: width - 5, top: height - 5, width: 100, height: 100 }));
    expect([edge.width, edge.height]).toEqual([5, 5]);
    expect(() => parsePam(new TextEncoder().encode('P5\n1 1\n255\n\0'))).toThrow(/PAM/);
    expect(() => parsePam(pam.subarray(0, 200))).toThrow(/truncated/);
  });

  it('finds a program only where PATH says, only when executable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ocr-path-'));
    try {
      writeFileSync(join(dir, 'tesseract'), '#!/bin/sh\nexit 1\n');
      expect(findOnPath('tesseract', dir)).toBeNull(); // not executable
      chmodSync(join(dir, 'tesseract'), 0o755);
      expect(findOnPath('tesseract', `/nonexistent:${dir}`)).toBe(join(dir, 'tesseract'));
      expect(findOnPath('tesseract', '')).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a tesseract that does not run, or lacks the language, is not used', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ocr-path-'));
    try {
      writeFileSync(join(dir, 'tesseract'), '#!/bin/sh\necho "tesseract 5.3.0"\necho osd\n', { mode: 0o755 });
      const probe = await probeNativeTesseract('eng', dir);
      expect(probe.native).toBeNull();
      expect(probe.reason).toMatch(/no "eng" language data/);
      expect((await probeNativeTesseract('eng', join(dir, 'none'))).reason).toMatch(/no tesseract program on PATH/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('native tesseract: reading', () => {
  it(
    'reads a 300-DPI page from stdin, and a band of it',
    async () => {
      const pam = pagePam();
      const r = await recognizeNative(bin, pam, read);
      expect(wordRecall(r.text, reference)).toBeGreaterThanOrEqual(0.95);
      expect(r.confidence).toBeGreaterThan(80);
      // the first line only: 72 pt from the left, around y = 792 - 700 pt from the top
      const { width } = parsePam(pam);
      const band = await recognizeNative(
        bin,
        cropPam(pam, { left: 0, top: ((792 - 720) * 300) / 72, width, height: (30 * 300) / 72 }),
        read,
      );
      expect(band.text).toContain('committee');
      expect(band.text).not.toContain('library');
    },
    OCR_TIMEOUT,
  );

  it(
    'is killed on abort and after its timeout; refuses an oversized image before starting',
    async () => {
      const pam = pagePam();
      const ac = new AbortController();
      const aborted = recognizeNative(bin, pam, { ...read, signal: ac.signal });
      ac.abort();
      await expect(aborted).rejects.toThrow(/aborted/);
      await expect(recognizeNative(bin, pam, { ...read, timeoutMs: 1 })).rejects.toMatchObject({
        reason: 'timeout',
        detail: 'killed after 1 ms',
      });
      const side = Math.ceil(Math.sqrt(NATIVE_OCR_MAX_PIXELS)) + 1;
      const header = new TextEncoder().encode(
        `P7\nWIDTH ${side}\nHEIGHT ${side}\nDEPTH 1\nMAXVAL 255\nTUPLTYPE GRAYSCALE\nENDHDR\n`,
      );
      const huge = new Uint8Array(header.length + side * side);
      huge.set(header);
      await expect(recognizeNative(bin, huge, read)).rejects.toMatchObject({ reason: 'image_too_large' });
    },
    OCR_TIMEOUT,
  );

  it('fails with a fixed reason; what the program printed is kept for the log only', async () => {
    // the real program asked for a language it has no data for: it prints its own error and exits 1
    const failed = await recognizeNative(bin, pagePam(), { ...read, lang: 'xyz' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OcrEngineError);
    expect(failed).toMatchObject({ reason: 'engine_failed', message: 'the OCR engine failed on the page' });
    expect((failed as OcrEngineError).detail).toMatch(/^exit code 1: .*xyz/);
  });
});

describe('OCR_ENGINE in a conversion', () => {
  const engines: ConversionEngine[] = [];
  afterAll(() => Promise.all(engines.map((e) => e.close())));
  const make = (ocrEngine: 'auto' | 'native' | 'wasm'): ConversionEngine => {
    const e = createConversionEngine({ pdfWorkers: 1, ocrWorkers: 1, ocrEngine });
    engines.push(e);
    return e;
  };

  it(
    'auto and native read a scan with the native program; wasm with tesseract.js',
    async () => {
      const auto = make('auto');
      expect(await auto.ocrEngineInUse()).toMatchObject({
        engine: 'native',
        version: expect.stringMatching(/^tesseract 5/),
      });
      const r = await auto.convert({ bytes: scanPdf(), filename: 'scan.pdf' });
      expect(r.pages[0]?.method).toBe('ocr');
      expect(wordRecall(r.pages[0]?.text ?? '', reference)).toBeGreaterThanOrEqual(0.95);
      expect(r.pages[0]?.ocr_confidence).toBeGreaterThan(70);
      expect(await make('native').ocrEngineInUse()).toMatchObject({ engine: 'native' });
      expect(await make('wasm').ocrEngineInUse()).toMatchObject({ engine: 'wasm', reason: 'OCR_ENGINE=wasm' });
    },
    OCR_TIMEOUT,
  );

  it('without tesseract on PATH: auto falls back to tesseract.js, native says why it cannot run', async () => {
    const path = process.env['PATH'];
    process.env['PATH'] = '/nonexistent';
    try {
      expect(await make('auto').ocrEngineInUse()).toMatchObject({
        engine: 'wasm',
        reason: 'no tesseract program on PATH: tesseract.js (WASM)',
      });
      expect(() => make('native')).toThrow(/OCR_ENGINE: native needs the tesseract program on PATH/);
    } finally {
      process.env['PATH'] = path;
    }
  });
});

describe('a native read that fails, in a conversion', () => {
  it(
    'fails the document with a short typed reason; what the program printed goes to the log',
    async () => {
      // a tesseract that answers the probe (version, eng data) and fails every read printing an internal path
      const dir = mkdtempSync(join(tmpdir(), 'ocr-failing-'));
      const script = [
        '#!/bin/sh',
        'case "$1" in',
        '  --version) echo "tesseract 5.3.0" ;;',
        '  --list-langs) echo "List of available languages (1):"; echo eng ;;',
        '  *) cat >/dev/null; echo "Error in pixReadStream: /srv/secret/leptonica.c line 42" >&2; exit 3 ;;',
        'esac',
      ].join('\n');
      writeFileSync(join(dir, 'tesseract'), `${script}\n`);
      chmodSync(join(dir, 'tesseract'), 0o755);
      const lines: string[] = [];
      const log = pino({ level: 'warn' }, { write: (l: string) => lines.push(l) });
      const path = process.env['PATH'];
      process.env['PATH'] = `${dir}:${path ?? ''}`;
      const engine = createConversionEngine({ pdfWorkers: 1, ocrWorkers: 1, ocrEngine: 'native', log });
      try {
        expect(await engine.ocrEngineInUse()).toMatchObject({ engine: 'native', version: 'tesseract 5.3.0' });
        const failed = await engine.convert({ bytes: scanPdf(), filename: 'scan.pdf' }).catch((e: unknown) => e);
        expect(failed).toMatchObject({
          code: 'extraction_failed',
          message: "page 1 could not be OCR'd: the OCR engine failed on the page",
        });
        expect(JSON.stringify(failed)).not.toMatch(/secret|leptonica|exit code/);
        const logged = lines
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .find((l) => l['msg'] === 'OCR engine failed');
        expect(logged).toMatchObject({ page: 1, reason: 'engine_failed' });
        expect(logged?.['detail']).toMatch(/exit code 3: Error in pixReadStream: \/srv\/secret/);
      } finally {
        process.env['PATH'] = path;
        await engine.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    OCR_TIMEOUT,
  );
});
