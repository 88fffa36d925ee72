// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  type CreateRevisionInput,
  type PolicyRevision,
  type RemovePolicyRevisionInput,
  type RemovePolicyRevisionOutput,
} from '@lectern/contracts';
import { checkDelete, type CreatedRevision } from '@lectern/policy-registry';
import type { z } from 'zod';
import type { PolicyStoreDeps } from './deps.js';
import { countRevisionChunks, deleteRevisionChunks, syncRevisionDates } from './revision-chunks.js';

/**
 * Spec 001 FR-006: remove a revision's chunks and return how many there were (0 is not an error). It "does not
 * modify the policy registry": the entry keeps its `chunk_count`, and `lectern policy check` reports the revision
 * as one whose chunks were removed (NFR-003) until it is re-ingested or deleted. A revision neither registered nor
 * holding chunks is `revision_not_found`; chunks without an entry (the registry deleted first) are still removed.
 */
export const removePolicyRevision = async (
  deps: PolicyStoreDeps,
  input: z.input<typeof RemovePolicyRevisionInput>,
): Promise<z.infer<typeof RemovePolicyRevisionOutput>> => {
  const { source, revision_id: revisionId } = input;
  if (
    !(await deps.registry.getRevision(source, revisionId)) &&
    (await countRevisionChunks(deps, source, revisionId)) === 0
  )
    throw new AppError('revision_not_found', `Revision not found: ${revisionId} for policy ${source}`, {
      httpStatus: 404,
    });
  const removed = await deleteRevisionChunks(deps, source, revisionId);
  return { status: 'success', source, revision_id: revisionId, chunks_removed: removed };
};

/**
 * Register a revision (overlap detection, auto-supersession, historical insertion: the registry's rules) and keep
 * the store true to it: the revision it superseded has its chunks' `effective_to` closed the same day.
 */
export const createPolicyRevision = async (
  deps: PolicyStoreDeps,
  input: CreateRevisionInput,
): Promise<CreatedRevision> => {
  const created = await deps.registry.createRevision(input);
  if (created.superseded) await syncRevisionDates(deps, created.superseded);
  return created;
};

/**
 * Delete a revision: its chunks first, then the registry entry (so the registry never claims missing chunks).
 * The sole-active guard is checked before anything is removed.
 */
export const deletePolicyRevision = async (
  deps: PolicyStoreDeps,
  input: { source: string; revision_id: string; force?: boolean },
): Promise<{ revision: PolicyRevision; chunks_removed: number }> => {
  const revisions = await deps.registry.listRevisions(input.source);
  const target = revisions.find((r) => r.revision_id === input.revision_id);
  if (!target)
    throw new AppError('revision_not_found', `Revision not found: ${input.revision_id} for policy ${input.source}`, {
      httpStatus: 404,
    });
  checkDelete(revisions, target, input.force ?? false);
  const chunksRemoved = await deleteRevisionChunks(deps, input.source, input.revision_id);
  const revision = await deps.registry.deleteRevision(input.source, input.revision_id, { force: input.force ?? false });
  return { revision, chunks_removed: chunksRemoved };
};
