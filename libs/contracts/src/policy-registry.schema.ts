// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { InputBounds } from './tools/input-bounds.schema.js';
import {
  PolicyCategorySchema,
  RevisionIdSchema,
  RevisionStatusSchema,
  SourceSlugSchema,
} from './tools/policy-common.schema.js';

/**
 * The policy registry of spec 001 (FR-008): policies and their revisions, the source of truth for policy
 * metadata. Field names are the spec's; dates are `YYYY-MM-DD` calendar days, timestamps ISO 8601 instants.
 */

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written `YYYY-MM-DD` (`2023-02-29` is not one). */
export const isCalendarDay = (value: string): boolean => {
  const m = ISO_DAY.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
};

/** A calendar day, `YYYY-MM-DD`. Callers with client input check it first and answer `invalid_date`. */
export const CalendarDaySchema = z.string().refine(isCalendarDay, 'expected a calendar date YYYY-MM-DD');

export const PolicySchema = z.object({
  source: SourceSlugSchema,
  title: z.string().min(1).max(InputBounds.textChars),
  description: z.string().max(InputBounds.textChars).nullable(),
  category: PolicyCategorySchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Policy = z.infer<typeof PolicySchema>;

export const CreatePolicyInputSchema = z.object({
  source: SourceSlugSchema,
  title: z.string().min(1).max(InputBounds.textChars),
  description: z.string().max(InputBounds.textChars).nullable().optional(),
  category: PolicyCategorySchema,
});
export type CreatePolicyInput = z.input<typeof CreatePolicyInputSchema>;

const Count = z.number().int().nonnegative();

export const PolicyRevisionSchema = z.object({
  revision_id: RevisionIdSchema,
  source: SourceSlugSchema,
  version_label: z.string().max(InputBounds.textChars),
  effective_from: CalendarDaySchema,
  /** `null`: open-ended, the revision currently in force. */
  effective_to: CalendarDaySchema.nullable(),
  status: RevisionStatusSchema,
  file_path: z.string().max(InputBounds.pathChars).nullable(),
  file_size_bytes: Count.nullable(),
  page_count: Count.nullable(),
  chunk_count: Count,
  notes: z.string().max(InputBounds.textChars).nullable(),
  created_at: z.string(),
  ingested_at: z.string().nullable(),
  error: z.string().max(InputBounds.textChars).nullable(),
});
export type PolicyRevision = z.infer<typeof PolicyRevisionSchema>;

export const CreateRevisionInputSchema = z.object({
  source: SourceSlugSchema,
  revision_id: RevisionIdSchema,
  version_label: z.string().max(InputBounds.textChars),
  effective_from: CalendarDaySchema,
  /** Omitted or null: open-ended, unless a later revision exists (then the day before it starts). */
  effective_to: CalendarDaySchema.nullable().optional(),
  /** Default `processing`: an ingest moves it to `active` (or `failed`). */
  status: RevisionStatusSchema.default('processing'),
  file_path: z.string().max(InputBounds.pathChars).nullable().optional(),
  file_size_bytes: Count.nullable().optional(),
  page_count: Count.nullable().optional(),
  notes: z.string().max(InputBounds.textChars).nullable().optional(),
});
export type CreateRevisionInput = z.input<typeof CreateRevisionInputSchema>;

/**
 * What an update may change: lifecycle and ingest metadata. The effective dates are not here: they are set
 * by creation (and auto-supersession); a revision with other dates is deleted and created again.
 */
export const RevisionPatchSchema = PolicyRevisionSchema.pick({
  version_label: true,
  status: true,
  file_path: true,
  file_size_bytes: true,
  page_count: true,
  chunk_count: true,
  notes: true,
  ingested_at: true,
  error: true,
})
  .partial()
  .strict();
export type RevisionPatch = z.input<typeof RevisionPatchSchema>;

/** Error codes of the registry (the spec's `error_type` where it names one). */
export const PolicyRegistryErrorCodes = {
  registryUnavailable: 'registry_unavailable',
  invalidDate: 'invalid_date',
  invalidArguments: 'invalid_arguments',
  policyAlreadyExists: 'policy_already_exists',
  policyNotFound: 'policy_not_found',
  revisionAlreadyExists: 'revision_already_exists',
  revisionNotFound: 'revision_not_found',
  revisionOverlap: 'revision_overlap',
  soleActiveRevision: 'cannot_delete_sole_revision',
} as const;
