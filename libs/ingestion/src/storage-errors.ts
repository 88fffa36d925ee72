// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';

/** The client message of a full disk (REST 507; MCP the spec's error shape with this `error_type`). */
export const INSUFFICIENT_STORAGE_MESSAGE =
  'The server ran out of disk space while storing the document; nothing of it was kept. Retry after space is freed.';

const OUT_OF_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
// Qdrant answers a full disk with a 500 whose text carries the OS error (or its own "No space left" / "disk is full").
const OUT_OF_SPACE_TEXT =
  /no space left on device|disk quota exceeded|database or disk is full|disk is full|not enough space/i;

const causes = function* (error: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  for (let e = error; e !== undefined && e !== null && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    yield e;
  }
};

/** Whether `error` (or one of its causes) says the disk is full: ENOSPC, SQLite's SQLITE_FULL, Qdrant's text. */
export const isOutOfSpace = (error: unknown): boolean => {
  for (const e of causes(error)) {
    if (e instanceof AppError && e.code === 'insufficient_storage') return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && OUT_OF_SPACE_CODES.has(code)) return true;
    const data = (e as { data?: unknown }).data; // the Qdrant client's error body
    const text = `${(e as { message?: unknown }).message ?? ''} ${typeof data === 'string' ? data : JSON.stringify(data ?? '')}`;
    if (OUT_OF_SPACE_TEXT.test(text)) return true;
  }
  return false;
};

/**
 * The one place a full disk becomes the typed error: `insufficient_storage` (HTTP 507) for a disk-full error,
 * anything else unchanged. The pipeline's steps rethrow through it.
 */
export const asStorageError = (error: unknown): unknown =>
  isOutOfSpace(error) && !(error instanceof AppError && error.code === 'insufficient_storage')
    ? new AppError('insufficient_storage', INSUFFICIENT_STORAGE_MESSAGE, { httpStatus: 507, cause: error })
    : error;
