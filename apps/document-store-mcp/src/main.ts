import { createLogger, ConfigError } from '@lectern/runtime';
import { installShutdown } from '@lectern/transport';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

const start = async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('document-store-mcp', config.LOG_LEVEL);
  const app = buildApp({ config, logger });
  installShutdown({ log: logger, steps: [{ name: 'http', close: () => app.close() }] });
  await app.listen({ port: config.DOCUMENT_STORE_PORT, host: config.HOST });
};

start().catch((error: unknown) => {
  process.stderr.write(`document-store-mcp failed to start: ${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
});
