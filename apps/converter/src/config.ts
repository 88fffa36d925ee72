// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  commonEnvShape,
  mcpOriginEnvShape,
  queueEnvShape,
  envBool,
  envInt,
  envNumber,
  envPort,
  envString,
  envUrl,
  parseEnv,
} from '@lectern/runtime';
import { MAX_TIMER_MS } from '@lectern/contracts';
import { blobEnvShape } from '@lectern/platform';
import { OCR_THRESHOLDS } from '@lectern/conversion';
import { z } from 'zod';

/** Environment of the converter service (spec 003's conversion service on :8002). */
export const ConverterEnvSchema = z
  .object({
    ...commonEnvShape,
    /** Host/Origin checks of its REST API (state-changing routes; every route without a key) and CORS origins. */
    ...mcpOriginEnvShape,
    CONVERTER_PORT: envPort(8002),
    /** Bearer token of this REST API; default: MCP_API_KEY. Unset/empty → no auth. */
    CONVERTER_API_KEY: envString(),
    ENABLE_OCR: envBool(true),
    IMAGE_RATIO_THRESHOLD: envNumber(OCR_THRESHOLDS.imageRatio, 0, 1),
    MAX_DOCUMENT_BYTES: envInt(200 * 1024 * 1024, 1),
    MAX_PAGES: envInt(2000, 1, 1_000_000),
    /** Per-document conversion timeout. */
    CONVERSION_TIMEOUT_MS: envInt(10 * 60 * 1000, 1000, MAX_TIMER_MS),
    /** Conversion jobs this process runs at once; 0 = no worker here (API-only replica, needs REDIS_URL). */
    CONVERTER_CONCURRENCY: envInt(1, 0, 64),
    /** `POST /convert` requests that may wait for one of the CONVERTER_CONCURRENCY slots; more answer 503. */
    CONVERT_MAX_WAITING: envInt(4, 0, 1000),
    /** Results with more JSON than this go to DATA_DIR/conversions/ instead of Redis. */
    INLINE_RESULT_MAX_BYTES: envInt(512 * 1024, 0),
    /** Distributed mode: QUEUE_LOCK_MS, QUEUE_STALL_LIMIT, QUEUE_SHUTDOWN_GRACE_MS (how the worker holds its jobs). */
    ...queueEnvShape,
    /** Conversion results (DATA_DIR/conversions) and left-over uploads are deleted after this many seconds. */
    CONVERSION_FILES_TTL_S: envInt(24 * 3600, 60, 365 * 24 * 3600),
    /** Disk quota of DATA_DIR/uploads + DATA_DIR/conversions; uploads beyond it answer 507. 0 = no quota. */
    CONVERSION_STORAGE_QUOTA_BYTES: envInt(10 * 1024 ** 3, 0),
    REDIS_URL: envUrl(),
    /** The blob store (distributed mode: uploads and large results in Redis): BLOB_TTL_S, BLOB_MAX_BYTES, ... */
    ...blobEnvShape,
  })
  .refine((env) => env.CONVERTER_CONCURRENCY > 0 || env.REDIS_URL !== undefined, {
    path: ['CONVERTER_CONCURRENCY'],
    message: '0 (no conversion worker in this process) needs REDIS_URL, or tasks would never run',
  });

export type ConverterConfig = z.infer<typeof ConverterEnvSchema>;

export const loadConfig = (env: Record<string, string | undefined>): ConverterConfig =>
  parseEnv(ConverterEnvSchema, env);

export const restApiKey = (config: ConverterConfig): string | undefined =>
  config.CONVERTER_API_KEY ?? config.MCP_API_KEY;

/** `POST /convert` admission: CONVERTER_CONCURRENCY conversions at once (at least one), a few waiting. */
export const convertAdmission = (config: ConverterConfig) => ({
  concurrency: Math.max(1, config.CONVERTER_CONCURRENCY),
  maxWaiting: config.CONVERT_MAX_WAITING,
  retryAfterSeconds: 5,
});

/** The worker's conversion settings: its limits, which a job's options may lower but never raise. */
export const conversionDefaults = (config: ConverterConfig) => ({
  enableOcr: config.ENABLE_OCR,
  imageRatioThreshold: config.IMAGE_RATIO_THRESHOLD,
  maxBytes: config.MAX_DOCUMENT_BYTES,
  maxPages: config.MAX_PAGES,
  timeoutMs: config.CONVERSION_TIMEOUT_MS,
});
