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

/**
 * SHA-256 (hex) of bytes already in memory (a conversion's fingerprint): mupdf's through the native addon where it
 * is built (a conversion of a PDF loads it anyway, and it loads sooner than node:crypto), else node:crypto's. The
 * same digest either way (sha256.spec.ts).
 */
export const sha256Bytes = (bytes: Uint8Array): string => (nativeSha256() ?? nodeSha256Bytes)(bytes);
