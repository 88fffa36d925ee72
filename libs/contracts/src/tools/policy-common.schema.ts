// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { InputBounds } from './input-bounds.schema.js';

/** Source slug pattern of spec 001: UPPER_SNAKE_CASE. */
export const SourceSlugSchema = z
  .string()
  .max(InputBounds.idChars)
  .regex(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/, 'source slugs are UPPER_SNAKE_CASE, e.g. "NPPF" or "LTN_1_20"')
  .describe('Policy source slug (UPPER_SNAKE_CASE, e.g. "LTN_1_20").');

/**
 * A revision id names a Redis key (`policy_revision:{source}:{revision_id}`), an upload directory and a part of
 * every chunk id (`{source}__{revision_id}__{section_ref}__{index}`, spec 001): letters, digits, `_`, `-` and `.`,
 * starting with a letter or digit, never `__` (the chunk id's separator). So `../etc`, `a/b`, `a:b` and `__` are
 * refused before anything is read or written.
 */
export const RevisionIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(
    /^[A-Za-z0-9](?:[A-Za-z0-9.-]|_(?!_))*$/,
    'revision ids use letters, digits, "_", "-" and "." (starting with a letter or digit, never "__"), e.g. "rev_NPPF_2024_12"',
  )
  .describe('Revision ID, e.g. "rev_NPPF_2024_12".');

export const PolicyCategorySchema = z.enum([
  'national_policy',
  'national_guidance',
  'local_plan',
  'local_guidance',
  'county_strategy',
]);

export const RevisionStatusSchema = z.enum(['processing', 'active', 'superseded', 'failed']);

/** `YYYY-MM-DD`, checked as a real calendar date by the handler (error `invalid_date`). */
export const IsoDateString = z.string().max(64).describe('ISO date, YYYY-MM-DD.');
