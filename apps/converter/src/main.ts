// SPDX-License-Identifier: AGPL-3.0-or-later
import { startupAuthProblems } from '@lectern/auth';
import { createLogger, ConfigError } from '@lectern/runtime';
import { announceReady, httpShutdownStep, installShutdown, registerQueueAdminRoutes } from '@lectern/transport';
import { buildApp } from './app.js';
import { loadConfig, restApiKey } from './config.js';
import { composeConverter } from './compose.js';

const start = async () => {
  const config = loadConfig(process.env);
  // No placeholder or short key; beyond loopback, no running without one unless LECTERN_ALLOW_NO_AUTH=true.
  const authProblems = startupAuthProblems({
    host: config.HOST,
    keys: [
      ['CONVERTER_API_KEY', config.CONVERTER_API_KEY],
      ['MCP_API_KEY', config.MCP_API_KEY],
    ],
    allowNoAuth: config.LECTERN_ALLOW_NO_AUTH,
    tokens: [['METRICS_TOKEN', config.METRICS_TOKEN]],
    otherCredential: config.AUTH_MODE === 'oauth',
    authEnv: config,
  });
  if (authProblems.length > 0) throw new ConfigError(authProblems);
  const logger = createLogger('converter', config.LOG_LEVEL);
  const { platform, conversion } = composeConverter(config, logger);
  const app = buildApp({ config, logger, conversion, dependencies: platform.dependencyChecks() });
  // the admin queue API (issue 29): the conversion queue's depth and failed jobs, retry
  registerQueueAdminRoutes(app, { service: 'converter', mode: platform.mode, queues: [conversion.queue] });
  // Ordered: stop taking requests, then the worker (finishes its job), the queue, Redis, the engine.
  installShutdown({ log: logger, steps: [httpShutdownStep(app), ...platform.shutdownSteps()] });
  await app.listen({ port: config.CONVERTER_PORT, host: config.HOST });
  announceReady(app, logger, {
    service: 'converter',
    host: config.HOST,
    auth: Boolean(restApiKey(config)) || config.AUTH_MODE === 'oauth',
    transports: 'REST POST /convert, POST /tasks, OpenAPI /docs',
    details: {
      queue: config.REDIS_URL ? 'bullmq (redis)' : 'in-process',
      workers: String(config.CONVERTER_CONCURRENCY),
    },
  });
};

start().catch((error: unknown) => {
  process.stderr.write(`converter failed to start: ${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
});
