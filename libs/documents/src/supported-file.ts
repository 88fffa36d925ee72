// SPDX-License-Identifier: AGPL-3.0-or-later
import { extname } from 'node:path';
import { AppError } from '@lectern/contracts';

/** Spec 000 FR-005's supported file types (FR-001 lists all but `.bmp`; FR-005 is the pipeline's own list). */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.freeze([
  '.pdf',
  '.png',
  '.jpg',
  '.jpeg',
  '.tiff',
  '.tif',
  '.bmp',
]);

/** True for a supported extension, in any letter case (`Plan.PDF`). */
export function isSupportedFile(path: string): boolean {
  return SUPPORTED_EXTENSIONS.includes(extname(path).toLowerCase());
}

/** The file's lower-case extension, or `AppError('unsupported_file_type')`. */
export function assertSupportedFile(path: string): string {
  const ext = extname(path).toLowerCase();
  if (!SUPPORTED_EXTENSIONS.includes(ext)) {
    throw new AppError(
      'unsupported_file_type',
      `Unsupported file type "${ext || '(none)'}"; supported: ${SUPPORTED_EXTENSIONS.join(', ')}`,
      { httpStatus: 415 },
    );
  }
  return ext;
}
