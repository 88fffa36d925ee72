// SPDX-License-Identifier: AGPL-3.0-or-later
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
  /** Other revisions whose status alone changes (`active` → `superseded`: a later revision now follows them). */
  settled: PolicyRevision[];
}

/** Statuses that count for resolution (spec 001 FR-007): `processing` and `failed` are skipped. */
export const COUNTING_STATUSES: ReadonlySet<PolicyRevision['status']> = new Set(['active', 'superseded']);

/**
 * A revision a later one took over: closed (`effective_to` set) while a later revision of the same policy is
 * registered (auto-supersession, or a historical insertion before it). Whatever the later one's status: the
 * dates are the registry's, and they say this revision is no longer the current one.
 */
export const isTakenOver = (revision: PolicyRevision, all: readonly PolicyRevision[]): boolean =>
  revision.effective_to !== null &&
  all.some((r) => r.revision_id !== revision.revision_id && r.effective_from > revision.effective_from);

/**
 * Spec 001 FR-004/FR-008: a revision closed because a later one took over is `superseded`, never `active`
 * (`processing` and `failed` are lifecycle states and kept: an ingest finishing later settles them again).
 */
export const settledStatus = (revision: PolicyRevision, all: readonly PolicyRevision[]): PolicyRevision['status'] =>
  revision.status === 'active' && isTakenOver(revision, all) ? 'superseded' : revision.status;

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
  const closed = prev && prev.effective_to === null ? { ...prev, effective_to: addDays(from, -1) } : null;
  const planned: PolicyRevision = {
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
    const after = closed && r.revision_id === closed.revision_id ? closed : r;
    if (overlaps(planned, after)) throw overlapError(planned, r);
  }
  // Statuses settled on the timeline after the change (FR-004): the revision auto-supersession closed, a
  // historical insertion registered `active` that ends where a later one starts, and any earlier `active`
  // revision with a bounded range that the new revision now follows.
  const timeline = [...existing.map((r) => (closed && r.revision_id === closed.revision_id ? closed : r)), planned];
  const settle = (r: PolicyRevision): PolicyRevision => ({ ...r, status: settledStatus(r, timeline) });
  const revision = settle(planned);
  const superseded = closed ? settle(closed) : null;
  const settled = existing
    .filter((r) => r.revision_id !== closed?.revision_id && settledStatus(r, timeline) !== r.status)
    .map(settle);
  return { revision, superseded, settled };
};

/**
 * The revision after `patch`, its status settled against the policy's other revisions (`all`): an ingest that
 * finishes after a later revision closed this one stores `superseded`, not `active`.
 */
export const applyPatch = (
  revision: PolicyRevision,
  patch: RevisionPatch,
  all: readonly PolicyRevision[],
): PolicyRevision => {
  const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const next: PolicyRevision = { ...revision, ...defined };
  return { ...next, status: settledStatus(next, all) };
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
