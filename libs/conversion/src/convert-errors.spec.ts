// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as mupdf from 'mupdf';
import { isAppError } from '@lectern/contracts';
import { makeNumberedPdf, zipArchive } from '@lectern/testing';
import { createConversionEngine, type ConversionInput, type ConvertDocumentOptions } from './index.js';

/** One engine for the whole file (it owns the mupdf and tesseract workers); closed after the last test. */
const engine = createConversionEngine();
afterAll(() => engine.close());

/** An 82-page text-layer PDF (generated: this suite runs without ../shared) and the same bytes on disk. */
const nppf = makeNumberedPdf(82);
let NPPF: string;
/** A PNG (a page of it rendered), for "an image named .pdf". */
const png = (): Uint8Array => {
  const page = mupdf.Document.openDocument(nppf, 'application/pdf').loadPage(0);
  return page.toPixmap(mupdf.Matrix.scale(0.5, 0.5), mupdf.ColorSpace.DeviceRGB, false).asPNG();
};
beforeAll(async () => {
  NPPF = join(await mkdtemp(join(tmpdir(), 'conv-errors-')), 'generated-82-pages.pdf');
  await writeFile(NPPF, nppf);
});

/** The AppError code the conversion rejects with (fails the test if it resolves or throws something else). */
async function errorCode(input: ConversionInput, options?: ConvertDocumentOptions): Promise<string> {
  try {
    await engine.convert(input, options);
  } catch (e) {
    if (isAppError(e)) return e.code;
    throw e;
  }
  throw new Error('conversion succeeded');
}

describe('convertDocument: bad input ends in a typed error', () => {
  it('rejects empty, unsupported and mislabelled files', async () => {
    expect(await errorCode({ bytes: new Uint8Array(0), filename: 'empty.pdf' })).toBe('no_content');
    expect(await errorCode({ bytes: nppf, filename: 'policy.exe' })).toBe('unsupported_file_type');
    expect(await errorCode({ bytes: nppf, filename: 'noextension' })).toBe('unsupported_file_type');
    expect(await errorCode({ bytes: png(), filename: 'scan.pdf' })).toBe('unsupported_file_type');
    expect(await errorCode({ bytes: nppf, filename: 'policy.docx' })).toBe('unsupported_file_type');
    expect(await errorCode({ bytes: nppf, filename: 'policy.txt' })).toBe('unsupported_file_type');
    expect(await errorCode({ bytes: nppf, filename: 'policy.png' })).toBe('unsupported_file_type');
    expect(await errorCode({ bytes: new TextEncoder().encode('  \n\t\n'), filename: 'blank.txt' })).toBe('no_content');
  });

  it('rejects truncated and corrupt PDFs as extraction_failed', async () => {
    expect(await errorCode({ bytes: nppf.subarray(0, 9), filename: 'truncated.pdf' })).toBe('extraction_failed');
    const garbage = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 7)]);
    expect(await errorCode({ bytes: garbage, filename: 'corrupt.pdf' })).toBe('extraction_failed');
    // the client reads our words, never mupdf's ("format error: cannot find startxref", "syntax error: ...")
    const message = await engine.convert({ bytes: garbage, filename: 'corrupt.pdf' }).catch((e: Error) => e.message);
    expect(message).toBe('corrupt.pdf could not be opened: it is damaged, truncated or not a PDF');
    // a file that only lost its trailer is repaired and read, with a warning
    const repaired = await engine.convert({ bytes: nppf.subarray(0, nppf.lastIndexOf('xref')), filename: 'cut.pdf' });
    expect(repaired.page_count).toBe(82);
    expect(repaired.warnings).toContain('damaged PDF repaired by the reader: some of its content may be missing');
    expect(repaired.warnings.join(' ')).not.toMatch(/xref|startxref|syntax error|format error/);
  });

  it('rejects a password-protected PDF as encrypted', async () => {
    const doc = mupdf.Document.openDocument(nppf, 'application/pdf').asPDF();
    const locked = doc?.saveToBuffer('encrypt=aes-256,user-password=secret,owner-password=owner');
    expect(locked).toBeDefined();
    expect(await errorCode({ bytes: locked?.asUint8Array() ?? new Uint8Array(), filename: 'locked.pdf' })).toBe(
      'encrypted',
    );
  });

  it('enforces the size, page and time limits', async () => {
    expect(await errorCode({ bytes: nppf, filename: 'nppf.pdf' }, { maxBytes: nppf.length - 1 })).toBe('too_large');
    expect(await errorCode({ path: NPPF }, { maxBytes: nppf.length - 1 })).toBe('too_large');
    expect(await errorCode({ path: NPPF }, { maxPages: 50 })).toBe('too_large');
    // 3000 pages take seconds to read, far over a 200 ms budget
    expect(
      await errorCode(
        { bytes: makeNumberedPdf(3000, 40), filename: 'long.pdf' },
        { timeoutMs: 200, maxPages: 5000, maxBytes: 1e9 },
      ),
    ).toBe('timeout');
  });

  it('rejects DOCX decompression bombs and corrupt DOCX files', async () => {
    const bomb = zipArchive([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'word/document.xml', data: Buffer.alloc(64 * 1024 * 1024, 0x20) },
    ]);
    expect(bomb.length).toBeLessThan(200_000);
    expect(await errorCode({ bytes: bomb, filename: 'bomb.docx' })).toBe('too_large');
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(2000, 1)]);
    expect(await errorCode({ bytes: broken, filename: 'broken.docx' })).toBe('extraction_failed');
    const notWord = zipArchive([{ name: 'hello.txt', data: Buffer.from('hello') }]);
    expect(await errorCode({ bytes: notWord, filename: 'not-word.docx' })).toBe('extraction_failed');
  });

  it('reports a missing file, and keeps serving after every failure', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conv-'));
    expect(await errorCode({ path: join(dir, 'missing.pdf') })).toBe('file_not_found');
    await writeFile(join(dir, 'zero.pdf'), '');
    expect(await errorCode({ path: join(dir, 'zero.pdf') })).toBe('no_content');
    // after a timeout (workers terminated) and all the failures above, the pools warm up again and serve
    await engine.warm({ ocr: false });
    const ok = await engine.convert({ path: NPPF }, { maxPages: 100 });
    expect(ok.page_count).toBe(82);
  });
});
