import { extractionTaskQueue } from '@lectern/contracts';
import type { ExtractionTaskQueue } from '@lectern/extraction';
import type { Platform } from '@lectern/platform';
import type { Logger } from '@lectern/runtime';
import type { FastifyInstance } from 'fastify';
import { join, resolve } from 'node:path';
import { buildApp } from './app.js';
import { composeDocTools } from './compose-doc-tools.js';
import type { ExtractionConfig } from './config.js';

/**
 * The `extraction-task` queue of this service (BullMQ on REDIS_URL, else in-process): `AGENT_MAX_RETRIES` retries,
 * the task store the durable record.
 */
export const extractionTaskQueueOf = (platform: Platform, config: ExtractionConfig): ExtractionTaskQueue =>
  platform.queue(extractionTaskQueue, { retry: { attempts: config.AGENT_MAX_RETRIES + 1 } });

/** extraction-api composed through the platform (what `main.ts` runs, and the tests start in-process). */
export const composeExtraction = (
  config: ExtractionConfig,
  logger: Logger,
): { app: FastifyInstance; platform: Platform } => {
  // The doc tools index the task uploads (DATA_DIR/uploads/<task_id>/): inside their default root (DATA_DIR), and
  // added to DOCUMENT_ROOTS when those are set.
  const roots =
    config.DOCUMENT_ROOTS.length > 0 ? [...config.DOCUMENT_ROOTS, join(resolve(config.DATA_DIR), 'uploads')] : [];
  const { platform, docTools } = composeDocTools({ ...config, DOCUMENT_ROOTS: roots }, logger);
  const app = buildApp({
    config,
    logger,
    docTools,
    store: platform.taskStore({ path: config.DB_PATH }),
    taskQueue: extractionTaskQueueOf(platform, config),
  });
  return { app, platform };
};
