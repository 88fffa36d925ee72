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
  parseEnv,
} from './env.js';
export { createLogger } from './logger.js';
export type { Logger } from 'pino';
export { LECTERN_VERSION } from './version.js';
export { raceAbort } from './race-abort.js';
