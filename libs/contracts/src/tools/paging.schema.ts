// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';

/**
 * Paging for agents. Text is paged by character offset (`offset` + `max_chars` in, `next_offset` out);
 * lists by an opaque cursor (`cursor` + `limit` in, `next_cursor` out, absent on the last page). A cursor is
 * only meaningful for the call that produced it (same tool, same filter); anything else is `invalid_arguments`.
 */
export const CursorField = z
  .string()
  .min(1)
  .max(512)
  .describe("Opaque cursor from a previous answer's `next_cursor` (omit for the first page).");
export const NextCursorField = z
  .string()
  .optional()
  .describe('Pass as `cursor` to get the next page; absent on the last page.');

/** A list page size: `limit` items at most (default and maximum per tool). */
export const pageLimitField = (defaultLimit: number, max: number) =>
  z.number().int().min(1).max(max).optional().describe(`Items per page (default ${defaultLimit}, at most ${max}).`);
