// SPDX-License-Identifier: AGPL-3.0-or-later
import { startupAuthProblems } from '@lectern/auth';
import { createLogger, ConfigError } from '@lectern/runtime';
import { conversionQueue } from '@lectern/contracts';
import { announceReady, httpShutdownStep, installShutdown, registerQueueAdminRoutes } from '@lectern/transport';
import { buildApp } from './app.js';
import { composePolicyKb } from './compose.js';
import { loadConfig } from './config.js';

const start = async () => {
  const config = loadConfig(process.env);
  // No placeholder or short key; beyond loopback, no running without one unless LECTERN_ALLOW_NO_AUTH=true.
  const authProblems = startupAuthProblems({
    host: config.HOST,
    keys: [['MCP_API_KEY', config.MCP_API_KEY]],
    allowNoAuth: config.LECTERN_ALLOW_NO_AUTH,
    tokens: [['METRICS_TOKEN', config.METRICS_TOKEN]],
    otherCredential: config.AUTH_MODE === 'oauth',
    authEnv: config,
  });
  if (authProblems.length > 0) throw new ConfigError(authProblems);
  const logger = createLogger('policy-kb-mcp', config.LOG_LEVEL);
  const { platform, policyKb, ingest } = composePolicyKb(config, logger);
  // Recovery at start (revisions left processing: re-queued from their upload, or failed with the reason).
  await policyKb.recover();
  const app = buildApp({
    config,
    logger,
    policyKb: policyKb.deps,
    ingestQueue: ingest.queue,
    dependencies: platform.dependencyChecks(),
  });
  // the embedding models loaded so far, as `lectern_embedding_model_info` on /metrics (the console's System page)
  app.metrics.trackEmbeddingModels(() => platform.embeddingModels());
  // the admin queue API (issue 29): revision ingests, and the conversion queue they go through
  registerQueueAdminRoutes(app, {
    service: 'policy-kb-mcp',
    mode: platform.mode,
    queues: [ingest.queue, platform.queue(conversionQueue)],
  });
  // Order: HTTP and its open streams first, then the platform's workers, queues, Redis, engine, embedders, stores.
  installShutdown({ log: logger, steps: [httpShutdownStep(app), ...platform.shutdownSteps()] });
  await app.listen({ port: config.POLICY_KB_PORT, host: config.HOST });
  announceReady(app, logger, {
    service: 'policy-kb-mcp',
    host: config.HOST,
    auth: Boolean(config.MCP_API_KEY) || config.AUTH_MODE === 'oauth',
    transports: `MCP /mcp (${config.MCP_HTTP_SESSIONS}) + /sse, admin REST /api, OpenAPI /api/docs`,
    details: policyKb.details,
  });
};

start().catch((error: unknown) => {
  process.stderr.write(
    `policy-kb-mcp failed to start: ${error instanceof ConfigError ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
