// SPDX-License-Identifier: AGPL-3.0-or-later
import type {
  ListPolicyDocumentsOutput,
  ListPolicyRevisionsInput,
  ListPolicyRevisionsOutput,
} from '@lectern/contracts';
import type { z } from 'zod';
import type { PolicyStoreDeps } from './deps.js';

/** Spec 001 FR-003: every registered policy (source, title, category), from the registry. */
export const listPolicyDocuments = async (
  deps: Pick<PolicyStoreDeps, 'registry'>,
): Promise<z.infer<typeof ListPolicyDocumentsOutput>> => {
  const policies = await deps.registry.listPolicies();
  return {
    status: 'success',
    policy_count: policies.length,
    policies: policies.map((p) => ({ source: p.source, title: p.title, category: p.category })),
  };
};

/** Spec 001 FR-004: a policy's revisions, newest `effective_from` first (`policy_not_found` for an unknown one). */
export const listPolicyRevisions = async (
  deps: Pick<PolicyStoreDeps, 'registry'>,
  input: z.input<typeof ListPolicyRevisionsInput>,
): Promise<z.infer<typeof ListPolicyRevisionsOutput>> => {
  const revisions = await deps.registry.listRevisions(input.source);
  return {
    status: 'success',
    source: input.source,
    revision_count: revisions.length,
    revisions: revisions.map((r) => ({
      revision_id: r.revision_id,
      version_label: r.version_label,
      effective_from: r.effective_from,
      effective_to: r.effective_to,
      status: r.status,
      chunk_count: r.chunk_count,
    })),
  };
};
