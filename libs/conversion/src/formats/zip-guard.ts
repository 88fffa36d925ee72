import { conversionError } from '../errors.js';

export interface ZipLimits {
  /** Largest total of declared uncompressed sizes. */
  maxTotalBytes: number;
  /** Largest uncompressed/compressed ratio of an entry bigger than 1 MiB. */
  maxRatio: number;
  maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxTotalBytes: 512 * 1024 * 1024, maxRatio: 200, maxEntries: 10_000 };

/**
 * Decompression-bomb check on a ZIP container (DOCX) before anything inflates it: reads the central
 * directory's declared sizes. Hand-written (about 40 lines) because it must run before, and independently
 * of, the unzip library; a lying directory is caught by the markup worker's memory cap and the timeout.
 */
export function checkZip(bytes: Uint8Array, name: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw conversionError('extraction_failed', `${name} is not a complete DOCX (ZIP directory missing)`);
  const entries = view.getUint16(eocd + 10, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (entries > limits.maxEntries) throw conversionError('too_large', `${name} holds ${entries} ZIP entries`);
  let total = 0;
  let p = cdOffset;
  for (let k = 0; k < entries; k++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== 0x02014b50)
      throw conversionError('extraction_failed', `${name} has a corrupt ZIP directory`);
    const compressed = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    if (size === 0xffffffff || compressed === 0xffffffff)
      throw conversionError('too_large', `${name} has a ZIP64 entry (over 4 GiB uncompressed)`);
    total += size;
    if (size > 1024 * 1024 && size / Math.max(1, compressed) > limits.maxRatio)
      throw conversionError('too_large', `${name} looks like a decompression bomb (an entry expands ${Math.round(size / Math.max(1, compressed))}x)`);
    if (total > limits.maxTotalBytes)
      throw conversionError('too_large', `${name} expands to more than ${limits.maxTotalBytes} bytes`);
    p += 46 + view.getUint16(p + 28, true) + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
  }
}
