// SPDX-License-Identifier: AGPL-3.0-or-later
import { RestErrorSchema } from '@lectern/contracts';
import { numberedPdfFile } from '@lectern/testing';
import { postFile, startConverter, type TestConverter } from './converter.testkit.js';

/** A generated 82-page text-layer PDF (this suite runs without ../shared). */
const NPPF = numberedPdfFile(82, 'NPPF_December_2024.pdf');
const small = { bytes: new TextEncoder().encode('# Options\n\nA small document.\n'), filename: 'options.md' };

const refusal = async (response: Response) => {
  expect(response.status).toBe(400);
  return RestErrorSchema.parse(await response.json()).error;
};

/** Issue 12, defect 5: the multipart `options` may lower the operator's limits, never raise them. */
describe('POST /convert and /tasks: client options', () => {
  let converter: TestConverter;
  beforeAll(async () => {
    converter = await startConverter({ MAX_PAGES: '50', CONVERSION_TIMEOUT_MS: '60000', ENABLE_OCR: 'false' });
  });
  afterAll(async () => {
    await converter.close();
  });

  it.each([
    [
      'maxPages above MAX_PAGES',
      { maxPages: 1_000_000 },
      /maxPages 1000000 is above this server's limit of 50 pages \(MAX_PAGES\)/,
    ],
    [
      'timeoutMs above CONVERSION_TIMEOUT_MS',
      { timeoutMs: 3_600_000 },
      /timeoutMs 3600000 is above .* \(CONVERSION_TIMEOUT_MS\)/,
    ],
    ['enableOcr when ENABLE_OCR=false', { enableOcr: true }, /OCR is disabled on this server \(ENABLE_OCR=false\)/],
    ['timeoutMs above 2^31-1 (a timer that would fire at once)', { timeoutMs: 2 ** 31 }, /timeoutMs/],
    ['a negative maxPages', { maxPages: -1 }, /maxPages/],
    ['a fractional timeoutMs', { timeoutMs: 1.5 }, /timeoutMs/],
  ])('refuses %s with 400 invalid_arguments naming it', async (_name, options, message) => {
    for (const path of ['/convert', '/tasks']) {
      const error = await refusal(
        await postFile(converter.baseUrl, path, small, { fields: { options: JSON.stringify(options) } }),
      );
      expect(error.code).toBe('invalid_arguments');
      expect(error.message).toMatch(message);
    }
    expect(converter.conversions()).toBe(0);
  });

  it('refuses the 82-page NPPF under MAX_PAGES=50 even when the options ask for 1000000 pages', async () => {
    const response = await postFile(
      converter.baseUrl,
      '/convert',
      { path: NPPF },
      { fields: { options: '{"maxPages":1000000}' } },
    );
    expect(response.status).toBe(400);
    const plain = await postFile(converter.baseUrl, '/convert', { path: NPPF });
    expect(plain.status).toBe(413);
    expect(RestErrorSchema.parse(await plain.json()).error.code).toBe('too_large');
  });

  it('accepts options that lower the limits, and applies them', async () => {
    const lowered = await postFile(
      converter.baseUrl,
      '/convert',
      { path: NPPF },
      { fields: { options: '{"maxPages":10,"timeoutMs":30000,"enableOcr":false}' } },
    );
    expect(lowered.status).toBe(413);
    expect(RestErrorSchema.parse(await lowered.json()).error.message).toMatch(/limit 10/);
    const ok = await postFile(converter.baseUrl, '/convert', small, { fields: { options: '{"maxPages":1}' } });
    expect(ok.status).toBe(200);
  });
});
