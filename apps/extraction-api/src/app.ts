import { createHttpApp } from '@lectern/transport';
import type { Logger } from '@lectern/runtime';
import type { FastifyInstance } from 'fastify';
import { restApiKey, type ExtractionConfig } from './config.js';

export interface ExtractionDeps {
  config: ExtractionConfig;
  logger: Logger;
}

/** Compose extraction-api without listening. `POST /tasks` arrives with the extraction issue. */
export const buildApp = (deps: ExtractionDeps): FastifyInstance =>
  createHttpApp({ service: 'extraction-api', logger: deps.logger, apiKey: restApiKey(deps.config) });
