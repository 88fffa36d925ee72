// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';

/**
 * The longest project id: the store's collection names hold 64 characters, and internal collections append a
 * suffix to the project id (`<project>__registry`), so 16 are left for those.
 */
export const PROJECT_ID_MAX_LENGTH = 48;

/**
 * One project id, wherever a project is named: spec 000's optional `project`, spec 002's `collection`, spec
 * 004's `project`, `DOCUMENT_STORE_PROJECT`, `POLICY_KB_PROJECT`. Letters, digits, `_` and `-` (no `.`: not
 * every vector store takes it in a collection name), starting with a letter or digit, and never two `_` in a
 * row: `__` marks the store's internal collections (`<project>__registry`, a rebuilt `<project>__v2`,
 * `lectern__projects`), which therefore can never be mistaken for a project.
 */
export const ProjectIdSchema = z
  .string()
  .min(1)
  .max(PROJECT_ID_MAX_LENGTH)
  .regex(
    /^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_))*$/,
    `project ids use letters, digits, "_" and "-" (never "__"), at most ${PROJECT_ID_MAX_LENGTH} characters`,
  );

/** Internal collection names contain `__`, which no project id does. */
export const INTERNAL_COLLECTION_MARK = '__';
export const isInternalCollectionName = (name: string): boolean => name.includes(INTERNAL_COLLECTION_MARK);
