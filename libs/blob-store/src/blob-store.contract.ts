// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appErrorCode } from '@lectern/testing';
import type { BlobLimits, BlobStore } from './blob-store.port.js';

/** One empty backing store (a directory, a Redis key prefix); `open` may be called several times on it. */
export interface BlobFixture {
  open(limits: BlobLimits): Promise<BlobStore>;
  /** What the backing store still holds (file names, Redis keys): empty after everything was deleted. */
  leftovers(): Promise<string[]>;
  cleanup(): Promise<void>;
}

const LIMITS: BlobLimits = { ttlMs: 0, maxBytes: 64 * 1024, quotaBytes: 100 * 1024 };
const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const bytesOf = (n: number, seed = 1): Buffer => Buffer.from(Array.from({ length: n }, (_, i) => (i * seed + 7) % 251));
async function* streamOf(buffer: Buffer, piece: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < buffer.length; i += piece) yield buffer.subarray(i, i + piece);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The behaviour every BlobStore adapter must show: whole-or-nothing puts (bytes or streams), replace, delete,
 * SHA-256 and size, the size cap (`too_large`), the quota (`insufficient_storage`, its room given back by deletes,
 * failures and expiry), TTL, downloads to a local file, and a second store on the same backing sees it all.
 */
export const runBlobStoreContract = (makeFixture: () => Promise<BlobFixture>): void => {
  let fixture: BlobFixture;
  let opened: BlobStore[];
  let dir: string;
  const open = async (limits: Partial<BlobLimits> = {}): Promise<BlobStore> => {
    const store = await fixture.open({ ...LIMITS, ...limits });
    opened.push(store);
    return store;
  };

  beforeEach(async () => {
    fixture = await makeFixture();
    opened = [];
    dir = await mkdtemp(join(tmpdir(), 'lectern-blob-contract-'));
  });
  afterEach(async () => {
    for (const store of opened) await store.close();
    await fixture.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores bytes and streams whole, with their size and SHA-256; another store on the same backing reads them', async () => {
    const store = await open();
    const a = bytesOf(40_000, 3);
    await expect(store.put('uploads/abc/a.pdf', a)).resolves.toEqual({ byteSize: a.length, sha256: sha(a) });
    const b = bytesOf(50_001, 5);
    await expect(store.put('results/b.json', streamOf(b, 777))).resolves.toEqual({
      byteSize: b.length,
      sha256: sha(b),
    });
    const other = await open();
    expect((await other.get('uploads/abc/a.pdf'))?.equals(a)).toBe(true);
    expect((await other.get('results/b.json'))?.equals(b)).toBe(true);
    await expect(other.stat('results/b.json')).resolves.toEqual({ byteSize: b.length, sha256: sha(b) });
    await expect(other.get('uploads/abc/missing.pdf')).resolves.toBeUndefined();
    await expect(other.stat('nothing')).resolves.toBeUndefined();
    expect(await other.usedBytes()).toBe(a.length + b.length);
    await expect(store.put('empty', new Uint8Array())).resolves.toEqual({ byteSize: 0, sha256: sha(new Uint8Array()) });
    expect((await store.get('empty'))?.length).toBe(0);
  });

  it('replaces a key whole and gives the old room back; delete removes everything it stored', async () => {
    const store = await open();
    await store.put('k', bytesOf(30_000, 1));
    const next = bytesOf(10_000, 9);
    await store.put('k', next);
    expect((await store.get('k'))?.equals(next)).toBe(true);
    expect(await store.usedBytes()).toBe(10_000);
    await expect(store.delete('k')).resolves.toBe(true);
    await expect(store.delete('k')).resolves.toBe(false);
    await expect(store.get('k')).resolves.toBeUndefined();
    expect(await store.usedBytes()).toBe(0);
    expect(await fixture.leftovers()).toEqual([]);
  });

  it('downloads a blob to a local file (parents created), false when there is none', async () => {
    const store = await open();
    const data = bytesOf(20_000, 11);
    await store.put('x/y.bin', streamOf(data, 4096));
    const target = join(dir, 'cache', 'deep', 'y.bin');
    await expect(store.download('x/y.bin', target)).resolves.toBe(true);
    expect((await readFile(target)).equals(data)).toBe(true);
    await expect(store.download('x/none.bin', join(dir, 'none.bin'))).resolves.toBe(false);
    expect((await readdir(dir)).sort()).toEqual(['cache']);
  });

  it('refuses a blob over the size cap with too_large and keeps nothing of it (nor loses the old value)', async () => {
    const store = await open({ maxBytes: 10_000 });
    await store.put('k', bytesOf(100));
    const refused = store.put('k', streamOf(bytesOf(30_000), 1000));
    await expect(appErrorCode(refused)).resolves.toBe('too_large');
    await expect(refused).rejects.toMatchObject({ httpStatus: 413 });
    expect((await store.get('k'))?.length).toBe(100);
    expect(await store.usedBytes()).toBe(100);
  });

  it('refuses what passes the quota with insufficient_storage (507), keeps nothing of it, and has room again after a delete', async () => {
    const store = await open({ quotaBytes: 50_000, maxBytes: 40_000 });
    await store.put('a', bytesOf(30_000));
    const refused = store.put('b', streamOf(bytesOf(30_000), 5000));
    await expect(appErrorCode(refused)).resolves.toBe('insufficient_storage');
    await expect(refused).rejects.toMatchObject({ httpStatus: 507 });
    await expect(store.get('b')).resolves.toBeUndefined();
    expect(await store.usedBytes()).toBe(30_000);
    await store.delete('a');
    await expect(store.put('b', bytesOf(30_000))).resolves.toMatchObject({ byteSize: 30_000 });
  });

  it('expires a blob after its TTL (the default or its own), giving its room back; ttl null keeps it', async () => {
    const store = await open({ ttlMs: 150, quotaBytes: 25_000 });
    await store.put('short', bytesOf(20_000));
    await store.put('kept', bytesOf(1_000), { ttlMs: null });
    await store.put('longer', bytesOf(1_000), { ttlMs: 60_000 });
    await sleep(300);
    await expect(store.get('short')).resolves.toBeUndefined();
    await expect(store.stat('short')).resolves.toBeUndefined();
    expect((await store.get('kept'))?.length).toBe(1_000);
    expect((await store.get('longer'))?.length).toBe(1_000);
    expect(await store.usedBytes()).toBe(2_000);
    await expect(store.put('again', bytesOf(20_000))).resolves.toMatchObject({ byteSize: 20_000 });
  });

  it.each([['../etc/passwd'], ['/abs'], ['a//b'], ['a/../b'], ['.hidden'], ['a\0b'], ['']])(
    'refuses the key %j',
    async (key) => {
      const store = await open();
      await expect(store.put(key, bytesOf(10))).rejects.toThrow(/invalid blob key/);
      await expect(store.get(key)).rejects.toThrow(/invalid blob key/);
    },
  );
};
