import { recoverInterruptedRevisions } from '@lectern/policy-kb';
import { createPlatform, policyIngestService, policyKbDeps, policyKbSettings } from '@lectern/platform';
import { createLogger, ConfigError, queueWorkerSettings } from '@lectern/runtime';
import { announceReady, httpShutdownStep, installShutdown } from '@lectern/transport';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

const start = async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('policy-kb-mcp', config.LOG_LEVEL);
  const platform = createPlatform({
    dataDir: config.DATA_DIR,
    log: logger,
    redisUrl: config.REDIS_URL,
    queue: queueWorkerSettings(config),
  });
  const policyKb = policyKbDeps(platform, policyKbSettings(config));
  const { queue: ingestQueue } = policyIngestService(platform, policyKb);
  // Recovery at start: revisions a killed process left `processing` with no job to finish them are queued again
  // (their upload is kept) or failed with the reason. A failure here is logged; the service still starts.
  await recoverInterruptedRevisions(policyKb, { jobs: ingestQueue, dataDir: platform.dataDir }).catch((err: unknown) =>
    logger.error(
      { err },
      'policy KB recovery at start failed; revisions stuck in processing stay so until the next start',
    ),
  );
  const app = buildApp({ config, logger, policyKb, ingestQueue });
  // Order: HTTP and its open streams first, then the platform's workers, queues, Redis, engine, embedders, stores.
  installShutdown({ log: logger, steps: [httpShutdownStep(app), ...platform.shutdownSteps()] });
  await app.listen({ port: config.POLICY_KB_PORT, host: config.HOST });
  announceReady(app, logger, {
    service: 'policy-kb-mcp',
    host: config.HOST,
    auth: Boolean(config.MCP_API_KEY),
    transports: `MCP /mcp (${config.MCP_HTTP_SESSIONS}) + /sse, admin REST /api, OpenAPI /api/docs`,
    details: {
      registry: config.REDIS_URL ? 'redis' : 'sqlite',
      queue: config.REDIS_URL ? 'bullmq (redis)' : 'in-process',
      store: config.QDRANT_URL ? `qdrant ${config.QDRANT_URL}` : 'sqlite',
      collection: policyKb.collection,
      embedding: config.EMBEDDING_MODEL,
    },
  });
};

start().catch((error: unknown) => {
  process.stderr.write(
    `policy-kb-mcp failed to start: ${error instanceof ConfigError ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
