// SPDX-License-Identifier: AGPL-3.0-or-later
import type { CreatePolicyInput, CreateRevisionInput, Policy, PolicyRevision, RevisionPatch } from '@lectern/contracts';

export type { CreatePolicyInput, CreateRevisionInput, Policy, PolicyRevision, RevisionPatch } from '@lectern/contracts';

export interface CreatedRevision {
  revision: PolicyRevision;
  /**
   * The previously open-ended revision this one closed (auto-supersession), as it is now: its `effective_to` is
   * the day before the new revision starts. Callers keep the chunks' date payloads true from it.
   */
  superseded: PolicyRevision | null;
}

export interface DeleteRevisionOptions {
  /** Needed to delete the only `active` revision of a policy. */
  force?: boolean;
}

/**
 * The policy registry of spec 001 (FR-008): the source of truth for policies and their revisions. Two adapters
 * (Redis with the spec's key schema; SQLite for embedded mode) pass one contract suite.
 *
 * Errors are `AppError`s: `invalid_arguments`, `invalid_date`, `policy_already_exists`, `policy_not_found`,
 * `revision_already_exists`, `revision_not_found`, `revision_overlap` (nothing changed),
 * `cannot_delete_sole_revision`, and `registry_unavailable` when the backing store cannot be reached.
 */
export interface PolicyRegistry {
  /** Register a policy; its source slug is unique (`policy_already_exists`). */
  createPolicy(input: CreatePolicyInput): Promise<Policy>;
  getPolicy(source: string): Promise<Policy | null>;
  /** Every registered policy, by source slug. */
  listPolicies(): Promise<Policy[]>;
  /**
   * Add a revision (status `processing` unless given). Its range must not overlap another revision's; an
   * open-ended revision that starts earlier is closed the day before (auto-supersession), and an open-ended new
   * revision that starts before an existing one ends the day before that one starts (historical insertion). Every
   * `active` revision that then ends before a later one is `superseded`.
   */
  createRevision(input: CreateRevisionInput): Promise<CreatedRevision>;
  getRevision(source: string, revisionId: string): Promise<PolicyRevision | null>;
  /** The revisions of a policy, newest `effective_from` first (`policy_not_found` for an unknown policy). */
  listRevisions(source: string): Promise<PolicyRevision[]>;
  /**
   * Change lifecycle/ingest metadata (status, chunk_count, page_count, ingested_at, error, ...); not the dates. An
   * `active` status on a revision a later one took over is stored `superseded` (FR-004).
   */
  updateRevision(source: string, revisionId: string, patch: RevisionPatch): Promise<PolicyRevision>;
  /** Remove a revision's entry and return it; the sole `active` revision only with `{ force: true }`. */
  deleteRevision(source: string, revisionId: string, options?: DeleteRevisionOptions): Promise<PolicyRevision>;
  /** The `active` or `superseded` revision in force on `date` (`YYYY-MM-DD`, both bounds inclusive), or null. */
  getEffectiveRevision(source: string, date: string): Promise<PolicyRevision | null>;
  close(): Promise<void>;
}
