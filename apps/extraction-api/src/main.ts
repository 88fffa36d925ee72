import { createPlatform } from '@lectern/platform';
import { createLogger, ConfigError } from '@lectern/runtime';
import { announceReady, httpShutdownStep, installShutdown } from '@lectern/transport';
import { buildApp } from './app.js';
import { loadConfig, restApiKey } from './config.js';

const start = async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('extraction-api', config.LOG_LEVEL);
  const platform = createPlatform({ dataDir: config.DATA_DIR, log: logger });
  const app = buildApp({ config, logger, store: platform.taskStore({ path: config.DB_PATH }) });
  installShutdown({ log: logger, steps: [httpShutdownStep(app), ...platform.shutdownSteps()] });
  await app.listen({ port: config.EXTRACTION_API_PORT, host: config.HOST });
  announceReady(app, logger, { service: 'extraction-api', host: config.HOST, auth: Boolean(restApiKey(config)), transports: 'REST /tasks, OpenAPI /docs' });
};

start().catch((error: unknown) => {
  process.stderr.write(`extraction-api failed to start: ${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
});
