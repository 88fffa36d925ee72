// SPDX-License-Identifier: AGPL-3.0-or-later
import type { PolicyStoreDeps } from './deps.js';
import { revisionKey } from './recover-interrupted.js';
import { revisionFilter } from './revision-chunks.js';

export interface PolicyConsistencyReport {
  collection: string;
  policies: number;
  revisions: number;
  chunks: number;
  /** Chunks whose (source, revision) has no registry entry. */
  orphan_chunks: number;
  orphan_revisions: Array<{ source: string; revision_id: string; chunks: number }>;
  /** Revisions whose `chunk_count` differs from the chunks stored (those in `removed_revisions` apart). */
  count_mismatches: Array<{ source: string; revision_id: string; registered: number; stored: number }>;
  /**
   * Revisions whose chunks are all gone while the registry still counts them: what `remove_policy_revision` leaves
   * (spec 001 FR-006: it does not modify the registry). Not repaired: re-ingest the revision to restore its chunks
   * (or delete it through the admin API).
   */
  removed_revisions: Array<{ source: string; revision_id: string; registered: number; hint: string }>;
  /**
   * Revisions left `processing` that no queued or running `policy-ingest` job owns (`live`): an ingest that was
   * interrupted (its process killed). Not repaired here: policy-kb-mcp's recovery at start re-queues or fails them.
   * Without `live` (embedded mode: the jobs live in the service's process) every `processing` revision is listed.
   */
  stuck_revisions: Array<{ source: string; revision_id: string; chunks: number }>;
  /** With `repair`: orphan chunks deleted, and `chunk_count`s set to what is stored. */
  removed_chunks: number;
  fixed_counts: number;
  repaired: boolean;
  /** The state after this call (after a repair, checked again from the registry and the store). */
  consistent: boolean;
}

interface Scan {
  policies: number;
  revisions: number;
  chunks: number;
  orphans: PolicyConsistencyReport['orphan_revisions'];
  mismatches: PolicyConsistencyReport['count_mismatches'];
  stuck: PolicyConsistencyReport['stuck_revisions'];
}

const key = revisionKey;

const scan = async (deps: PolicyStoreDeps, live?: ReadonlySet<string>): Promise<Scan> => {
  const policies = await deps.registry.listPolicies();
  const registered = new Map<string, { source: string; revision_id: string; chunk_count: number; status: string }>();
  for (const p of policies)
    for (const r of await deps.registry.listRevisions(p.source)) registered.set(key(r.source, r.revision_id), r);
  const stored = new Map<string, { source: string; revision_id: string; chunks: number }>();
  let chunks = 0;
  if (await deps.store.getCollection(deps.collection)) {
    let cursor: string | null = null;
    do {
      const page = await deps.store.scroll(deps.collection, { limit: 1000, cursor });
      for (const p of page.points) {
        chunks += 1;
        const source = String(p.payload['source'] ?? '');
        const revisionId = String(p.payload['revision_id'] ?? '');
        const k = key(source, revisionId);
        const s = stored.get(k) ?? { source, revision_id: revisionId, chunks: 0 };
        s.chunks += 1;
        stored.set(k, s);
      }
      cursor = page.next;
    } while (cursor);
  }
  return {
    policies: policies.length,
    revisions: registered.size,
    chunks,
    orphans: [...stored.entries()].filter(([k]) => !registered.has(k)).map(([, s]) => s),
    mismatches: [...registered.entries()]
      .map(([k, r]) => ({
        source: r.source,
        revision_id: r.revision_id,
        registered: r.chunk_count,
        stored: stored.get(k)?.chunks ?? 0,
      }))
      .filter(
        (m) => m.registered !== m.stored && registered.get(key(m.source, m.revision_id))?.status !== 'processing',
      ),
    stuck: [...registered.entries()]
      .filter(([k, r]) => r.status === 'processing' && !live?.has(k))
      .map(([k, r]) => ({ source: r.source, revision_id: r.revision_id, chunks: stored.get(k)?.chunks ?? 0 })),
  };
};

/**
 * Spec 001 NFR-003: no chunk without a registry entry, and every revision's `chunk_count` equal to its chunks in
 * the store. `repair` deletes orphan chunks and sets each mismatched `chunk_count` to the chunks actually stored
 * (the registry then claims nothing that is not there), then checks again: `consistent` is the state after it.
 * Revisions whose chunks were removed (`removed_revisions`) are reported, not repaired: re-ingest restores them.
 * A revision stuck in `processing` (no live job in `live`) is inconsistent too; repair leaves it to the service's
 * recovery at start (`recover-interrupted.ts`), which re-queues or fails it.
 */
export const checkPolicyConsistency = async (
  deps: PolicyStoreDeps,
  input: { repair?: boolean; live?: ReadonlySet<string> } = {},
): Promise<PolicyConsistencyReport> => {
  const first = withRemoved(await scan(deps, input.live));
  let removed = 0;
  let fixed = 0;
  let final = first;
  if (input.repair && (first.orphans.length > 0 || first.mismatches.length > 0)) {
    for (const o of first.orphans)
      removed += await deps.store.deleteByFilter(deps.collection, revisionFilter(o.source, o.revision_id));
    for (const m of first.mismatches) {
      await deps.registry.updateRevision(m.source, m.revision_id, { chunk_count: m.stored });
      fixed += 1;
    }
    final = withRemoved(await scan(deps, input.live));
  }
  return {
    collection: deps.collection,
    policies: first.policies,
    revisions: first.revisions,
    chunks: first.chunks,
    orphan_chunks: first.orphans.reduce((n, o) => n + o.chunks, 0),
    orphan_revisions: first.orphans,
    count_mismatches: first.mismatches,
    removed_revisions: first.removed,
    stuck_revisions: first.stuck,
    removed_chunks: removed,
    fixed_counts: fixed,
    repaired: Boolean(input.repair),
    consistent:
      final.orphans.length === 0 &&
      final.mismatches.length === 0 &&
      final.removed.length === 0 &&
      final.stuck.length === 0,
  };
};

const REMOVED_HINT = 'chunks removed by remove_policy_revision; re-ingest to restore';

/**
 * A revision the registry counts chunks for and the store holds none of is its own finding (`removed_revisions`),
 * not a count mismatch: `repair` does not set its count to 0 (FR-006 leaves the registry as it was; the count says
 * what a re-ingest restores), and the report stays inconsistent until it is re-ingested or deleted.
 */
const withRemoved = (s: Scan): Scan & { removed: PolicyConsistencyReport['removed_revisions'] } => {
  const gone = (m: Scan['mismatches'][number]): boolean => m.registered > 0 && m.stored === 0;
  return {
    ...s,
    mismatches: s.mismatches.filter((m) => !gone(m)),
    removed: s.mismatches
      .filter(gone)
      .map((m) => ({ source: m.source, revision_id: m.revision_id, registered: m.registered, hint: REMOVED_HINT })),
  };
};
