// SPDX-License-Identifier: AGPL-3.0-or-later
import { ConversionResultSchema, type ConversionResult } from '@lectern/contracts';
import { makeNumberedPdf } from '@lectern/testing';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { LocalBlobStore } from '@lectern/blob-store';
import {
  loadConversionResult,
  receiveConversionFile,
  stageConversionFile,
  stageReceivedBlob,
  storeConversionResult,
  uploadBlobKey,
} from './conversion-files.js';
import { resolveDataPath, safeFilename } from './data-dir.js';

/** A generated 82-page PDF on disk (this suite runs without ../shared). */
let NPPF: string;
let fixtures: string;
beforeAll(async () => {
  fixtures = await mkdtemp(join(tmpdir(), 'lectern-fixtures-'));
  NPPF = join(fixtures, 'NPPF_December_2024.pdf');
  await writeFile(NPPF, makeNumberedPdf(82));
});
afterAll(() => rm(fixtures, { recursive: true, force: true }));

const sampleResult = (markdown: string): ConversionResult =>
  ConversionResultSchema.parse({
    fingerprint: 'a'.repeat(64),
    filename: 'x.md',
    detected_type: 'md',
    mime_type: 'text/markdown',
    byte_size: markdown.length,
    page_count: 1,
    title: null,
    metadata: {},
    pages: [
      {
        page_number: 1,
        text: markdown,
        method: 'text_layer',
        ocr_confidence: null,
        image_ratio: 0,
        char_count: markdown.length,
      },
    ],
    method: 'text_layer',
    image_based: false,
    average_image_ratio: 0,
    contains_drawings: false,
    is_rendering: false,
    markdown,
    headings: [],
    page_map: [{ offset: 0, page: 1 }],
    tables: [],
    warnings: [],
    duration_ms: 1,
  });

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'lectern-queue-data-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('stageConversionFile', () => {
  it('streams a real PDF into uploads/<sha256>/<name>, hashing it on the way; the same bytes land once', async () => {
    const expected = createHash('sha256')
      .update(await readFile(NPPF))
      .digest('hex');
    const first = await stageConversionFile(dataDir, createReadStream(NPPF), 'NPPF_December_2024.pdf', {
      maxBytes: 50e6,
    });
    expect(first).toMatchObject({
      sha256: expected,
      filename: 'NPPF_December_2024.pdf',
      file: { kind: 'data_dir', path: `uploads/${expected}/NPPF_December_2024.pdf` },
    });
    expect(first.byteSize).toBe((await readFile(NPPF)).length);
    const second = await stageConversionFile(dataDir, createReadStream(NPPF), 'NPPF_December_2024.pdf', {
      maxBytes: 50e6,
    });
    expect(second.absolutePath).toBe(first.absolutePath);
    expect(await readdir(join(dataDir, 'uploads', expected))).toEqual(['NPPF_December_2024.pdf']);
    expect(await readdir(join(dataDir, 'uploads', '.incoming'))).toEqual([]);
  });

  it('refuses more than maxBytes with too_large and leaves no partial file', async () => {
    const error = await stageConversionFile(dataDir, createReadStream(NPPF), 'big.pdf', { maxBytes: 10_000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'too_large', httpStatus: 413 });
    expect(await readdir(join(dataDir, 'uploads'))).toEqual(['.incoming']);
    expect(await readdir(join(dataDir, 'uploads', '.incoming'))).toEqual([]);
  });

  it('keeps a hostile filename inside its directory', async () => {
    const staged = await stageConversionFile(dataDir, Readable.from([Buffer.from('hello')]), '../../etc/passwd.txt', {
      maxBytes: 100,
    });
    expect(staged.file).toMatchObject({
      kind: 'data_dir',
      path: expect.stringMatching(/^uploads\/[0-9a-f]{64}\/passwd\.txt$/),
    });
  });
});

