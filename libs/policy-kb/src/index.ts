// SPDX-License-Identifier: AGPL-3.0-or-later
export type { PolicyKbDeps, PolicySearchDeps, PolicyStoreDeps, ProgressFn } from './deps.js';
export { extractSections, normaliseSectionRef, sanitizeSectionRef, PREAMBLE } from './sections.js';
export type { PolicySection } from './sections.js';
export { chunkPolicy, policyChunkId } from './policy-chunks.js';
export type { PolicyChunk } from './policy-chunks.js';
export { searchPolicy } from './search-policy.js';
export type { SearchPolicyResult } from './search-policy.js';
export { getPolicySection } from './get-policy-section.js';
export type { GetPolicySectionResult } from './get-policy-section.js';
export { listPolicyDocuments, listPolicyRevisions } from './list-policies.js';
export { ingestPolicyRevision } from './ingest-policy-revision.js';
export type { IngestPolicyRevisionResult } from './ingest-policy-revision.js';
export { createPolicyRevision, deletePolicyRevision, removePolicyRevision } from './manage-revisions.js';
export { checkPolicyConsistency } from './check-policy-consistency.js';
export type { PolicyConsistencyReport } from './check-policy-consistency.js';
export { countRevisionChunks, revisionFilter, syncRevisionDates } from './revision-chunks.js';
export { policyKbToolRegistrations } from './tools/policy-tools.js';
export { createPolicyIngestProcessor } from './policy-ingest.processor.js';
export { PolicyUploads, policyUploadsDir } from './policy-uploads.js';
export { SEED_POLICIES, seedPolicies } from './seed-policies.js';
export type { SeedPolicy, SeedReport, SeedRevision } from './seed-policies.js';
export {
  policyIngestService,
  policyKbDeps,
  policyKbMcpService,
  policyKbModule,
  policyKbReader,
} from './policy-kb.module.js';
export type { PolicyIngestService, PolicyKbModule, PolicyKbSettings } from './policy-kb.module.js';
export { PolicyKbEnvSchema, policyKbEnvShape, policyKbSettings } from './policy-kb.env.js';
export type { PolicyKbEnv } from './policy-kb.env.js';
export {
  findStuckRevisions,
  liveIngestRevisions,
  recoverInterruptedRevisions,
  revisionKey,
} from './recover-interrupted.js';
export type { PolicyIngestJobs, PolicyRecoveryReport } from './recover-interrupted.js';
export { policyInForcePrompt, policyKbCompletions, policyKbPrompts } from './policy-prompts.js';
export {
  POLICY_RESOURCES_PAGE,
  POLICY_REVISION_URI_TEMPLATE,
  policyRevisionResources,
  policyRevisionUri,
} from './policy-resources.js';
