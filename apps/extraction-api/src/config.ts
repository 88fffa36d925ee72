import { docToolsEnvShape } from '@lectern/platform';
import { commonEnvShape, envEnum, envInt, envPort, envString, envUrl, mcpOriginEnvShape, parseEnv } from '@lectern/runtime';
import { z } from 'zod';

/** Environment of extraction-api (spec 003's service on :8000). */
export const ExtractionEnvSchema = z.object({
  ...commonEnvShape,
  ...mcpOriginEnvShape,
  ...docToolsEnvShape,
  MCP_HTTP_SESSIONS: envEnum(['stateless', 'stateful'] as const, 'stateless'),
  EXTRACTION_API_PORT: envPort(8000),
  /** Bearer token of this REST API; default: MCP_API_KEY. Unset/empty → no auth. */
  EXTRACTION_API_KEY: envString(),
  MAX_UPLOAD_BYTES: envInt(200 * 1024 * 1024, 1),
  ANTHROPIC_API_KEY: envString(),
  ANTHROPIC_AUTH_TOKEN: envString(),
  ANTHROPIC_BASE_URL: envUrl(),
  API_TIMEOUT_MS: envInt(600_000, 1),
});

export type ExtractionConfig = z.infer<typeof ExtractionEnvSchema>;

export const loadConfig = (env: Record<string, string | undefined>): ExtractionConfig => parseEnv(ExtractionEnvSchema, env);

export const restApiKey = (config: ExtractionConfig): string | undefined => config.EXTRACTION_API_KEY ?? config.MCP_API_KEY;
