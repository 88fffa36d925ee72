// SPDX-License-Identifier: AGPL-3.0-or-later
import { createPlatform, platformOptions, type Platform } from '@lectern/platform';
import { policyKbModule, type PolicyIngestService, type PolicyKbModule } from '@lectern/policy-kb';
import type { Logger } from '@lectern/runtime';
import type { PolicyKbConfig } from './config.js';

/** policy-kb-mcp composed: the platform (its shutdown steps) and the policy KB module on it. */
export interface ComposedPolicyKb {
  /** Owns the registry, store, embedders, conversion path and the policy-ingest worker; closes them in order. */
  platform: Platform;
  policyKb: PolicyKbModule;
  /** The `policy-ingest` queue (the admin API enqueues uploads) with this process's worker. */
  ingest: PolicyIngestService;
}

/**
 * The platform from this service's configuration (embedded or distributed by REDIS_URL/QDRANT_URL alone) and the
 * policy KB composed on it (`policyKbModule`); `platform` given: composed on that one instead.
 */
export const composePolicyKb = (
  config: PolicyKbConfig,
  logger: Logger,
  platform: Platform = createPlatform(platformOptions(config, logger)),
): ComposedPolicyKb => {
  const policyKb = policyKbModule(platform, config);
  return { platform, policyKb, ingest: policyKb.ingest() };
};
