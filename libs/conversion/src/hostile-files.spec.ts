// SPDX-License-Identifier: AGPL-3.0-or-later
import { isAppError } from '@lectern/contracts';
import { deepHtml, handmadePdf, hugeJpegHeader, hugePng, lyingDocx } from '@lectern/testing';
import { createConversionEngine, type ConversionInput, type ConvertDocumentOptions } from './index.js';

/** Small files that cost gigabytes or minutes to a reader that trusts them: refused early, typed, cheaply. */
const engine = createConversionEngine({ pdfWorkers: 1, ocrWorkers: 1 });
afterAll(() => engine.close());

async function refusal(
  input: ConversionInput,
  options?: ConvertDocumentOptions,
): Promise<{ code: string; message: string }> {
  try {
    await engine.convert(input, options);
  } catch (e) {
    if (isAppError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('conversion succeeded');
}

const rssGrowthMb = (before: number): number => (process.memoryUsage().rss - before) / 1024 / 1024;

describe('convertDocument: hostile files', () => {
  it('counts the bytes a DOCX actually inflates to, not the sizes its ZIP directory declares', async () => {
    const liar = await lyingDocx(1024 * 1024 * 1024);
    expect(liar.length).toBeLessThan(2 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    const out = await refusal({ bytes: liar, filename: 'liar.docx' });
    expect(out.code).toBe('too_large');
    expect(out.message).toMatch(/decompression bomb|expands/);
    // stopped while streaming: nothing near the gigabyte was held
    expect(rssGrowthMb(before)).toBeLessThan(200);
  });

  it('refuses an image declaring 20000x20000 pixels from its header, before decoding it', async () => {
    const png = await hugePng(20_000, 20_000);
    expect(png.length).toBeLessThan(2 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    const out = await refusal({ bytes: png, filename: 'huge.png' });
    expect(out).toEqual({ code: 'too_large', message: expect.stringMatching(/20000x20000 pixels/) });
    expect(rssGrowthMb(before)).toBeLessThan(200);
    expect((await refusal({ bytes: hugeJpegHeader(30_000, 20_000), filename: 'huge.jpg' })).code).toBe('too_large');
  });

  it('still decodes and OCRs an image of ordinary size (a blank one: no_content, not too_large)', async () => {
    const small = await hugePng(400, 300);
    // white page: nothing to read, but decoded and OCR'd without complaint
    expect((await refusal({ bytes: small, filename: 'blank.png' })).code).toBe('no_content');
  });

  it('refuses deeply nested HTML in well under the timeout', async () => {
    const html = deepHtml(100_000);
    expect(html.length).toBeGreaterThan(1_000_000);
    const started = Date.now();
    const out = await refusal({ bytes: html, filename: 'deep.html' }, { timeoutMs: 30_000 });
    expect(out).toEqual({ code: 'too_large', message: expect.stringMatching(/nests elements more than 512 deep/) });
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('keeps converting ordinary HTML with unclosed paragraphs and list items', async () => {
    const html = `<html><body><h1>Notes</h1>${'<p>para <b>bold</b>'.repeat(2000)}<ul>${'<li>item'.repeat(2000)}</ul></body></html>`;
    const result = await engine.convert({ bytes: Buffer.from(html), filename: 'notes.html' });
    expect(result.markdown).toMatch(/^# Notes/);
  });

  it('renders a page declaring 200 x 200 inches at a bounded size', async () => {
    const pdf = handmadePdf({ width: 14_400, height: 14_400 });
    const before = process.memoryUsage().rss;
    const out = await refusal({ bytes: pdf, filename: 'huge-page.pdf' }, { timeoutMs: 60_000 });
    expect(out.code).toBe('no_content');
    expect(rssGrowthMb(before)).toBeLessThan(600);
  });
});
