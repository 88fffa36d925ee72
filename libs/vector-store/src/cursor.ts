// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';

export interface Cursor {
  id: string;
  /** Value of the order-by field on the last point of the page (ordered scrolls). */
  value?: number;
  orderBy?: string;
  /** Engine-specific position (Qdrant's next_page_offset). */
  offset?: string | number;
  /** Ids already returned at `value` (Qdrant ordered scrolls, which page by value, not by id). */
  seen?: string[];
}

/** Scroll cursors are opaque base64url JSON, bound to the order they were made for. */
export const encodeCursor = (c: Cursor): string => Buffer.from(JSON.stringify(c)).toString('base64url');

export const decodeCursor = (s: string | null | undefined, orderBy: string | undefined): Cursor | null => {
  if (s === undefined || s === null) return null;
  try {
    const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Cursor;
    if (typeof c.id !== 'string' || c.orderBy !== orderBy) throw new Error('cursor of another order');
    return c;
  } catch (cause) {
    throw new AppError(
      'invalid_arguments',
      'Invalid scroll cursor (use the `next` of the previous page, with the same orderBy).',
      {
        cause,
      },
    );
  }
};
