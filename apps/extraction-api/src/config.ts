import type { LlmSettings } from '@lectern/extraction';
import { docToolsEnvShape } from '@lectern/doc-tools';
import {
  commonEnvShape,
  envEnum,
  envInt,
  envPort,
  envString,
  envUrl,
  mcpOriginEnvShape,
  parseEnv,
  queueEnvShape,
} from '@lectern/runtime';
import { z } from 'zod';

/** Environment of extraction-api (spec 003's service on :8000; section 14's variables). */
export const ExtractionEnvSchema = z.object({
  ...commonEnvShape,
  ...mcpOriginEnvShape,
  ...docToolsEnvShape,
  MCP_HTTP_SESSIONS: envEnum(['stateless', 'stateful'] as const, 'stateless'),
  /** How this process's queue workers (extraction tasks, conversion when embedded) hold their jobs. */
  ...queueEnvShape,
  EXTRACTION_API_PORT: envPort(8000),
  /** Bearer token of this REST API; default: MCP_API_KEY. Unset/empty → no auth. */
  EXTRACTION_API_KEY: envString(),
  MAX_UPLOAD_BYTES: envInt(200 * 1024 * 1024, 1),
  /** The task store (default `<DATA_DIR>/tasks.db`). */
  DB_PATH: envString(),
  MAX_CONCURRENT_TASKS: envInt(1, 1, 64),
  /** Seconds one extraction attempt may take. */
  AGENT_TIMEOUT: envInt(300, 1, 24 * 3600),
  /** Attempts after the first, on failure or after a restart interrupted it. */
  AGENT_MAX_RETRIES: envInt(1, 0, 10),
  /** LLM turns per attempt. */
  AGENT_MAX_TURNS: envInt(50, 1, 500),
  /** The doc tools' MCP endpoint (Streamable HTTP); default: this service's own `/mcp`. */
  MCP_TOOLS_URL: envUrl(),
  /** auto: Anthropic with a key or token, else OpenAI-compatible with OPENAI_MODEL, else the offline extractor. */
  EXTRACTOR: envEnum(['auto', 'anthropic', 'openai', 'local'] as const, 'auto'),
  ANTHROPIC_API_KEY: envString(),
  ANTHROPIC_AUTH_TOKEN: envString(),
  ANTHROPIC_BASE_URL: envUrl(),
  ANTHROPIC_MODEL: envString(),
  ANTHROPIC_MODEL_TIER: envEnum(['haiku', 'sonnet', 'opus'] as const, 'sonnet'),
  ANTHROPIC_DEFAULT_HAIKU_MODEL: envString(),
  ANTHROPIC_DEFAULT_SONNET_MODEL: envString(),
  ANTHROPIC_DEFAULT_OPUS_MODEL: envString(),
  /** Per LLM request. */
  API_TIMEOUT_MS: envInt(600_000, 1),
  LLM_MAX_RETRIES: envInt(4, 0, 10),
  OPENAI_BASE_URL: envUrl(),
  OPENAI_API_KEY: envString(),
  OPENAI_MODEL: envString(),
});

export type ExtractionConfig = z.infer<typeof ExtractionEnvSchema>;

export const loadConfig = (env: Record<string, string | undefined>): ExtractionConfig =>
  parseEnv(ExtractionEnvSchema, env);

export const restApiKey = (config: ExtractionConfig): string | undefined =>
  config.EXTRACTION_API_KEY ?? config.MCP_API_KEY;

/** The LLM settings the extraction lib reads (a view of the config; `LlmSettings` names each variable). */
export const llmSettings = (config: ExtractionConfig): LlmSettings => config;
