import { commonEnvShape, envBool, envEnum, envInt, envList, envPort, envString, envUrl, mcpOriginEnvShape, parseEnv } from '@lectern/runtime';
import { ProjectIdSchema } from '@lectern/contracts';
import { z } from 'zod';

/** Environment of policy-kb-mcp (spec 001's names and defaults, plus the platform's). */
export const PolicyKbEnvSchema = z.object({
  ...commonEnvShape,
  ...mcpOriginEnvShape,
  POLICY_KB_PORT: envPort(3003),
  MCP_HTTP_SESSIONS: envEnum(['stateless', 'stateful'] as const, 'stateless'),
  POLICY_KB_PROJECT: z.preprocess((v) => (v === '' ? undefined : v), ProjectIdSchema.default('policy_docs')),
  DOCUMENT_ROOTS: envList([]),
  ENABLE_OCR: envBool(true),
  INGEST_TIMEOUT_S: envInt(1800, 1, 86_400),
  /** Redis policy registry (spec 001 key schema) when set; SQLite tables under DATA_DIR otherwise. */
  REDIS_URL: envUrl(),
  QDRANT_URL: envUrl(),
  QDRANT_API_KEY: envString(),
});

export type PolicyKbConfig = z.infer<typeof PolicyKbEnvSchema>;

export const loadConfig = (env: Record<string, string | undefined>): PolicyKbConfig => parseEnv(PolicyKbEnvSchema, env);
