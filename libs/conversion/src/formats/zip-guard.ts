// SPDX-License-Identifier: AGPL-3.0-or-later
import { createRequire } from 'node:module';
import type * as Zlib from 'node:zlib';
import { conversionError } from '../errors.js';

export interface ZipLimits {
  /** Largest total of uncompressed sizes, declared or counted while inflating. */
  maxTotalBytes: number;
  /** Largest uncompressed/compressed ratio of an entry bigger than 1 MiB. */
  maxRatio: number;
  maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxTotalBytes: 256 * 1024 * 1024, maxRatio: 200, maxEntries: 10_000 };

interface ZipEntry {
  method: number;
  compressed: Uint8Array;
  declared: number;
}

/**
 * Decompression-bomb check on a ZIP container (DOCX) before the unzip library sees it. The central
 * directory's declared sizes are checked first (cheap), then every entry is inflated as a stream whose
 * output is counted and dropped (memory: one 64 KiB chunk): a directory that lies about its sizes is caught
 * by the bytes that actually come out, stopped as soon as an entry inflates past its declared size or the
 * total past `maxTotalBytes`. Hand-written (about 80 lines) because it must run before, and independently
 * of, the unzip library; `signal` (the conversion timeout) stops it.
 */
export async function checkZip(
  bytes: Uint8Array,
  name: string,
  signal: AbortSignal,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<void> {
  const entries = readDirectory(bytes, name, limits);
  let total = 0;
  for (const entry of entries) {
    signal.throwIfAborted();
    if (entry.method === 0) {
      total += entry.compressed.length;
    } else if (entry.method === 8) {
      const stopAbove = Math.min(entry.declared, limits.maxTotalBytes - total);
      const inflated = await inflatedSize(entry.compressed, stopAbove, signal).catch((e: unknown) => {
        signal.throwIfAborted();
        throw conversionError('extraction_failed', `${name} has a corrupt ZIP entry`, e);
      });
      if (inflated > entry.declared)
        throw conversionError(
          'too_large',
          `${name} is a decompression bomb (a ZIP entry inflates past its declared ${entry.declared} bytes)`,
        );
      total += inflated;
      if (inflated > 1024 * 1024 && inflated / Math.max(1, entry.compressed.length) > limits.maxRatio)
        throw conversionError(
          'too_large',
          `${name} looks like a decompression bomb (an entry expands ${Math.round(inflated / Math.max(1, entry.compressed.length))}x)`,
        );
    } else {
      throw conversionError(
        'extraction_failed',
        `${name} uses an unsupported ZIP compression method (${entry.method})`,
      );
    }
    if (total > limits.maxTotalBytes)
      throw conversionError('too_large', `${name} expands to more than ${limits.maxTotalBytes} bytes`);
  }
}

function readDirectory(bytes: Uint8Array, name: string, limits: ZipLimits): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw conversionError('extraction_failed', `${name} is not a complete DOCX (ZIP directory missing)`);
  const count = view.getUint16(eocd + 10, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (count > limits.maxEntries) throw conversionError('too_large', `${name} holds ${count} ZIP entries`);
  const corrupt = () => conversionError('extraction_failed', `${name} has a corrupt ZIP directory`);
  const entries: ZipEntry[] = [];
  let declaredTotal = 0;
  let p = cdOffset;
  for (let k = 0; k < count; k++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== 0x02014b50) throw corrupt();
    const method = view.getUint16(p + 10, true);
    const compressedSize = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const local = view.getUint32(p + 42, true);
    if (size === 0xffffffff || compressedSize === 0xffffffff)
      throw conversionError('too_large', `${name} has a ZIP64 entry (over 4 GiB uncompressed)`);
    declaredTotal += size;
    if (size > 1024 * 1024 && size / Math.max(1, compressedSize) > limits.maxRatio)
      throw conversionError(
        'too_large',
        `${name} looks like a decompression bomb (an entry expands ${Math.round(size / Math.max(1, compressedSize))}x)`,
      );
    if (declaredTotal > limits.maxTotalBytes)
      throw conversionError('too_large', `${name} expands to more than ${limits.maxTotalBytes} bytes`);
    if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) throw corrupt();
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + compressedSize > bytes.length) throw corrupt();
    entries.push({ method, compressed: bytes.subarray(start, start + compressedSize), declared: size });
    p += 46 + view.getUint16(p + 28, true) + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
  }
  return entries;
}

/** Bytes a raw DEFLATE stream inflates to, counted and dropped; stops (answering more than `stopAbove`) early. */
function inflatedSize(compressed: Uint8Array, stopAbove: number, signal: AbortSignal): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    // node:zlib when a ZIP is checked (~1 ms a one-shot PDF conversion need not spend)
    const { createInflateRaw } = createRequire(import.meta.url)('node:zlib') as typeof Zlib;
    const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
    let n = 0;
    const stop = (): void => {
      inflate.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
    const done = (fn: () => void): void => {
      signal.removeEventListener('abort', stop);
      fn();
    };
    inflate.on('data', (chunk: Buffer) => {
      n += chunk.length;
      if (n > stopAbove) {
        inflate.destroy();
        done(() => resolve(n));
      }
    });
    inflate.on('end', () => done(() => resolve(n)));
    inflate.on('error', (e) => done(() => reject(e)));
    inflate.end(compressed);
  });
}
