// SPDX-License-Identifier: AGPL-3.0-or-later
export {
  ConfigError,
  commonEnvShape,
  envBool,
  envEnum,
  envInt,
  envList,
  envNumber,
  envPort,
  envString,
  envUrl,
  mcpOriginEnvShape,
  parseEnv,
  queueEnvShape,
  queueWorkerSettings,
} from './env.js';
export { createLogger } from './logger.js';
export type { Logger } from 'pino';
export { LECTERN_VERSION, sourceUrl } from './version.js';
export { raceAbort } from './race-abort.js';
export { TS_WORKER_BOOTSTRAP, TS_WORKER_ENTRY_KEY, tsWorker } from './ts-worker.js';
export type { TsWorkerOptions } from './ts-worker.js';
export { readFileHandle } from './read-file-handle.js';
export { isSpaceCode } from './white-space.js';
export { backoffDelay, parseRetryAfter, retry } from './retry.js';
export type { BackoffPolicy, RetryOptions } from './retry.js';
