import { commonEnvShape, envBool, envInt, envNumber, envPort, envString, envUrl, parseEnv } from '@lectern/runtime';
import { z } from 'zod';

/** Environment of the converter service (spec 003's conversion service on :8002). */
export const ConverterEnvSchema = z.object({
  ...commonEnvShape,
  CONVERTER_PORT: envPort(8002),
  /** Bearer token of this REST API; default: MCP_API_KEY. Unset/empty → no auth. */
  CONVERTER_API_KEY: envString(),
  ENABLE_OCR: envBool(true),
  IMAGE_RATIO_THRESHOLD: envNumber(0.7, 0, 1),
  MAX_DOCUMENT_BYTES: envInt(200 * 1024 * 1024, 1),
  MAX_PAGES: envInt(2000, 1),
  REDIS_URL: envUrl(),
});

export type ConverterConfig = z.infer<typeof ConverterEnvSchema>;

export const loadConfig = (env: Record<string, string | undefined>): ConverterConfig => parseEnv(ConverterEnvSchema, env);

export const restApiKey = (config: ConverterConfig): string | undefined => config.CONVERTER_API_KEY ?? config.MCP_API_KEY;
