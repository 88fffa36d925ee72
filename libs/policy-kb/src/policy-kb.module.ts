import { policyCollection } from '@lectern/documents';
import { createPolicyIngestProcessor, type PolicyKbDeps, type PolicyStoreDeps } from '@lectern/policy-kb';
import { serviceIngestDeps, type ServiceIngestSettings } from './service-conversion.js';
import type { Platform, PolicyIngestService, PolicyRegistryOptions, VectorStoreOptions } from './platform.js';

/** `roots`: the allowed roots of `ingest_policy_revision`'s paths. */
export interface PolicyKbSettings extends VectorStoreOptions, ServiceIngestSettings {
  /** `POLICY_KB_PROJECT` (spec 001's `policy_docs`): the chunks live in `policyCollection(project)`. */
  project: string;
  registry?: PolicyRegistryOptions | undefined;
}

/** What reading and maintaining the policy KB needs (the CLI's `policy check`): the registry and the store. */
export const policyKbReader = (
  platform: Platform,
  s: VectorStoreOptions & { project: string; registry?: PolicyRegistryOptions | undefined },
): PolicyStoreDeps => ({
  registry: platform.policyRegistry(s.registry),
  store: platform.vectorStore(s),
  collection: policyCollection(s.project),
});

/**
 * Every policy KB use case's deps: the registry, the store, the embedders and the conversion job (converted
 * here when embedded, by converter workers when distributed) — the same composition as the document store's.
 */
export const policyKbDeps = (platform: Platform, s: PolicyKbSettings): PolicyKbDeps => ({
  ...policyKbReader(platform, s),
  ...serviceIngestDeps(platform, s),
});

/**
 * The `policy-ingest` queue with this process's worker on it (the policy KB's use case): admin API uploads are
 * ingested here, embedded or distributed (BullMQ lets another policy-kb-mcp replica take the job).
 */
export const policyIngestService = (platform: Platform, deps: PolicyKbDeps): PolicyIngestService =>
  platform.policyIngest({ processor: createPolicyIngestProcessor(deps, platform.dataDir) });
