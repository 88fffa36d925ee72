// SPDX-License-Identifier: AGPL-3.0-or-later
import { oauthSettings } from '@lectern/auth';
import multipart from '@fastify/multipart';
import type { ConversionService } from '@lectern/platform';
import { LECTERN_VERSION, type Logger } from '@lectern/runtime';
import { createAdmission, createHttpApp, type DependencyCheck } from '@lectern/transport';
import type { FastifyInstance } from 'fastify';
import { conversionDefaults, convertAdmission, restApiKey, type ConverterConfig } from './config.js';
import { registerConvertRoute } from './routes/convert.route.js';
import { registerTaskRoutes } from './routes/tasks.route.js';

export interface ConverterDeps {
  /** What `/health` reports and `/ready` needs up (`platform.dependencyChecks()`). */
  dependencies?: DependencyCheck[];
  config: ConverterConfig;
  logger: Logger;
  /** The conversion job path: `/tasks` submits jobs; `POST /convert` runs the engine directly. */
  conversion: Pick<ConversionService, 'submitter' | 'engine'>;
}

/** Compose the converter's HTTP API without listening (tests use `inject` or listen on port 0). */
export const buildApp = (deps: ConverterDeps): FastifyInstance => {
  const { config } = deps;
  const app = createHttpApp({
    service: 'converter',
    logger: deps.logger,
    apiKey: restApiKey(config),
    metricsToken: config.METRICS_TOKEN,
    originPolicy: { allowedHosts: config.MCP_ALLOWED_HOSTS, allowedOrigins: config.MCP_ALLOWED_ORIGINS },
    oauth: oauthSettings(config),
    ...(deps.dependencies ? { dependencies: deps.dependencies } : {}),
    openapi: {
      version: LECTERN_VERSION,
      description: 'Any document to Markdown, a page map and a heading tree (spec 003 conversion service).',
    },
  });
  const limits = {
    dataDir: config.DATA_DIR,
    maxBytes: config.MAX_DOCUMENT_BYTES,
    defaults: conversionDefaults(config),
    ...(config.CONVERSION_STORAGE_QUOTA_BYTES > 0 ? { quotaBytes: config.CONVERSION_STORAGE_QUOTA_BYTES } : {}),
  };
  // Our own byte counter answers `too_large` first; busboy's limit is the backstop one byte later.
  app.register(multipart, {
    limits: { fileSize: config.MAX_DOCUMENT_BYTES + 1, files: 1, fields: 4, fieldSize: 64 * 1024 },
  });
  app.register(async (scope) => {
    registerConvertRoute(scope, {
      ...limits,
      engine: deps.conversion.engine,
      admission: createAdmission(convertAdmission(config)),
    });
    registerTaskRoutes(scope, { ...limits, submitter: deps.conversion.submitter });
  });
  return app;
};
