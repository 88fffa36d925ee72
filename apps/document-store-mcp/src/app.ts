// SPDX-License-Identifier: AGPL-3.0-or-later
import { oauthSettings } from '@lectern/auth';
import multipart from '@fastify/multipart';
import {
  documentStoreMcpService,
  sciragMcpService,
  type DocumentStoreDeps as UseCaseDeps,
} from '@lectern/document-store';
import { mcpTimeouts } from '@lectern/platform';
import type { Logger } from '@lectern/runtime';
import { createHttpApp, mountMcp, type ToolRegistration, type DependencyCheck } from '@lectern/transport';
import type { FastifyInstance } from 'fastify';
import type { DocumentStoreConfig } from './config.js';
import { registerDocumentPagesRoute } from './routes/document-pages.route.js';
import { registerUploadDocumentRoute } from './routes/upload-document.route.js';

export interface DocumentStoreDeps {
  /** What `/health` reports and `/ready` needs up (`platform.dependencyChecks()`). */
  dependencies?: DependencyCheck[];
  config: DocumentStoreConfig;
  logger: Logger;
  /** The use cases' adapters (see compose.ts); without them every tool answers `not_implemented`. */
  documentStore?: UseCaseDeps;
  tools?: ToolRegistration[];
}

/** Compose document-store-mcp without listening (tests use `inject()` or listen on port 0). */
export const buildApp = (deps: DocumentStoreDeps): FastifyInstance => {
  const { config } = deps;
  const service = documentStoreMcpService(deps.documentStore, mcpTimeouts(config));
  const app = createHttpApp({
    service: service.name,
    logger: deps.logger,
    apiKey: config.MCP_API_KEY,
    metricsToken: config.METRICS_TOKEN,
    originPolicy: { allowedHosts: config.MCP_ALLOWED_HOSTS, allowedOrigins: config.MCP_ALLOWED_ORIGINS },
    oauth: oauthSettings(config),
    ...(deps.dependencies ? { dependencies: deps.dependencies } : {}),
    openapi: { version: service.version },
  });
  mountMcp(app, {
    ...service,
    tools: deps.tools ?? service.tools,
    sessionMode: config.MCP_HTTP_SESSIONS,
  });
  const store = deps.documentStore;
  if (store) {
    // busboy's limit is the backstop one byte after our own counter (which answers 413 first).
    app.register(multipart, {
      limits: { fileSize: config.MAX_DOCUMENT_BYTES + 1, files: 1, fields: 8, fieldSize: 64 * 1024 },
    });
    app.register(async (scope) => registerUploadDocumentRoute(scope, { ...store, dataDir: config.DATA_DIR }));
    app.register(async (scope) => registerDocumentPagesRoute(scope, store));
  }
  return app;
};

/**
 * The optional spec 002 listener (`SCIRAG_PORT`): only `retrieve_document_chunks`, `store_document_chunks` and
 * `list_collections`, at `GET /sse` + `POST /messages/` (where spec 002's clients connect) and `/mcp`, on the same
 * use cases as the main listener, behind the same bearer auth and Host/Origin guard, with `/health` and `/metrics`.
 * Never listens (main.ts does, when `SCIRAG_PORT` is set).
 */
export const buildScirAgApp = (deps: DocumentStoreDeps): FastifyInstance => {
  const { config } = deps;
  const service = sciragMcpService(deps.documentStore, mcpTimeouts(config));
  const app = createHttpApp({
    service: 'document-store-mcp-scirag',
    logger: deps.logger,
    apiKey: config.MCP_API_KEY,
    metricsToken: config.METRICS_TOKEN,
    originPolicy: { allowedHosts: config.MCP_ALLOWED_HOSTS, allowedOrigins: config.MCP_ALLOWED_ORIGINS },
    oauth: oauthSettings(config),
    ...(deps.dependencies ? { dependencies: deps.dependencies } : {}),
    openapi: { title: 'document-store-mcp (spec 002 listener)', version: service.version },
  });
  mountMcp(app, {
    ...service,
    sessionMode: config.MCP_HTTP_SESSIONS,
  });
  return app;
};
