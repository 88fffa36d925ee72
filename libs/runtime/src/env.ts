// SPDX-License-Identifier: AGPL-3.0-or-later
import { MAX_TIMER_MS, QUEUE_WORKER_DEFAULTS, type QueueWorkerSettings } from '@lectern/contracts';
import { z } from 'zod';
import { ConfigError } from './config-error.js';

export { ConfigError };

/** Empty strings count as unset, so `FOO=` in a compose file means "use the default". */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const envString = () => z.preprocess(blankToUndefined, z.string().optional());

export const envBool = (fallback: boolean) =>
  z.preprocess(
    (v) => {
      const s = blankToUndefined(v);
      if (s === undefined) return fallback;
      if (typeof s !== 'string') return s;
      const lower = s.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(lower)) return true;
      if (['0', 'false', 'no', 'off'].includes(lower)) return false;
      return s;
    },
    z.boolean({ error: 'expected true/false (also 1/0, yes/no, on/off)' }),
  );

export const envInt = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => blankToUndefined(v) ?? fallback, z.coerce.number().int().min(min).max(max));

export const envNumber = (fallback: number, min = -Infinity, max = Infinity) =>
  z.preprocess((v) => blankToUndefined(v) ?? fallback, z.coerce.number().min(min).max(max));

export const envPort = (fallback: number) => envInt(fallback, 0, 65_535);

export const envEnum = <T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.preprocess((v) => blankToUndefined(v) ?? fallback, z.enum(values));

/** A comma-separated list (empty entries dropped). */
export const envList = (fallback: string[] = []) =>
  z.preprocess((v) => {
    const s = blankToUndefined(v);
    return typeof s === 'string'
      ? s
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean)
      : fallback;
  }, z.array(z.string()));

export const envUrl = () => z.preprocess(blankToUndefined, z.url().optional());

/**
 * Parse the environment with a zod object whose keys are the variable names. Once per process, so without zod's
 * compiled fast path (compiling it costs more than one parse: ~1 ms of a one-shot command's start-up).
 */
export const parseEnv = <S extends z.ZodObject>(schema: S, env: Record<string, string | undefined>): z.infer<S> => {
  const result = schema.safeParse(env, { jitless: true });
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(environment)';
      return `${name}: ${issue.message}`;
    }),
  );
};

/** Variables every service reads. */
export const commonEnvShape = {
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default('./data')),
  LOG_LEVEL: envEnum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const, 'info'),
  /** Listen address: loopback by default; containers set 0.0.0.0 (and should set MCP_API_KEY). */
  HOST: z.preprocess(blankToUndefined, z.string().default('127.0.0.1')),
  MCP_API_KEY: envString(),
  /** A bearer token that opens `GET /metrics` only (Prometheus), so the scrape job holds no full key. */
  METRICS_TOKEN: envString(),
  /**
   * How requests authenticate: `key` (a bearer key, `MCP_API_KEY` or the service's own), `oauth` (OAuth 2.1 access
   * tokens: the service is a resource server, issue 30), `none`. Unset: `key` when a key is set, else `none`.
   */
  AUTH_MODE: z.preprocess(blankToUndefined, z.enum(['key', 'oauth', 'none']).optional()),
  /** `AUTH_MODE=oauth`: the authorization server (the tokens' `iss`; its metadata names the JWKS). */
  OAUTH_ISSUER: envUrl(),
  /** `AUTH_MODE=oauth`: this service's resource URI (RFC 8707; the tokens' `aud`), e.g. `https://docs.example.com`. */
  OAUTH_RESOURCE: envUrl(),
  /** The issuer's JWKS, when its metadata does not say (default: `jwks_uri` of the issuer's metadata). */
  OAUTH_JWKS_URL: envUrl(),
  /** Clock skew allowed on `exp`/`nbf`/`iat`, seconds. */
  OAUTH_CLOCK_SKEW_S: envInt(60, 0, 600),
  /** Opaque (non-JWT) tokens: RFC 7662 introspection endpoint (default: the issuer metadata's) and its client. */
  OAUTH_INTROSPECTION_URL: envUrl(),
  OAUTH_INTROSPECTION_CLIENT_ID: envString(),
  OAUTH_INTROSPECTION_CLIENT_SECRET: envString(),
  /** How long an introspection answer is reused, seconds (never past the token's `exp`; 0: not cached). */
  OAUTH_INTROSPECTION_CACHE_S: envInt(30, 0, 300),
  /** `true`: listening beyond loopback (HOST) without any credential is intended; otherwise the service refuses to start. */
  LECTERN_ALLOW_NO_AUTH: envBool(false),
  /** Which mupdf reads PDFs: the native addon over Debian's libmupdf when built (`auto`), or the WASM build. */
  PDF_ENGINE: envEnum(['auto', 'native', 'wasm'] as const, 'auto'),
  /**
   * Which tesseract reads OCR pages: Debian's `tesseract` program when it is on PATH with the eng data (`auto`), else
   * tesseract.js (WASM, in worker threads); `native` (a service then refuses to start without the program) or `wasm`.
   */
  OCR_ENGINE: envEnum(['auto', 'native', 'wasm'] as const, 'auto'),
};

/**
 * How a process's queue workers hold their jobs (distributed mode; every queue, every app that works jobs): read
 * once here, handed to the platform (`createPlatform({ queue: queueWorkerSettings(config) })`). Meanings and
 * defaults: `QueueWorkerSettings` in libs/contracts/src/queues/job.schema.ts.
 */
export const queueEnvShape = {
  /** A running job's lock; a worker silent this long (killed, blocked) has stalled and its job is re-queued. */
  QUEUE_LOCK_MS: envInt(QUEUE_WORKER_DEFAULTS.lockMs, 500, MAX_TIMER_MS),
  /** Stalls a job survives before it fails with the code `stalled`. */
  QUEUE_STALL_LIMIT: envInt(QUEUE_WORKER_DEFAULTS.stallLimit, 0, 100),
  /** On shutdown, how long running jobs may take before they are aborted and put back in the queue. */
  QUEUE_SHUTDOWN_GRACE_MS: envInt(QUEUE_WORKER_DEFAULTS.shutdownGraceMs, 0, MAX_TIMER_MS),
};

export const queueWorkerSettings = (config: {
  QUEUE_LOCK_MS: number;
  QUEUE_STALL_LIMIT: number;
  QUEUE_SHUTDOWN_GRACE_MS: number;
}): QueueWorkerSettings => ({
  lockMs: config.QUEUE_LOCK_MS,
  stallLimit: config.QUEUE_STALL_LIMIT,
  shutdownGraceMs: config.QUEUE_SHUTDOWN_GRACE_MS,
});

/** DNS-rebinding protection of the MCP endpoints (empty: loopback names on the listen port; no Origin always passes). */
export const mcpOriginEnvShape = {
  /** Host header values the MCP endpoints accept: `name` (any port) or `name:port`; `*` accepts any. */
  MCP_ALLOWED_HOSTS: envList([]),
  /** Origin header values the MCP endpoints accept (`scheme://name[:port]`); `*` accepts any. */
  MCP_ALLOWED_ORIGINS: envList([]),
};
