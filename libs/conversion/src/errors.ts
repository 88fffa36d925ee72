// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ConversionErrorCode } from '@lectern/contracts/conversion';
import { AppError } from '@lectern/contracts/errors';

const STATUS: Record<ConversionErrorCode, number> = {
  unsupported_file_type: 415,
  extraction_failed: 422,
  no_content: 422,
  too_large: 413,
  encrypted: 422,
  timeout: 504,
};

/** The typed error every bad input ends in (`code` is the spec's error_type). */
export const conversionError = (code: ConversionErrorCode, message: string, cause?: unknown): AppError =>
  new AppError(code, message, { httpStatus: STATUS[code], cause });
