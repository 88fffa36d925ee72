// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts/errors';

/** The `code` of the AppError `p` rejects with; fails the test if it resolves or rejects with anything else. */
export const appErrorCode = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
  throw new Error('expected an AppError');
};
