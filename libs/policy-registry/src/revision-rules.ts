import {
  AppError,
  PolicyRegistryErrorCodes as Codes,
  type CreateRevisionInputSchema,
  type PolicyRevision,
  type RevisionPatch,
} from '@lectern/contracts';
import type { z } from 'zod';
import { addDays } from './dates.js';

/**
 * The rules of the registry, shared by both adapters (pure: each adapter reads, plans, and writes the plan
 * atomically). The invariant they keep: the date ranges of one policy's revisions never overlap, whatever
 * their status, so at most one revision covers any day.
 */

export type ParsedRevisionInput = z.infer<typeof CreateRevisionInputSchema>;

export interface RevisionPlan {
  revision: PolicyRevision;
  /** The open-ended revision closed by auto-supersession, as it is after the change. */
  superseded: PolicyRevision | null;
}

/** Statuses that count for resolution (spec 001 FR-007): `processing` and `failed` are skipped. */
export const COUNTING_STATUSES: ReadonlySet<PolicyRevision['status']> = new Set(['active', 'superseded']);

const END_OF_TIME = '9999-12-31';
const show = (r: { effective_from: string; effective_to: string | null }): string =>
  `${r.effective_from}..${r.effective_to ?? 'open'}`;

const overlaps = (a: { effective_from: string; effective_to: string | null }, b: typeof a): boolean =>
  a.effective_from <= (b.effective_to ?? END_OF_TIME) && b.effective_from <= (a.effective_to ?? END_OF_TIME);

const overlapError = (
  input: { source: string; effective_from: string; effective_to: string | null },
  other: PolicyRevision,
): AppError =>
  new AppError(
    Codes.revisionOverlap,
    `Revision dates ${show(input)} overlap revision ${other.revision_id} (${show(other)}) of ${input.source}; nothing was changed.`,
    { httpStatus: 409 },
  );

/**
 * Plan a new revision against the existing ones (FR-008): an open-ended revision starting earlier is closed the
 * day before the new one starts (auto-supersession; `active` becomes `superseded`); an open-ended new revision
 * starting before an existing one ends the day before the next one starts (historical insertion); anything else
 * that shares a day with an existing revision is a `revision_overlap`.
 */
export const planRevision = (
  existing: readonly PolicyRevision[],
  input: ParsedRevisionInput,
  now: string,
): RevisionPlan => {
  const { source, revision_id: id, effective_from: from } = input;
  if (existing.some((r) => r.revision_id === id)) {
    throw new AppError(Codes.revisionAlreadyExists, `Revision already exists: ${id} for policy ${source}`, {
      httpStatus: 409,
    });
  }
  let to = input.effective_to ?? null;
  if (to !== null && to < from) {
    throw new AppError(Codes.invalidDate, `effective_to (${to}) is before effective_from (${from})`);
  }
  const sorted = [...existing].sort((a, b) => (a.effective_from < b.effective_from ? -1 : 1));
  const next = sorted.find((r) => r.effective_from >= from);
  const prev = sorted.filter((r) => r.effective_from < from).at(-1);
  if (next) {
    if (next.effective_from === from) throw overlapError({ source, effective_from: from, effective_to: to }, next);
    if (to === null) to = addDays(next.effective_from, -1);
    else if (to >= next.effective_from) throw overlapError({ source, effective_from: from, effective_to: to }, next);
  }
  let superseded: PolicyRevision | null = null;
  if (prev && prev.effective_to === null) {
    superseded = {
      ...prev,
      effective_to: addDays(from, -1),
      status: prev.status === 'active' ? 'superseded' : prev.status,
    };
  }
  const revision: PolicyRevision = {
    revision_id: id,
    source,
    version_label: input.version_label,
    effective_from: from,
    effective_to: to,
    status: input.status,
    file_path: input.file_path ?? null,
    file_size_bytes: input.file_size_bytes ?? null,
    page_count: input.page_count ?? null,
    chunk_count: 0,
    notes: input.notes ?? null,
    created_at: now,
    ingested_at: null,
    error: null,
  };
  // Whatever the neighbours above decided, nothing may share a day afterwards (the invariant, checked whole).
  for (const r of existing) {
    const after = superseded && r.revision_id === superseded.revision_id ? superseded : r;
    if (overlaps(revision, after)) throw overlapError(revision, r);
  }
  return { revision, superseded };
};

export const applyPatch = (revision: PolicyRevision, patch: RevisionPatch): PolicyRevision => {
  const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  return { ...revision, ...defined };
};

/** The sole active revision of a policy is deleted only with `force` (FR-008's guard). */
export const checkDelete = (revisions: readonly PolicyRevision[], target: PolicyRevision, force: boolean): void => {
  if (force || target.status !== 'active') return;
  if (revisions.filter((r) => r.status === 'active').length > 1) return;
  throw new AppError(
    Codes.soleActiveRevision,
    `Revision ${target.revision_id} is the only active revision of ${target.source}; delete it with force to leave the policy without one.`,
    { httpStatus: 409 },
  );
};

/** The revision in force on `day` (both bounds inclusive), among `active` and `superseded` ones. */
export const pickEffective = (revisions: readonly PolicyRevision[], day: string): PolicyRevision | null => {
  let best: PolicyRevision | null = null;
  for (const r of revisions) {
    if (!COUNTING_STATUSES.has(r.status)) continue;
    if (r.effective_from > day || (r.effective_to !== null && r.effective_to < day)) continue;
    if (!best || r.effective_from > best.effective_from) best = r;
  }
  return best;
};

/** Newest `effective_from` first (the order of `list_policy_revisions`). */
export const newestFirst = (revisions: PolicyRevision[]): PolicyRevision[] =>
  revisions.sort((a, b) => (a.effective_from < b.effective_from ? 1 : a.effective_from > b.effective_from ? -1 : 0));
