// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Policy, PolicyRevision } from '@lectern/contracts';
import { parseDay } from './dates.js';
import type { PolicyRegistry } from './policy-registry.port.js';
import { COUNTING_STATUSES, pickEffective } from './revision-rules.js';

/**
 * Why a policy has no revision in force on a date: before its first (counting) revision, in a gap between two
 * of them (or after the last one ended), or none of its revisions counts (`processing`/`failed` only, or none).
 */
export type NoRevisionReason = 'date_before_first_revision' | 'date_in_gap' | 'no_revisions';

export interface EffectivePolicyResult {
  source: string;
  title: string;
  category: Policy['category'];
  effective_revision: PolicyRevision | null;
  /** Set when `effective_revision` is null. */
  reason: NoRevisionReason | null;
}

export interface EffectiveSnapshotResult {
  effective_date: string;
  policies: EffectivePolicyResult[];
  policies_with_revision: string[];
  policies_not_yet_effective: string[];
  policies_in_gap: string[];
}

const reasonFor = (revisions: readonly PolicyRevision[], day: string): NoRevisionReason => {
  const counting = revisions.filter((r) => COUNTING_STATUSES.has(r.status));
  if (counting.length === 0) return 'no_revisions';
  return counting.every((r) => day < r.effective_from) ? 'date_before_first_revision' : 'date_in_gap';
};

/**
 * Which revision of each policy was in force on a date (spec 001 FR-007), over the registry port: only
 * `active` and `superseded` revisions count, `effective_from` and `effective_to` are both inclusive. A date
 * that is not a calendar day `YYYY-MM-DD` is `invalid_date`.
 */
export class EffectiveDateResolver {
  constructor(private readonly registry: PolicyRegistry) {}

  /** The policy's revision in force on `date`, with the reason when there is none; null for an unknown policy. */
  async resolveForPolicy(source: string, date: string): Promise<EffectivePolicyResult | null> {
    const day = parseDay(date);
    const policy = await this.registry.getPolicy(source);
    return policy ? this.resolve(policy, day) : null;
  }

  /** Every policy (or those of `sources` that exist) on `date`, grouped as the snapshot lists them. */
  async resolveSnapshot(date: string, sources?: readonly string[]): Promise<EffectiveSnapshotResult> {
    const day = parseDay(date);
    const all = await this.registry.listPolicies();
    const wanted = sources ? new Set(sources) : null;
    const policies = await Promise.all(
      all.filter((p) => !wanted || wanted.has(p.source)).map((p) => this.resolve(p, day)),
    );
    const by = (pred: (r: EffectivePolicyResult) => boolean): string[] => policies.filter(pred).map((r) => r.source);
    return {
      effective_date: day,
      policies,
      policies_with_revision: by((r) => r.effective_revision !== null),
      policies_not_yet_effective: by((r) => r.reason === 'date_before_first_revision'),
      policies_in_gap: by((r) => r.reason === 'date_in_gap'),
    };
  }

  /**
   * Source → revision id in force on `date` (null where none is), for every policy or those of `sources` that
   * exist (an unknown source is left out: a search filtered by it finds nothing, which is not an error).
   */
  async getRevisionIdsForDate(date: string, sources?: readonly string[]): Promise<Record<string, string | null>> {
    const snapshot = await this.resolveSnapshot(date, sources);
    return Object.fromEntries(snapshot.policies.map((p) => [p.source, p.effective_revision?.revision_id ?? null]));
  }

  private async resolve(policy: Policy, day: string): Promise<EffectivePolicyResult> {
    const revisions = await this.registry.listRevisions(policy.source);
    const effective = pickEffective(revisions, day);
    return {
      source: policy.source,
      title: policy.title,
      category: policy.category,
      effective_revision: effective,
      reason: effective ? null : reasonFor(revisions, day),
    };
  }
}
