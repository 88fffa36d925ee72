// SPDX-License-Identifier: AGPL-3.0-or-later
import { oauthSettings } from '@lectern/auth';
import multipart from '@fastify/multipart';
import { EXTRACTION_SCHEMA_LIMITS } from '@lectern/contracts';
import type { DocTools } from '@lectern/doc-tools';
import {
  connectDocTools,
  createLlmProvider,
  ExtractionRunner,
  resolveExtractor,
  type ExtractionTaskQueue,
} from '@lectern/extraction';
import { LECTERN_VERSION, type Logger } from '@lectern/runtime';
import { TaskUploads, type TaskStore } from '@lectern/task-store';
import { createHttpApp, type DependencyCheck } from '@lectern/transport';
import type { FastifyInstance } from 'fastify';
import { resolve } from 'node:path';
import { llmSettings, restApiKey, type ExtractionConfig } from './config.js';
import { mountDocTools } from './mcp.js';
import { registerTaskRoutes } from './tasks.route.js';

export interface ExtractionDeps {
  /** What `/health` reports and `/ready` needs up (`platform.dependencyChecks()`). */
  dependencies?: DependencyCheck[];
  config: ExtractionConfig;
  logger: Logger;
  /** The document tools served at `/mcp` (unset: they answer `not_implemented`). */
  docTools?: DocTools | undefined;
  /** The task store (from the platform); without one the app serves only `/health`, `/metrics` and `/docs`. */
  store?: TaskStore;
  /** The `extraction-task` queue the tasks run on (`extractionModule(platform, config).taskQueue`); required with a store. */
  taskQueue?: ExtractionTaskQueue;
  /** Where task uploads are kept (`extractionModule(...).taskUploads`; default: DATA_DIR alone, embedded). */
  uploads?: TaskUploads;
}

/**
 * Compose extraction-api without listening: the task API over the task store and the extraction runner (which
 * starts, recovering interrupted tasks, once the server listens, and stops when it closes).
 */
export const buildApp = (deps: ExtractionDeps): FastifyInstance => {
  const { config } = deps;
  const app = createHttpApp({
    service: 'extraction-api',
    logger: deps.logger,
    apiKey: restApiKey(config),
    metricsToken: config.METRICS_TOKEN,
    originPolicy: { allowedHosts: config.MCP_ALLOWED_HOSTS, allowedOrigins: config.MCP_ALLOWED_ORIGINS },
    oauth: oauthSettings(config),
    ...(deps.dependencies ? { dependencies: deps.dependencies } : {}),
    openapi: {
      version: LECTERN_VERSION,
      description: 'Schema-driven extraction with verified evidence (spec 003): tasks, and the doc tools at /mcp.',
    },
  });
  const localDocTools = mountDocTools(app, config, deps.docTools, deps.store);
  if (!deps.store) return app;
  const store = deps.store;
  if (!deps.taskQueue) throw new Error('extraction-api: a task store needs its task queue');
  const settings = llmSettings(config);
  const extractor = resolveExtractor(settings);
  const uploads = deps.uploads ?? new TaskUploads({ dataDir: resolve(config.DATA_DIR) });
  const runner = new ExtractionRunner({
    store,
    uploads,
    queue: deps.taskQueue,
    extractor,
    provider: extractor === 'local' ? undefined : createLlmProvider(settings, extractor, deps.logger),
    // MCP_TOOLS_URL unset: the server of this app's own /mcp, in-process (in-memory transport); set: that server.
    connectTools: () =>
      connectDocTools(
        config.MCP_TOOLS_URL ? { url: config.MCP_TOOLS_URL, token: restApiKey(config) } : { server: localDocTools },
      ),
    maxConcurrent: config.MAX_CONCURRENT_TASKS,
    timeoutMs: config.AGENT_TIMEOUT * 1000,
    maxRetries: config.AGENT_MAX_RETRIES,
    maxTurns: config.AGENT_MAX_TURNS,
    log: deps.logger,
  });
  // the worker starts (recovering interrupted tasks first) once the server listens, and stops when it closes
  app.addHook('onListen', async () => runner.start());
  app.addHook('preClose', async () => runner.close());
  // Our own byte counter answers `too_large` first; busboy's limit is the backstop one byte later.
  app.register(multipart, {
    limits: {
      fileSize: config.MAX_UPLOAD_BYTES + 1,
      files: 1,
      fields: 4,
      fieldSize: EXTRACTION_SCHEMA_LIMITS.maxBytes + 1,
    },
  });
  app.register(async (scope) =>
    registerTaskRoutes(scope, {
      store,
      runner,
      dataDir: resolve(config.DATA_DIR),
      uploads,
      maxUploadBytes: config.MAX_UPLOAD_BYTES,
      uploadIdleTimeoutMs: config.UPLOAD_IDLE_TIMEOUT_S * 1000,
    }),
  );
  return app;
};
