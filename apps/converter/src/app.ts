import multipart from '@fastify/multipart';
import type { ConversionJobPayload, ConversionJobResult } from '@lectern/contracts';
import type { ConvertDocumentFn, JobQueue } from '@lectern/queue';
import type { Logger } from '@lectern/runtime';
import { createAdmission, createHttpApp } from '@lectern/transport';
import type { FastifyInstance } from 'fastify';
import { conversionDefaults, convertAdmission, restApiKey, type ConverterConfig } from './config.js';
import { registerConvertRoute } from './routes/convert.route.js';
import { registerTaskRoutes } from './routes/tasks.route.js';

export interface ConverterDeps {
  config: ConverterConfig;
  logger: Logger;
  /** The `conversion` queue (BullMQ or in-process); `/tasks` enqueues on it. */
  queue: JobQueue<ConversionJobPayload, ConversionJobResult>;
  /** `convertDocument` from `@lectern/conversion` (what `POST /convert` runs directly). */
  convert: ConvertDocumentFn;
}

/** Compose the converter's HTTP API without listening (tests use `inject` or listen on port 0). */
export const buildApp = (deps: ConverterDeps): FastifyInstance => {
  const { config } = deps;
  const app = createHttpApp({ service: 'converter', logger: deps.logger, apiKey: restApiKey(config) });
  const limits = { dataDir: config.DATA_DIR, maxBytes: config.MAX_DOCUMENT_BYTES, defaults: conversionDefaults(config) };
  // Our own byte counter answers `too_large` first; busboy's limit is the backstop one byte later.
  app.register(multipart, { limits: { fileSize: config.MAX_DOCUMENT_BYTES + 1, files: 1, fields: 4, fieldSize: 64 * 1024 } });
  app.register(async (scope) => {
    registerConvertRoute(scope, { ...limits, convert: deps.convert, admission: createAdmission(convertAdmission(config)) });
    registerTaskRoutes(scope, { ...limits, queue: deps.queue });
  });
  return app;
};
