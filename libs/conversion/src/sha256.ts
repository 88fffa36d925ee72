// SPDX-License-Identifier: AGPL-3.0-or-later
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Crypto from 'node:crypto';
import { nativeSha256 } from './pdf/pdf-native.js';

/** node:crypto, required when first needed: loading it costs ~2.3 ms, a one-shot conversion's largest module. */
const nodeCrypto = (): typeof Crypto => createRequire(import.meta.url)('node:crypto') as typeof Crypto;

/** SHA-256 (hex) of a file, read in 8192-byte blocks as spec 000 (FR-008) says. */
export async function sha256File(path: string): Promise<string> {
  const hash = nodeCrypto().createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 8192 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** node:crypto's SHA-256 (hex) of bytes in memory, fed in the same 8192-byte blocks as `sha256File`. */
export function nodeSha256Bytes(bytes: Uint8Array): string {
  const hash = nodeCrypto().createHash('sha256');
  for (let i = 0; i < bytes.length; i += 8192) hash.update(bytes.subarray(i, i + 8192));
  return hash.digest('hex');
}

/** Bytes from which node:crypto hashes even the first fingerprint of a process (see `sha256Bytes`). */
export const NODE_SHA256_MIN_BYTES = 1024 * 1024;

/** The first fingerprint of this process has been computed. */
let hashedBefore = false;

/**
 * SHA-256 (hex) of bytes already in memory (a conversion's fingerprint), the same digest either way (sha256.spec.ts):
 * mupdf's through the native addon for a process's first fingerprint under NODE_SHA256_MIN_BYTES where the addon is
 * built (a one-shot conversion loads the addon anyway, and not node:crypto: ~2 ms), node:crypto's otherwise. mupdf's
 * SHA-256 is plain C, ~3 ms a MB on the benchmark machine; node:crypto's (OpenSSL, the CPU's SHA instructions)
 * ~0.6 ms a MB (issue 28; docs/benchmarks/conversion.md, Round 7).
 */
export function sha256Bytes(bytes: Uint8Array): string {
  const native = hashedBefore || bytes.length >= NODE_SHA256_MIN_BYTES ? null : nativeSha256();
  hashedBefore = true;
  return (native ?? nodeSha256Bytes)(bytes);
}
