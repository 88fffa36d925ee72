import type { ConversionJobPayload } from '@lectern/contracts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConversionProcessor, type ConvertDocumentFn } from './conversion.processor.js';

describe('conversion processor: a job cannot raise the worker limits', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lectern-limits-'));
    await writeFile(join(dataDir, 'doc.md'), '# x\n');
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const runWith = async (defaults: { maxPages: number; timeoutMs: number; enableOcr: boolean }, options: ConversionJobPayload['options']) => {
    let seen: Parameters<ConvertDocumentFn>[1] | undefined;
    const convert: ConvertDocumentFn = async (_input, opts) => {
      seen = opts;
      throw new Error('stop here');
    };
    const processor = createConversionProcessor({ dataDir, convert, defaults });
    const payload: ConversionJobPayload = {
      version: 1,
      file: { kind: 'local_path', path: join(dataDir, 'doc.md') },
      filename: 'doc.md',
      sha256: '0'.repeat(64),
      byte_size: 4,
      options,
    };
    const context = { jobId: 'j', attempt: 1, signal: new AbortController().signal, progress: async () => {}, log: () => {} };
    await expect(processor(payload, context as never)).rejects.toThrow('stop here');
    return seen;
  };

  it('clamps maxPages, timeoutMs and enableOcr to the worker settings, and lets a job lower them', async () => {
    const defaults = { maxPages: 100, timeoutMs: 60_000, enableOcr: false };
    expect(await runWith(defaults, { maxPages: 1_000_000, timeoutMs: 600_000, enableOcr: true })).toMatchObject(defaults);
    expect(await runWith(defaults, { maxPages: 5, timeoutMs: 1000 })).toMatchObject({ maxPages: 5, timeoutMs: 1000, enableOcr: false });
    expect(await runWith({ ...defaults, enableOcr: true }, { enableOcr: false, ocrMinConfidence: 50 })).toMatchObject({
      enableOcr: false,
      ocrMinConfidence: 50,
    });
  });
});
