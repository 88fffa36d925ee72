import { configureConversionPool } from '@lectern/conversion';
import { createLogger, ConfigError } from '@lectern/runtime';
import { httpShutdownStep, installShutdown } from '@lectern/transport';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { createConverterServices } from './converter-services.js';

const start = async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('converter', config.LOG_LEVEL);
  await configureConversionPool({ pdfEngine: config.PDF_ENGINE, log: logger });
  const services = createConverterServices(config, logger);
  const app = buildApp({ config, logger, queue: services.queue, convert: services.convert });
  // Ordered: stop taking requests, then the worker (finishes its job), the queue, Redis, the pools.
  installShutdown({ log: logger, steps: [httpShutdownStep(app), ...services.closeSteps] });
  await app.listen({ port: config.CONVERTER_PORT, host: config.HOST });
  logger.info({ queue: config.REDIS_URL ? 'bullmq' : 'in-process', port: config.CONVERTER_PORT }, 'converter ready');
};

start().catch((error: unknown) => {
  process.stderr.write(`converter failed to start: ${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
});
