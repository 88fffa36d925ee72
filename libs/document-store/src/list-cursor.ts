// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { AppError } from '@lectern/contracts';
import { z } from 'zod';

/**
 * Opaque list cursors: base64url of `{ s, a }` — `s` a short hash of the listing's scope (tool, project,
 * filter), `a` the last key of the page. Keyset paging: a document added or removed between two pages
 * neither repeats nor skips the others. A cursor from another listing, or edited, is `invalid_arguments`.
 */
const CursorSchema = z.object({ s: z.string(), a: z.string() });

const scopeKey = (scope: readonly string[]): string =>
  createHash('sha256').update(JSON.stringify(scope)).digest('base64url').slice(0, 12);

export const encodeListCursor = (scope: readonly string[], after: string): string =>
  Buffer.from(JSON.stringify({ s: scopeKey(scope), a: after })).toString('base64url');

/** The key to continue after, or undefined for the first page. */
export const decodeListCursor = (scope: readonly string[], cursor: string | undefined): string | undefined => {
  if (cursor === undefined) return undefined;
  let parsed: z.infer<typeof CursorSchema> | undefined;
  try {
    parsed = CursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.s !== scopeKey(scope)) {
    throw new AppError(
      'invalid_arguments',
      'cursor is not one this listing returned (pass `next_cursor` unchanged, with the same arguments)',
    );
  }
  return parsed.a;
};

/** One page of `items` (sorted by `key`) after the cursor's key, and the cursor of the next page if there is one. */
export const pageAfter = <T>(
  items: readonly T[],
  key: (item: T) => string,
  scope: readonly string[],
  input: { cursor?: string | undefined; limit: number },
): { page: T[]; next_cursor?: string } => {
  const after = decodeListCursor(scope, input.cursor);
  const sorted = [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const rest = after === undefined ? sorted : sorted.filter((item) => key(item) > after);
  const page = rest.slice(0, input.limit);
  const last = page.at(-1);
  return rest.length > page.length && last !== undefined
    ? { page, next_cursor: encodeListCursor(scope, key(last)) }
    : { page };
};
