// SPDX-License-Identifier: AGPL-3.0-or-later
import { ConversionResultSchema, RestErrorSchema } from '@lectern/contracts';
import { numberedPdfFile } from '@lectern/testing';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { postFile, startConverter, type TestConverter } from './converter.testkit.js';

/** A generated 82-page text-layer PDF (~38 kB; this suite runs without ../shared). */
const NPPF = numberedPdfFile(82, 'NPPF_December_2024.pdf');
const small = {
  bytes: new TextEncoder().encode('# Notes\n\nA small document that converts quickly.\n'),
  filename: 'notes.md',
};

describe('POST /convert', () => {
  let converter: TestConverter;
  beforeAll(async () => {
    // 20 kB limit: the 82-page PDF (~38 kB) is only sent where a test wants `too_large`... and under a
    // second instance with the default limit for the real conversion.
    converter = await startConverter({ MAX_DOCUMENT_BYTES: String(20_000) });
  });
  afterAll(async () => {
    await converter.close();
  });

  it('converts a small Markdown upload to a ConversionResult', async () => {
    const response = await postFile(converter.baseUrl, '/convert', small);
    expect(response.status).toBe(200);
    const result = ConversionResultSchema.parse(await response.json());
    expect(result).toMatchObject({ detected_type: 'md', filename: 'notes.md', page_count: 1 });
    expect(result.headings[0]).toMatchObject({ level: 1, title: 'Notes' });
  });

  it.each([
    ['zero bytes', { bytes: new Uint8Array(), filename: 'empty.pdf' }, 422, 'no_content'],
    [
      'a wrong extension',
      { bytes: new TextEncoder().encode('slides'), filename: 'deck.pptx' },
      415,
      'unsupported_file_type',
    ],
    ['no extension', { bytes: new TextEncoder().encode('text'), filename: 'README' }, 415, 'unsupported_file_type'],
    [
      'a corrupt PDF',
      { bytes: new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog garbage'), filename: 'broken.pdf' },
      422,
      'extraction_failed',
    ],
    ['a file over MAX_DOCUMENT_BYTES', { path: NPPF }, 413, 'too_large'],
  ] as const)('answers %s with its typed error, then serves the next request', async (_name, file, status, code) => {
    const response = await postFile(converter.baseUrl, '/convert', file);
    expect(response.status).toBe(status);
    const body = RestErrorSchema.parse(await response.json());
    expect(body.error.code).toBe(code);
    expect(JSON.stringify(body)).not.toMatch(/\/tmp\/|at .*\.ts:\d+/); // no paths, no stack traces
    const next = await postFile(converter.baseUrl, '/convert', small);
    expect(next.status).toBe(200);
  });

  it('answers a truncated real PDF with a typed error', async () => {
    const bytes = (await readFile(NPPF)).subarray(0, 3_000);
    const response = await postFile(converter.baseUrl, '/convert', { bytes, filename: 'truncated.pdf' });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(['extraction_failed', 'no_content']).toContain(RestErrorSchema.parse(await response.json()).error.code);
  });

  it('refuses a request without a file, and one that is not multipart', async () => {
    const noFile = new FormData();
    noFile.append('options', '{}');
    const missing = await fetch(`${converter.baseUrl}/convert`, { method: 'POST', body: noFile });
    expect(missing.status).toBe(400);
    expect(RestErrorSchema.parse(await missing.json()).error.code).toBe('invalid_arguments');
    const json = await fetch(`${converter.baseUrl}/convert`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status).toBe(415);
    expect(RestErrorSchema.parse(await json.json()).error.code).toBe('invalid_arguments');
  });

  it('refuses options that are not conversion options', async () => {
    const response = await postFile(converter.baseUrl, '/convert', small, {
      fields: { options: '{"maxBytes": 1e12}' },
    });
    expect(response.status).toBe(400);
    expect(RestErrorSchema.parse(await response.json()).error.code).toBe('invalid_arguments');
  });
});

describe('POST /convert on an 82-page PDF', () => {
  let converter: TestConverter;
  beforeAll(async () => {
    converter = await startConverter();
  });
  afterAll(async () => {
    await converter.close();
  });

  it('returns the ConversionResult JSON: fingerprint, pages, headings, page map; the upload is not kept (issue 12 #6)', async () => {
    const response = await postFile(converter.baseUrl, '/convert', { path: NPPF });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const result = ConversionResultSchema.parse(await response.json());
    const sha = createHash('sha256')
      .update(await readFile(NPPF))
      .digest('hex');
    expect(result).toMatchObject({ fingerprint: sha, detected_type: 'pdf', page_count: 82, method: 'text_layer' });
    expect(result.pages).toHaveLength(82);
    expect(result.headings.length).toBe(82);
    expect(result.page_map.at(-1)?.page).toBe(82);
    expect(result.byte_size).toBe((await readFile(NPPF)).length);
    await expect(readFile(`${converter.dataDir}/uploads/${sha}/NPPF_December_2024.pdf`)).rejects.toThrow(/ENOENT/);
  });

  it('returns the Markdown with Accept: text/markdown', async () => {
    const response = await postFile(
      converter.baseUrl,
      '/convert',
      { path: NPPF },
      { headers: { accept: 'text/markdown' } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
    const markdown = await response.text();
    expect(markdown).toMatch(/^#{1,3} Section 41$/m);
    expect(markdown).toContain('Page 82 line 12');
  });

  it('marks where each page starts unless the request turns page markers off', async () => {
    const marked = ConversionResultSchema.parse(
      await (await postFile(converter.baseUrl, '/convert', { path: NPPF })).json(),
    );
    expect(marked.markdown.match(/^<!-- page \d+ -->$/gm)).toHaveLength(82);
    expect(marked.page_map.every((e) => marked.markdown.startsWith(`<!-- page ${e.page} -->\n`, e.offset))).toBe(true);
    const plain = await postFile(
      converter.baseUrl,
      '/convert',
      { path: NPPF },
      { fields: { options: '{"pageMarkers":false}' } },
    );
    expect(plain.status).toBe(200);
    expect(ConversionResultSchema.parse(await plain.json()).markdown).not.toContain('<!--');
  });
});
