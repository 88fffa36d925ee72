// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { AppError } from '@lectern/contracts';

/**
 * Spec 000 FR-008 identifiers:
 * - document id `{sanitized_ref}_{file_hash_6}` (e.g. `25_01178_REM_a1b2c3`);
 * - chunk id `{document_id}_{page_number:03d}_{chunk_index:03d}` (e.g. `25_01178_REM_a1b2c3_014_042`).
 */

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/**
 * The application reference as an id part: every character other than an ASCII letter or digit becomes
 * `_` (`25/01178/REM` → `25_01178_REM`). One character for one, so the length and the positions of the
 * reference's parts are kept; surrounding whitespace is ignored.
 */
export function sanitizeRef(applicationRef: string): string {
  const ref = applicationRef.trim();
  if (ref === '') throw new AppError('invalid_arguments', 'application_ref must not be empty');
  return Array.from(ref, (c) => (/^[A-Za-z0-9]$/.test(c) ? c : '_')).join('');
}

/** `{sanitized_ref}_{first 6 hex digits of the file's SHA-256}`, lower case. */
export function documentId(applicationRef: string, fileSha256: string): string {
  if (!SHA256_HEX.test(fileSha256)) {
    throw new AppError('invalid_arguments', 'file hash must be a SHA-256 digest (64 hexadecimal digits)');
  }
  return `${sanitizeRef(applicationRef)}_${fileSha256.slice(0, 6).toLowerCase()}`;
}

/** Python's `f"{n:03d}"` for a non-negative integer: at least three digits, more when needed. */
const pad3 = (n: number, what: string): string => {
  if (!Number.isInteger(n) || n < 0) throw new AppError('invalid_arguments', `${what} must be a non-negative integer`);
  return String(n).padStart(3, '0');
};

/** `{document_id}_{page:03d}_{chunk:03d}`; `page` is the chunk's first page, `chunkIndex` its 0-based index. */
export function chunkId(docId: string, page: number, chunkIndex: number): string {
  if (docId === '') throw new AppError('invalid_arguments', 'document id must not be empty');
  return `${docId}_${pad3(page, 'page number')}_${pad3(chunkIndex, 'chunk index')}`;
}

/** The document id a chunk id belongs to (everything before its page and chunk parts). */
export function documentIdOfChunk(id: string): string {
  const m = /^(.+)_\d{3,}_\d{3,}$/.exec(id);
  if (!m?.[1]) throw new AppError('invalid_arguments', `not a chunk id: ${id}`);
  return m[1];
}

/** Spec 000 FR-008 file hashing: SHA-256 of the file, read in 8192-byte blocks; lower-case hex. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const block of createReadStream(path, { highWaterMark: 8192 })) hash.update(block as Buffer);
  return hash.digest('hex');
}
