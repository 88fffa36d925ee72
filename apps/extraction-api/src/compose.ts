import { createPlatform, type Platform } from '@lectern/platform';
import type { Logger } from '@lectern/runtime';
import type { FastifyInstance } from 'fastify';
import { join, resolve } from 'node:path';
import { buildApp } from './app.js';
import { composeDocTools } from './compose-doc-tools.js';
import type { ExtractionConfig } from './config.js';

/** extraction-api composed through the platform (what `main.ts` runs, and the tests start in-process). */
export const composeExtraction = (config: ExtractionConfig, logger: Logger): { app: FastifyInstance; platform: Platform } => {
  const platform = createPlatform({ dataDir: config.DATA_DIR, log: logger, redisUrl: config.REDIS_URL });
  // The doc tools index the task uploads (DATA_DIR/uploads/<task_id>/) besides the configured document roots.
  const { docTools } = composeDocTools(config, logger, platform, [join(resolve(config.DATA_DIR), 'uploads')]);
  const app = buildApp({ config, logger, docTools, store: platform.taskStore({ path: config.DB_PATH }) });
  return { app, platform };
};
