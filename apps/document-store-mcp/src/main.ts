// SPDX-License-Identifier: AGPL-3.0-or-later
import { startupAuthProblems } from '@lectern/auth';
import { createLogger, ConfigError } from '@lectern/runtime';
import { conversionQueue } from '@lectern/contracts';
import { announceReady, httpShutdownStep, installShutdown, registerQueueAdminRoutes } from '@lectern/transport';
import { buildApp, buildScirAgApp } from './app.js';
import { composeDocumentStore } from './compose.js';
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
  const logger = createLogger('document-store-mcp', config.LOG_LEVEL);
  const { platform, documentStore } = composeDocumentStore(config, logger);
  // Recovery at start (half-written documents: removed when this process owns the store, else reported).
  await documentStore.recover();
  const dependencies = platform.dependencyChecks();
  const app = buildApp({ config, logger, documentStore: documentStore.deps, dependencies });
  // the embedding models loaded so far, as `lectern_embedding_model_info` on /metrics (the console's System page)
  app.metrics.trackEmbeddingModels(() => platform.embeddingModels());
  // the admin queue API (issue 29): the conversion queue its ingests use (its own when embedded, the shared one in Redis)
  registerQueueAdminRoutes(app, {
    service: 'document-store-mcp',
    mode: platform.mode,
    queues: [platform.queue(conversionQueue)],
  });
  // spec 002's own listener, only when SCIRAG_PORT is set
  const scirag =
    config.SCIRAG_PORT === undefined
      ? undefined
      : buildScirAgApp({ config, logger, documentStore: documentStore.deps, dependencies });
  const http = [httpShutdownStep(app), ...(scirag ? [{ ...httpShutdownStep(scirag), name: 'http-scirag' }] : [])];
  // Order: HTTP and its open streams first, then the platform's workers, queues, Redis, engine, embedders, store.
  installShutdown({ log: logger, steps: [...http, ...platform.shutdownSteps()] });
  const facts = {
    host: config.HOST,
    auth: Boolean(config.MCP_API_KEY) || config.AUTH_MODE === 'oauth',
    details: documentStore.details,
  };
  await app.listen({ port: config.DOCUMENT_STORE_PORT, host: config.HOST });
  if (scirag) {
    await scirag.listen({ port: config.SCIRAG_PORT, host: config.HOST });
    announceReady(scirag, logger, { ...facts, service: 'scirag (spec 002)', transports: 'MCP /sse + /mcp' });
  }
  announceReady(app, logger, {
    ...facts,
    service: 'document-store-mcp',
    transports: `MCP /mcp (${config.MCP_HTTP_SESSIONS}) + /sse, REST POST /api/documents, OpenAPI /docs`,
  });
};

start().catch((error: unknown) => {
  process.stderr.write(
    `document-store-mcp failed to start: ${error instanceof ConfigError ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
