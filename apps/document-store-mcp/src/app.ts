import { createHttpApp, mountMcp, type ToolRegistration } from '@lectern/transport';
import { LECTERN_VERSION, type Logger } from '@lectern/runtime';
import type { FastifyInstance } from 'fastify';
import type { DocumentStoreDeps as UseCaseDeps } from '@lectern/document-store';
import type { DocumentStoreConfig } from './config.js';
import { documentStoreToolRegistrations } from './tools.js';

export interface DocumentStoreDeps {
  config: DocumentStoreConfig;
  logger: Logger;
  /** The use cases' adapters (see compose.ts); without them every tool answers `not_implemented`. */
  documentStore?: UseCaseDeps;
  tools?: ToolRegistration[];
}

/** Compose document-store-mcp without listening (tests use `inject()` or listen on port 0). */
export const buildApp = (deps: DocumentStoreDeps): FastifyInstance => {
  const app = createHttpApp({ service: 'document-store-mcp', logger: deps.logger, apiKey: deps.config.MCP_API_KEY });
  mountMcp(app, {
    name: 'document-store-mcp',
    version: LECTERN_VERSION,
    instructions:
      'Lectern document store: ingest planning documents (PDF, images), search them with citations ' +
      '(page numbers), read them, and store/query citable chunks in per-project collections.',
    tools: deps.tools ?? documentStoreToolRegistrations(deps.documentStore),
    sessionMode: deps.config.MCP_HTTP_SESSIONS,
  });
  return app;
};
