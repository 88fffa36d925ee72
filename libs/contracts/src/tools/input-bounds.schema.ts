// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';

/**
 * Upper bounds of every string and array a client may send to a tool. Nothing a client sends is unbounded:
 * an over-long argument answers `invalid_arguments` before any work (embedding a 5 MB query once took the
 * whole service down). The numbers are generous for honest use and small for the work they allow.
 */
export const InputBounds = {
  /** A search query: a few KB (the embedders see at most 256-512 tokens of it anyway). */
  queryChars: 4096,
  /** A file path (Linux PATH_MAX). */
  pathChars: 4096,
  /** Identifiers and references: document ids, application refs, section refs, tags, collection names. */
  idChars: 256,
  /**
   * One chunk's text. Spec 002 accepts chunks "of any size" (about 500 words recommended) and spec 004 trims
   * what it returns to `max_chars` (at most 20 000): a stored chunk is at most what a retrieval can return.
   */
  chunkTextChars: 20_000,
  /** Free text beside a chunk (titles, headings, author names, URLs). */
  textChars: 4096,
  /** Lists of filters, tags, sources, section path entries, authors. */
  listItems: 100,
  /** Chunks in one store call. */
  chunksPerCall: 10_000,
} as const;

/** A non-empty string of at most `max` characters. */
export const boundedString = (max: number) => z.string().min(1).max(max);

export const QueryField = boundedString(InputBounds.queryChars);
export const PathField = boundedString(InputBounds.pathChars);
export const IdField = boundedString(InputBounds.idChars);

/**
 * A stored document's id (spec 000: `{sanitized_ref}_{hash_6}`, e.g. `25_01178_REM_a1b2c3`; spec 002/004 ids of
 * the caller's choosing, e.g. `paper-1`): letters, digits, `_`, `-` and `.`, starting with a letter or digit, so
 * no id can name a path (`../etc`, `a/b`).
 */
export const DocumentIdField = IdField.regex(
  /^[A-Za-z0-9][A-Za-z0-9_.-]*$/,
  'document ids use letters, digits, "_", "-" and "." (starting with a letter or digit), e.g. "25_01178_REM_a1b2c3"',
);
