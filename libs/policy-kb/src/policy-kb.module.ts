// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  policyIngestQueue,
  policyKbTools,
  type PolicyIngestJobPayload,
  type PolicyIngestJobResult,
} from '@lectern/contracts';
import { serviceIngestDeps, type ServiceIngestSettings } from '@lectern/document-store';
import { policyCollection } from '@lectern/documents';
import {
  mcpTimeouts,
  toolDeadlines,
  unboundTools,
  type McpService,
  type McpTimeouts,
  type Platform,
  type PolicyRegistryOptions,
  type VectorStoreOptions,
} from '@lectern/platform';
import type { JobQueue, JobWorker } from '@lectern/queue';
import { LECTERN_VERSION } from '@lectern/runtime';
import type { PolicyKbDeps, PolicyStoreDeps } from './deps.js';
import { policyKbSettings, type PolicyKbEnv } from './policy-kb.env.js';
import { createPolicyIngestProcessor } from './policy-ingest.processor.js';
import { recoverInterruptedRevisions } from './recover-interrupted.js';
import { PolicyUploads } from './policy-uploads.js';
import { policyKbCompletions, policyKbPrompts } from './policy-prompts.js';
import { policyRevisionResources } from './policy-resources.js';
import { policyKbToolRegistrations } from './tools/policy-tools.js';

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
  uploads: new PolicyUploads({
    dataDir: platform.dataDir,
    ...(platform.mode === 'distributed' ? { blobs: platform.blobStore() } : {}),
  }),
});

/** The `policy-ingest` queue (admin API uploads -> the policy KB's ingest) and this process's worker on it. */
export interface PolicyIngestService {
  queue: JobQueue<PolicyIngestJobPayload, PolicyIngestJobResult>;
  worker: JobWorker | undefined;
}

/**
 * The `policy-ingest` queue with this process's worker on it (the policy KB's use case): admin API uploads are
 * ingested here, embedded or distributed (BullMQ lets another policy-kb-mcp replica take the job). Without deps
 * this process only enqueues (distributed mode only: embedded, nobody else would run the jobs).
 */
export const policyIngestService = (platform: Platform, deps?: PolicyKbDeps): PolicyIngestService => {
  const queue = platform.queue(policyIngestQueue, { keepFinished: 200 });
  if (platform.mode === 'embedded' && !deps)
    throw new Error('embedded mode needs the policy-ingest processor in this process');
  const worker = deps
    ? platform.worker(policyIngestQueue, createPolicyIngestProcessor(deps, platform.dataDir, deps.uploads), {
        concurrency: 1,
      })
    : undefined;
  return { queue, worker };
};

/**
 * policy-kb-mcp's server: spec 001's six tools (without deps every tool answers `not_implemented`);
 * `ingest_policy_revision` bounded by INGEST_TIMEOUT_S, the others by MCP_TOOL_TIMEOUT_S.
 */
export const policyKbMcpService = (deps?: PolicyKbDeps, timeouts: McpTimeouts = {}): McpService => ({
  name: 'policy-kb-mcp',
  version: LECTERN_VERSION,
  instructions:
    'Lectern policy knowledge base: search versioned policy documents "as in force on" a date, read sections, ' +
    'list policies and revisions, ingest and remove revisions.',
  tools: deps ? policyKbToolRegistrations(deps) : unboundTools(policyKbTools),
  deadlines: toolDeadlines(['ingest_policy_revision'], timeouts, deps?.ingestTimeoutMs),
  resources: deps ? policyRevisionResources(deps) : undefined,
  prompts: policyKbPrompts,
  completions: deps ? policyKbCompletions(deps) : undefined,
});

/** The policy KB composed on a platform: what policy-kb-mcp and `lectern mcp policies` serve. */
export interface PolicyKbModule {
  deps: PolicyKbDeps;
  /** policy-kb-mcp's MCP server (spec 001). */
  mcpService: McpService;
  /**
   * The `policy-ingest` queue with this process's worker on it (admin API uploads), built on first call (the
   * platform builds each queue and worker once): policy-kb-mcp calls it, `lectern mcp policies` does not.
   */
  ingest(): PolicyIngestService;
  /** What the ready line says about the policy KB (registry, queue, store, collection, embedding model). */
  details: Record<string, string>;
  /**
   * Recovery at start: revisions a killed process left `processing` with no job to finish them are queued again on
   * `ingest()`'s queue (their upload is kept) or failed with the reason. A failure is logged; it never throws.
   */
  recover(): Promise<void>;
}

/**
 * The policy KB from its variables on `platform`: the registry (Redis when the platform has it, else SQLite), the
 * store, the embedders, the conversion job and (`ingest()`) the `policy-ingest` worker. Its shutdown steps (the
 * worker, the registry) are registered on the platform at their stages, so `platform.shutdownSteps()` closes them in
 * order.
 */
export const policyKbModule = (platform: Platform, env: PolicyKbEnv): PolicyKbModule => {
  const deps = policyKbDeps(platform, policyKbSettings(env));
  const ingest = () => policyIngestService(platform, deps);
  return {
    deps,
    mcpService: policyKbMcpService(deps, mcpTimeouts(env)),
    ingest,
    details: {
      registry: env.REDIS_URL ? 'redis' : 'sqlite',
      queue: env.REDIS_URL ? 'bullmq (redis)' : 'in-process',
      store: env.QDRANT_URL ? `qdrant ${env.QDRANT_URL}` : 'sqlite',
      collection: deps.collection,
      embedding: env.EMBEDDING_MODEL,
    },
    recover: async () => {
      await recoverInterruptedRevisions(deps, {
        jobs: ingest().queue,
        dataDir: platform.dataDir,
        ...(deps.uploads ? { uploads: deps.uploads } : {}),
      }).catch((err: unknown) =>
        platform.log.error(
          { err },
          'policy KB recovery at start failed; revisions stuck in processing stay so until the next start',
        ),
      );
    },
  };
};
