import { resolve } from 'node:path';
import { sweepInterruptedIndexBuilds } from '@lectern/doc-tools';
import { docToolsSettings } from '@lectern/platform';
import { createLogger, ConfigError } from '@lectern/runtime';
import { announceReady, httpShutdownStep, installShutdown } from '@lectern/transport';
import { composeExtraction } from './compose.js';
import { loadConfig, restApiKey } from './config.js';

const start = async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('extraction-api', config.LOG_LEVEL);
  const { app, platform } = composeExtraction(config, logger);
  // Recovery at start: temporary files of index builds a killed process left (never served: see doc-index.ts) are
  // removed; when replicas share DATA_DIR (REDIS_URL) only those older than the index timeout. (Tasks left running
  // are re-queued or failed by the extraction runner's `recoverInterrupted` when it starts.)
  await sweepInterruptedIndexBuilds(resolve(platform.dataDir, 'cache'), {
    olderThanMs: config.REDIS_URL ? docToolsSettings(config).indexTimeoutMs : 0,
    log: logger,
  }).catch((err: unknown) => logger.error({ err }, 'index cache recovery at start failed'));
  installShutdown({ log: logger, steps: [httpShutdownStep(app), ...platform.shutdownSteps()] });
  await app.listen({ port: config.EXTRACTION_API_PORT, host: config.HOST });
  announceReady(app, logger, {
    service: 'extraction-api',
    host: config.HOST,
    auth: Boolean(restApiKey(config)),
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
