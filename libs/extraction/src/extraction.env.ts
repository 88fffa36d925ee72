// SPDX-License-Identifier: AGPL-3.0-or-later
import { envEnum, envInt, envString, envUrl } from '@lectern/runtime';
import type { z } from 'zod';

/**
 * Spec 003's extraction variables (section 14, plus the OpenAI-compatible ones): the task store, how tasks run
 * (concurrency, timeout, retries, turns), where the doc tools are, and the LLM. extraction-api's config adds its
 * port, key and upload limit, and the doc tools' variables (`docToolsEnvShape`).
 */
export const extractionEnvShape = {
  /** The task store (default `<DATA_DIR>/tasks.db`). */
  DB_PATH: envString(),
  MAX_CONCURRENT_TASKS: envInt(1, 1, 64),
  /** Seconds one extraction attempt may take. */
  AGENT_TIMEOUT: envInt(300, 1, 24 * 3600),
  /** Attempts after the first, on failure or after a restart interrupted it. */
  AGENT_MAX_RETRIES: envInt(1, 0, 10),
  /** LLM turns per attempt. */
  AGENT_MAX_TURNS: envInt(50, 1, 500),
  /** The doc tools' MCP endpoint (Streamable HTTP); default: this service's own doc tools, in-process. */
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
};

export type ExtractionEnv = z.infer<z.ZodObject<typeof extractionEnvShape>>;
