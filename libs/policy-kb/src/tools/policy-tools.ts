// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  getPolicySectionTool,
  ingestPolicyRevisionTool,
  listPolicyDocumentsTool,
  listPolicyRevisionsTool,
  removePolicyRevisionTool,
  searchPolicyTool,
} from '@lectern/contracts';
import { bindTool, type ToolRegistration } from '@lectern/transport';
import type { PolicyKbDeps } from '../deps.js';
import { getPolicySection } from '../get-policy-section.js';
import { ingestPolicyRevision } from '../ingest-policy-revision.js';
import { listPolicyDocuments, listPolicyRevisions } from '../list-policies.js';
import { removePolicyRevision } from '../manage-revisions.js';
import { searchPolicy } from '../search-policy.js';

/** Spec 001's six tools (FR-001–006) bound to their use cases. */
export const policyKbToolRegistrations = (deps: PolicyKbDeps): ToolRegistration[] => [
  bindTool(searchPolicyTool, (input) => searchPolicy(deps, input)),
  bindTool(getPolicySectionTool, (input) => getPolicySection(deps, input)),
  bindTool(listPolicyDocumentsTool, () => listPolicyDocuments(deps)),
  bindTool(listPolicyRevisionsTool, (input) => listPolicyRevisions(deps, input)),
  bindTool(ingestPolicyRevisionTool, (input, ctx) =>
    ingestPolicyRevision(deps, input, { progress: (...p) => ctx.progress(...p), signal: ctx.signal }),
  ),
  bindTool(removePolicyRevisionTool, (input) => removePolicyRevision(deps, input)),
];
