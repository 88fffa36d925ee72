import { policyKbEnvShape } from '@lectern/platform';
import { commonEnvShape, envEnum, envPort, mcpOriginEnvShape, parseEnv, queueEnvShape } from '@lectern/runtime';
import { z } from 'zod';

/** Environment of policy-kb-mcp (spec 001's names and defaults, plus the platform's). */
export const PolicyKbEnvSchema = z.object({
  ...commonEnvShape,
  ...mcpOriginEnvShape,
  ...policyKbEnvShape,
  // How the policy-ingest worker holds jobs (lock, stall limit, shutdown grace), as the converter's.
  ...queueEnvShape,
  POLICY_KB_PORT: envPort(3003),
  MCP_HTTP_SESSIONS: envEnum(['stateless', 'stateful'] as const, 'stateless'),
});

export type PolicyKbConfig = z.infer<typeof PolicyKbEnvSchema>;

export const loadConfig = (env: Record<string, string | undefined>): PolicyKbConfig => parseEnv(PolicyKbEnvSchema, env);
