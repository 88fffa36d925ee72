// SPDX-License-Identifier: AGPL-3.0-or-later
import { dateInt } from '@lectern/policy-registry';
import type { PolicyRevision } from '@lectern/contracts';
import type { Filter } from '@lectern/vector-store';
import type { PolicyStoreDeps } from './deps.js';

/** The store filter selecting one revision's chunks. */
export const revisionFilter = (source: string, revisionId: string): Filter => ({ source, revision_id: revisionId });

/** How many chunks of the revision the store holds (0 when the collection does not exist yet). */
export const countRevisionChunks = async (
  deps: PolicyStoreDeps,
  source: string,
  revisionId: string,
): Promise<number> =>
  (await deps.store.getCollection(deps.collection))
    ? deps.store.count(deps.collection, revisionFilter(source, revisionId))
    : 0;

/** Delete one revision's chunks; returns how many there were. */
export const deleteRevisionChunks = async (
  deps: PolicyStoreDeps,
  source: string,
  revisionId: string,
): Promise<number> =>
  (await deps.store.getCollection(deps.collection))
    ? deps.store.deleteByFilter(deps.collection, revisionFilter(source, revisionId))
    : 0;

/**
 * Keep the chunks' integer dates equal to the registry's (spec 001 FR-007: `effective_to` `99991231` while open):
 * after auto-supersession closed a revision, or when an ingest raced with it. Returns the chunks updated.
 */
export const syncRevisionDates = async (deps: PolicyStoreDeps, revision: PolicyRevision): Promise<number> =>
  (await deps.store.getCollection(deps.collection))
    ? deps.store.setPayload(deps.collection, revisionFilter(revision.source, revision.revision_id), {
        effective_from: dateInt(revision.effective_from),
        effective_to: dateInt(revision.effective_to),
      })
    : 0;
