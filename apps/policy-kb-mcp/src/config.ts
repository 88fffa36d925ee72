// SPDX-License-Identifier: AGPL-3.0-or-later
import { policyKbEnvShape } from '@lectern/policy-kb';
import { commonEnvShape, envEnum, envPort, mcpOriginEnvShape, parseEnv } from '@lectern/runtime';
import { z } from 'zod';

/** Environment of policy-kb-mcp (spec 001's names and defaults, plus the platform's). */
export const PolicyKbEnvSchema = z.object({
  ...commonEnvShape,
  ...mcpOriginEnvShape,
  // With the platform's shared variables: QUEUE_* (how the policy-ingest worker holds jobs), as the converter's.
  ...policyKbEnvShape,
  POLICY_KB_PORT: envPort(3003),
  MCP_HTTP_SESSIONS: envEnum(['stateless', 'stateful'] as const, 'stateless'),
});

export type PolicyKbConfig = z.infer<typeof PolicyKbEnvSchema>;

export const loadConfig = (env: Record<string, string | undefined>): PolicyKbConfig => parseEnv(PolicyKbEnvSchema, env);
