// SPDX-License-Identifier: AGPL-3.0-or-later
import { docToolsEnvShape } from '@lectern/doc-tools';
import { extractionEnvShape, type LlmSettings } from '@lectern/extraction';
import {
  commonEnvShape,
  envEnum,
  envInt,
  envPort,
  envString,
  mcpOriginEnvShape,
  parseEnv,
  queueEnvShape,
} from '@lectern/runtime';
import { blobEnvShape } from '@lectern/platform';
import { z } from 'zod';

/**
 * Environment of extraction-api (spec 003's service on :8000; section 14's variables): the doc tools' and the
 * extraction's variables (their libs' shapes), and this service's port, key and upload limit.
 */
export const ExtractionEnvSchema = z.object({
  ...commonEnvShape,
  ...mcpOriginEnvShape,
  ...docToolsEnvShape,
  MCP_HTTP_SESSIONS: envEnum(['stateless', 'stateful'] as const, 'stateless'),
  /** How this process's queue workers (extraction tasks, conversion when embedded) hold their jobs. */
  ...queueEnvShape,
  /** Distributed mode: task uploads and conversion files in the blob store (BLOB_TTL_S, BLOB_MAX_BYTES, ...). */
  ...blobEnvShape,
  EXTRACTION_API_PORT: envPort(8000),
  /** Bearer token of this REST API; default: MCP_API_KEY. Unset/empty → no auth. */
  EXTRACTION_API_KEY: envString(),
  MAX_UPLOAD_BYTES: envInt(200 * 1024 * 1024, 1),
  /** Seconds an upload may send nothing before it is answered 408 and dropped (the whole upload: 20 times this). */
  UPLOAD_IDLE_TIMEOUT_S: envInt(30, 1),
  ...extractionEnvShape,
});

export type ExtractionConfig = z.infer<typeof ExtractionEnvSchema>;

export const loadConfig = (env: Record<string, string | undefined>): ExtractionConfig =>
  parseEnv(ExtractionEnvSchema, env);

export const restApiKey = (config: ExtractionConfig): string | undefined =>
  config.EXTRACTION_API_KEY ?? config.MCP_API_KEY;

/** The LLM settings the extraction lib reads (a view of the config; `LlmSettings` names each variable). */
export const llmSettings = (config: ExtractionConfig): LlmSettings => config;
