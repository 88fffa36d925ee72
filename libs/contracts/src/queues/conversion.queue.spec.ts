// SPDX-License-Identifier: AGPL-3.0-or-later
import { ConversionJobPayloadSchema, conversionJobId, conversionQueue } from './conversion.queue.js';

const sha = 'ab'.repeat(32);

describe('conversion queue contract', () => {
  it('is named "conversion" (never renamed: producers and workers of different versions meet on it)', () => {
    expect(conversionQueue.name).toBe('conversion');
  });

  it('derives the job id from the content: convert-<sha256>, suffixed only when options are overridden', () => {
    expect(conversionJobId(sha)).toBe(`convert-${sha}`);
    expect(conversionJobId(sha, { enableOcr: undefined })).toBe(`convert-${sha}`);
    const a = conversionJobId(sha, { enableOcr: false, maxPages: 10 });
    expect(a).toMatch(new RegExp(`^convert-${sha}-[0-9a-f]{12}$`));
    expect(conversionJobId(sha, { maxPages: 10, enableOcr: false })).toBe(a);
    expect(conversionJobId(sha, { enableOcr: true, maxPages: 10 })).not.toBe(a);
  });

  it('parses a payload: version literal, file reference, fingerprint; options stay overrides only', () => {
    const payload = ConversionJobPayloadSchema.parse({
      version: 1,
      file: { kind: 'data_dir', path: `uploads/${sha}/a.pdf` },
      filename: 'a.pdf',
      sha256: sha,
      byte_size: 10,
    });
    expect(payload.options).toEqual({});
    expect(() => ConversionJobPayloadSchema.parse({ ...payload, version: 2 })).toThrow();
    expect(() => ConversionJobPayloadSchema.parse({ ...payload, sha256: 'XYZ' })).toThrow();
    expect(() => ConversionJobPayloadSchema.parse({ ...payload, file: { kind: 'url', path: 'x' } })).toThrow();
  });
});
