// SPDX-License-Identifier: AGPL-3.0-or-later
import { RestErrorSchema } from '@lectern/contracts';
import { sweepConversionStorage } from '@lectern/conversion-job';
import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pollTask, postFile, startConverter, type TestConverter } from './converter.testkit.js';

const small = {
  bytes: new TextEncoder().encode('# Notes\n\nA small document that converts quickly.\n'),
  filename: 'notes.md',
};
const refused = {
  bytes: new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog garbage'),
  filename: 'broken.pdf',
};

/** Every file under DATA_DIR/uploads (relative paths). */
const uploads = async (dataDir: string): Promise<string[]> => {
  const root = join(dataDir, 'uploads');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name)));
};

/** The uploads once none is left or 10 s have passed (what is left then). */
const settledUploads = async (dataDir: string): Promise<string[]> => {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const left = await uploads(dataDir);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/**
 * Issue 12 #6: an upload is deleted when its conversion ends or is refused, results expire, and a disk quota
 * over uploads + results refuses new uploads with 507 `insufficient_storage`.
 */
describe('converter uploads and results on disk', () => {
  let converter: TestConverter;
  beforeAll(async () => {
    converter = await startConverter();
  });
  afterAll(async () => {
    await converter.close();
  });

  it('POST /convert leaves no upload behind, converted or refused', async () => {
    expect((await postFile(converter.baseUrl, '/convert', small)).status).toBe(200);
    expect((await postFile(converter.baseUrl, '/convert', refused)).status).toBe(422);
    expect(await uploads(converter.dataDir)).toEqual([]);
  });

  it('POST /tasks deletes the upload when its job ends, succeeded or failed', async () => {
    for (const [file, status] of [
      [small, 'succeeded'],
      [refused, 'failed'],
    ] as const) {
      const created = (await (await postFile(converter.baseUrl, '/tasks', file)).json()) as { task_id: string };
      const seen = await pollTask(converter.baseUrl, created.task_id);
      expect(seen.at(-1)).toMatchObject({ status });
    }
    // The processor deletes the upload once the queue has recorded the job's end (conversion.processor.ts): just
    // after the terminal status a poll can see, so wait for it (bounded) rather than race it.
    expect(await settledUploads(converter.dataDir)).toEqual([]);
  });

  it('a refused upload (bad options after the file) leaves nothing behind', async () => {
    const form = new FormData();
    form.append('file', new Blob([small.bytes]), small.filename);
    form.append('options', '{"maxPages": "lots"}');
    const response = await fetch(new URL('/tasks', converter.baseUrl), { method: 'POST', body: form });
    expect(response.status).toBe(400);
    expect(await uploads(converter.dataDir)).toEqual([]);
  });

  it('expires results and left-over uploads after the TTL', async () => {
    const old = join(converter.dataDir, 'conversions', 'convert-old.json');
    const fresh = join(converter.dataDir, 'conversions', 'convert-fresh.json');
    const leftover = join(converter.dataDir, 'uploads', 'a'.repeat(64), 'lost.pdf');
    await mkdir(join(converter.dataDir, 'conversions'), { recursive: true });
    await mkdir(join(converter.dataDir, 'uploads', 'a'.repeat(64)), { recursive: true });
    await Promise.all([writeFile(old, '{}'), writeFile(fresh, '{}'), writeFile(leftover, '%PDF')]);
    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000);
    await Promise.all([utimes(old, dayAgo, dayAgo), utimes(leftover, dayAgo, dayAgo)]);
    expect(await sweepConversionStorage(converter.dataDir, 24 * 3600 * 1000)).toBe(2);
    await expect(stat(old)).rejects.toThrow();
    await expect(stat(leftover)).rejects.toThrow();
    expect((await stat(fresh)).isFile()).toBe(true);
  });

  it("never touches other services' uploads in the shared DATA_DIR/uploads (extraction tasks, policy revisions)", async () => {
    const task = join(converter.dataDir, 'uploads', '01JD5Z8Q4G7T2W9X3Y6B1C0V8N', 'original.pdf');
    const policy = join(converter.dataDir, 'uploads', 'policies', 'NPPF', 'nppf.pdf');
    const mine = join(converter.dataDir, 'uploads', '.incoming', 'b'.repeat(8), 'half.pdf');
    for (const f of [task, policy, mine]) await mkdir(join(f, '..'), { recursive: true });
    await Promise.all([task, policy, mine].map((f) => writeFile(f, '%PDF')));
    const weekAgo = new Date(Date.now() - 7 * 24 * 3600 * 1000);
    await Promise.all([task, policy, mine].map((f) => utimes(f, weekAgo, weekAgo)));
    expect(await sweepConversionStorage(converter.dataDir, 24 * 3600 * 1000)).toBe(1);
    await expect(stat(mine)).rejects.toThrow();
    expect((await stat(task)).isFile()).toBe(true);
    expect((await stat(policy)).isFile()).toBe(true);
  });
});

describe('converter disk quota (CONVERSION_STORAGE_QUOTA_BYTES)', () => {
  let converter: TestConverter;
  beforeAll(async () => {
    converter = await startConverter({ CONVERSION_STORAGE_QUOTA_BYTES: '4096' });
  });
  afterAll(async () => {
    await converter.close();
  });

  it('answers 507 insufficient_storage once uploads + results fill the quota, and accepts again when room is made', async () => {
    expect((await postFile(converter.baseUrl, '/convert', small)).status).toBe(200);
    // an upload that would not fit
    const big = { bytes: new Uint8Array(8192).fill(0x41), filename: 'big.txt' };
    const tooBig = await postFile(converter.baseUrl, '/convert', big);
    expect(tooBig.status).toBe(507);
    expect(RestErrorSchema.parse(await tooBig.json()).error.code).toBe('insufficient_storage');
    // results already filling the quota refuse every upload
    await mkdir(join(converter.dataDir, 'conversions'), { recursive: true });
    const result = join(converter.dataDir, 'conversions', 'convert-x.json');
    await writeFile(result, Buffer.alloc(5000, 0x20));
    const full = await postFile(converter.baseUrl, '/tasks', small);
    expect(full.status).toBe(507);
    expect(await uploads(converter.dataDir)).toEqual([]);
    const past = new Date(Date.now() - 2 * 86_400_000);
    await utimes(result, past, past);
    await sweepConversionStorage(converter.dataDir, 86_400_000);
    expect((await postFile(converter.baseUrl, '/convert', small)).status).toBe(200);
  });
});
