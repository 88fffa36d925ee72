// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nativeSha256 } from './pdf/pdf-native.js';
import { nodeSha256Bytes, sha256Bytes, sha256File } from './sha256.js';

const ADDON = fileURLToPath(new URL('../native/build/Release/lectern_mupdf.node', import.meta.url));
const expected = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
// around the 64-byte block and the 8192-byte feed, a view into a larger buffer, and a few MB
const samples = (): Uint8Array[] => [
  ...[0, 1, 55, 56, 63, 64, 65, 8191, 8192, 8193, 3 * 8192 + 17].map((n) => new Uint8Array(randomBytes(n))),
  new Uint8Array(randomBytes(1000)).subarray(13, 900),
  new Uint8Array(randomBytes(3 * 1024 * 1024 + 5)),
];

describe('the fingerprint (SHA-256 of a document)', () => {
  it("is mupdf's through the native addon (a process's first, under 1 MiB, where it is built) or node:crypto's: the same digest", () => {
    expect(nativeSha256() !== null).toBe(existsSync(ADDON));
    for (const bytes of samples()) {
      expect(sha256Bytes(bytes)).toBe(expected(bytes));
      expect(nodeSha256Bytes(bytes)).toBe(expected(bytes));
      const native = nativeSha256();
      if (native) expect(native(bytes)).toBe(expected(bytes));
    }
    expect(sha256Bytes(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('of a file equals that of its bytes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lectern-sha256-'));
    try {
      const bytes = new Uint8Array(randomBytes(50_000));
      await writeFile(join(dir, 'f.bin'), bytes);
      await expect(sha256File(join(dir, 'f.bin'))).resolves.toBe(sha256Bytes(bytes));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses what is not bytes in the addon, with a clear error', () => {
    const native = nativeSha256();
    if (!native) return expect(existsSync(ADDON)).toBe(false);
    expect(() => native('text' as unknown as Uint8Array)).toThrow('sha256 expects a Uint8Array');
    expect(() => native(new Float64Array(2) as unknown as Uint8Array)).toThrow('sha256 expects a Uint8Array');
  });
});
