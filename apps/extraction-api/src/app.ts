import type { DocTools } from '@lectern/doc-tools';
import { createHttpApp } from '@lectern/transport';
import type { Logger } from '@lectern/runtime';
import type { FastifyInstance } from 'fastify';
import { restApiKey, type ExtractionConfig } from './config.js';
import { mountDocTools } from './mcp.js';

export interface ExtractionDeps {
  config: ExtractionConfig;
  logger: Logger;
  /** The document tools served at `/mcp` (unset: they answer `not_implemented`). */
  docTools?: DocTools | undefined;
}

/** Compose extraction-api without listening. `POST /tasks` arrives with the extraction issue. */
export const buildApp = (deps: ExtractionDeps): FastifyInstance => {
  const app = createHttpApp({ service: 'extraction-api', logger: deps.logger, apiKey: restApiKey(deps.config) });
  mountDocTools(app, deps.config, deps.docTools);
  return app;
};
