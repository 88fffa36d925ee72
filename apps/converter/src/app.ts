import { createHttpApp } from '@lectern/transport';
import type { Logger } from '@lectern/runtime';
import type { FastifyInstance } from 'fastify';
import { restApiKey, type ConverterConfig } from './config.js';

export interface ConverterDeps {
  config: ConverterConfig;
  logger: Logger;
}

/** Compose the converter without listening. `POST /convert` and `/tasks` arrive with the conversion issue. */
export const buildApp = (deps: ConverterDeps): FastifyInstance =>
  createHttpApp({ service: 'converter', logger: deps.logger, apiKey: restApiKey(deps.config) });