describe('resolveDataPath', () => {
  it.each([['../outside'], ['/etc/passwd'], ['uploads/../../x'], ['a\0b'], ['../data2/file']])(
    'rejects %j as forbidden_path',
    async (path) => {
      await expect(resolveDataPath(join(dataDir, 'data'), path)).rejects.toMatchObject({ code: 'forbidden_path' });
    },
  );

  it('rejects a symlink that leads out of the data directory, accepts ordinary paths', async () => {
    const root = join(dataDir, 'data');
    await mkdir(join(root, 'uploads'), { recursive: true });
    await mkdir(join(dataDir, 'data2'));
    await writeFile(join(dataDir, 'data2', 'secret'), 'x');
    await symlink(join(dataDir, 'data2', 'secret'), join(root, 'uploads', 'link'));
    await expect(resolveDataPath(root, 'uploads/link')).rejects.toMatchObject({ code: 'forbidden_path' });
    await expect(resolveDataPath(root, 'uploads/new.pdf')).resolves.toBe(join(root, 'uploads', 'new.pdf'));
  });

  it.each([
    ['report.PDF', 'report.PDF'],
    ['a/b\\c.docx', 'c.docx'],
    ['in:valid*name?.pdf', 'in_valid_name_.pdf'],
    ['...', 'document'],
    ['Übersicht 2024 (final).pdf', 'Übersicht 2024 (final).pdf'],
  ])('safeFilename(%j) = %j', (input, expected) => {
    expect(safeFilename(input)).toBe(expected);
  });
});

describe('storeConversionResult / loadConversionResult', () => {
  it('keeps a small result inline', async () => {
    const result = sampleResult('# Title\n\nshort');
    const stored = await storeConversionResult(dataDir, 'convert-x', result);
    expect(stored).toEqual({ version: 1, kind: 'inline', result });
    await expect(loadConversionResult(dataDir, stored)).resolves.toEqual(result);
  });

  it('writes a large result to conversions/<jobId>.json and reads it back verified', async () => {
    const result = sampleResult('word '.repeat(50_000));
    const stored = await storeConversionResult(dataDir, 'convert-big', result, { inlineMaxBytes: 64 * 1024 });
    expect(stored).toMatchObject({ kind: 'data_dir', file: { path: 'conversions/convert-big.json' }, page_count: 1 });
    await expect(loadConversionResult(dataDir, stored)).resolves.toEqual(result);
    await writeFile(
      join(dataDir, 'conversions', 'convert-big.json'),
      JSON.stringify({ ...result, markdown: 'tampered' }),
    );
    await expect(loadConversionResult(dataDir, stored)).rejects.toMatchObject({
      code: 'result_unavailable',
      httpStatus: 410,
    });
  });
});

describe('through the blob store (distributed mode)', () => {
  const blobsIn = (dir: string) =>
    new LocalBlobStore({ root: join(dir, 'blobs'), limits: { ttlMs: 0, maxBytes: 50e6, quotaBytes: 100e6 } });

  it('stages a received file as a content-addressed blob and deletes the received copy', async () => {
    const blobs = blobsIn(dataDir);
    const received = await receiveConversionFile(dataDir, createReadStream(NPPF), 'NPPF December 2024.pdf', {
      maxBytes: 50e6,
    });
    const staged = await stageReceivedBlob(blobs, received);
    expect(staged.file).toEqual({ kind: 'blob', key: `conversion/uploads/${received.sha256}/NPPF_December_2024.pdf` });
    expect(
      (await blobs.get(uploadBlobKey(received.sha256, 'NPPF December 2024.pdf')))?.equals(await readFile(NPPF)),
    ).toBe(true);
    expect(await readdir(join(dataDir, 'uploads', '.incoming'))).toEqual([]);
  });

  it('puts a large result in the blob store and reads it back verified; a damaged or missing one is result_unavailable', async () => {
    const blobs = blobsIn(dataDir);
    const result = sampleResult('word '.repeat(50_000));
    const stored = await storeConversionResult(dataDir, 'convert-big', result, { inlineMaxBytes: 64 * 1024, blobs });
    expect(stored).toMatchObject({ kind: 'blob', file: { key: 'conversion/results/convert-big.json' } });
    await expect(loadConversionResult(dataDir, stored, blobs)).resolves.toEqual(result);
    await blobs.put('conversion/results/convert-big.json', Buffer.from(JSON.stringify({ ...result, markdown: 'x' })));
    await expect(loadConversionResult(dataDir, stored, blobs)).rejects.toMatchObject({ code: 'result_unavailable' });
    await blobs.delete('conversion/results/convert-big.json');
    await expect(loadConversionResult(dataDir, stored, blobs)).rejects.toMatchObject({ httpStatus: 410 });
  });
});
