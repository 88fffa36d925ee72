// SPDX-License-Identifier: AGPL-3.0-or-later
import { startupAuthProblems } from '@lectern/auth';
import { createLogger, ConfigError } from '@lectern/runtime';
import { conversionQueue, extractionTaskQueue } from '@lectern/contracts';
import { announceReady, httpShutdownStep, installShutdown, registerQueueAdminRoutes } from '@lectern/transport';
import { buildApp } from './app.js';
import { composeExtraction, extractionAppDeps } from './compose.js';
import { loadConfig, restApiKey } from './config.js';

const start = async () => {
  const config = loadConfig(process.env);
  // No placeholder or short key; beyond loopback, no running without one unless LECTERN_ALLOW_NO_AUTH=true.
  const authProblems = startupAuthProblems({
    host: config.HOST,
    keys: [
      ['EXTRACTION_API_KEY', config.EXTRACTION_API_KEY],
      ['MCP_API_KEY', config.MCP_API_KEY],
    ],
    allowNoAuth: config.LECTERN_ALLOW_NO_AUTH,
    tokens: [['METRICS_TOKEN', config.METRICS_TOKEN]],
    otherCredential: config.AUTH_MODE === 'oauth',
    authEnv: config,
  });
  if (authProblems.length > 0) throw new ConfigError(authProblems);
  const logger = createLogger('extraction-api', config.LOG_LEVEL);
  const composed = composeExtraction(config, logger);
  const { platform } = composed;
  // Recovery at start (interrupted index builds; tasks are recovered by the runner when it starts).
  await composed.extraction.recover();
  const app = buildApp({
    config,
    logger,
    ...extractionAppDeps(composed),
    dependencies: platform.dependencyChecks(),
  });
  // the embedding models loaded so far, as `lectern_embedding_model_info` on /metrics (the console's System page)
  app.metrics.trackEmbeddingModels(() => platform.embeddingModels());
  // the admin queue API (issue 29): the task queue, and the conversion queue its uploads go through
  registerQueueAdminRoutes(app, {
    service: 'extraction-api',
    mode: platform.mode,
    queues: [platform.queue(extractionTaskQueue), platform.queue(conversionQueue)],
  });
  installShutdown({ log: logger, steps: [httpShutdownStep(app), ...platform.shutdownSteps()] });
  await app.listen({ port: config.EXTRACTION_API_PORT, host: config.HOST });
  announceReady(app, logger, {
    service: 'extraction-api',
    host: config.HOST,
    auth: Boolean(restApiKey(config)) || config.AUTH_MODE === 'oauth',
    transports: `REST /tasks, MCP /mcp (${config.MCP_HTTP_SESSIONS}) + /sse (doc tools), OpenAPI /docs`,
    details: {
      markdown:
        config.MARKITDOWN_URL ?? (config.REDIS_URL ? 'conversion queue (redis)' : 'conversion queue (in-process)'),
      search: config.DOC_SEARCH_MODE,
    },
  });
};

start().catch((error: unknown) => {
  process.stderr.write(
    `extraction-api failed to start: ${error instanceof ConfigError ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
