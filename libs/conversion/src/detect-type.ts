// SPDX-License-Identifier: AGPL-3.0-or-later
import type { DetectedFileType } from '@lectern/contracts';
import { extname } from 'node:path';
import { conversionError } from './errors.js';

export interface DetectedType {
  type: DetectedFileType;
  mime: string;
}

const startsWith = (b: Uint8Array, sig: number[], at = 0): boolean => sig.every((v, i) => b[at + i] === v);
const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** By extension, checked against the content (magic bytes, or "is text" for the text formats). */
const FORMATS: Record<string, { type: DetectedFileType; mime: string; check: (b: Uint8Array) => boolean }> = {
  '.pdf': { type: 'pdf', mime: 'application/pdf', check: (b) => indexOf(b.subarray(0, 1024), ascii('%PDF-')) >= 0 },
  '.png': {
    type: 'image',
    mime: 'image/png',
    check: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  '.jpg': { type: 'image', mime: 'image/jpeg', check: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  '.jpeg': { type: 'image', mime: 'image/jpeg', check: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  '.tif': { type: 'image', mime: 'image/tiff', check: isTiff },
  '.tiff': { type: 'image', mime: 'image/tiff', check: isTiff },
  '.bmp': { type: 'image', mime: 'image/bmp', check: (b) => startsWith(b, ascii('BM')) },
  '.docx': {
    type: 'docx',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    check: (b) => startsWith(b, [0x50, 0x4b, 0x03, 0x04]),
  },
  '.html': { type: 'html', mime: 'text/html', check: isText },
  '.htm': { type: 'html', mime: 'text/html', check: isText },
  '.txt': { type: 'txt', mime: 'text/plain', check: isText },
  '.md': { type: 'md', mime: 'text/markdown', check: isText },
  '.markdown': { type: 'md', mime: 'text/markdown', check: isText },
};

export const SUPPORTED_EXTENSIONS = Object.keys(FORMATS);

function isTiff(b: Uint8Array): boolean {
  return startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]);
}

/**
 * Text: no NUL bytes and almost no other control characters in the first 64 KiB. The encoding need not be
 * UTF-8 (`decodeText` falls back to Windows-1252, the usual legacy encoding of English text and HTML).
 */
function isText(b: Uint8Array): boolean {
  const head = b.subarray(0, 65536);
  let control = 0;
  for (const c of head) {
    if (c === 0) return false;
    if (c < 9 || (c > 13 && c < 32 && c !== 27)) control += 1;
  }
  return control <= head.length * 0.01;
}

/** Windows-1252's 0x80-0x9F (Node builds without full ICU decode the label as plain Latin-1). */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

export function decodeWindows1252(b: Uint8Array): string {
  return new TextDecoder('latin1')
    .decode(b)
    .replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
}

/** UTF-8 (BOM dropped) when the bytes are valid UTF-8, else Windows-1252. */
export function decodeText(b: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b).replace(/^\uFEFF/, '');
  } catch {
    return decodeWindows1252(b);
  }
}

function indexOf(hay: Uint8Array, needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

export function detectType(filename: string, bytes: Uint8Array): DetectedType {
  const ext = extname(filename).toLowerCase();
  const f = FORMATS[ext];
  if (!f)
    throw conversionError(
      'unsupported_file_type',
      `unsupported file type "${ext || '(none)'}" (supported: ${SUPPORTED_EXTENSIONS.join(' ')})`,
    );
  if (!f.check(bytes))
    throw conversionError(
      'unsupported_file_type',
      `${filename}: content is not ${f.type.toUpperCase()} (wrong extension?)`,
    );
  return { type: f.type, mime: f.mime };
}
