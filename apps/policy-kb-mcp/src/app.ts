// SPDX-License-Identifier: AGPL-3.0-or-later
import { oauthSettings } from '@lectern/auth';
import multipart from '@fastify/multipart';
import type { PolicyIngestJobPayload, PolicyIngestJobResult } from '@lectern/contracts';
import { policyKbMcpService, type PolicyKbDeps as UseCaseDeps } from '@lectern/policy-kb';
import { mcpTimeouts } from '@lectern/platform';
import type { JobQueue } from '@lectern/queue';
import { createHttpApp, mountMcp, type ToolRegistration, type DependencyCheck } from '@lectern/transport';
import type { Logger } from '@lectern/runtime';
import type { FastifyInstance } from 'fastify';
import type { PolicyKbConfig } from './config.js';
import { registerAdminRoutes } from './routes/admin.routes.js';

export interface PolicyKbDeps {
  /** What `/health` reports and `/ready` needs up (`platform.dependencyChecks()`). */
  dependencies?: DependencyCheck[];
  config: PolicyKbConfig;
  logger: Logger;
  /** The use cases' adapters (from the platform, see main.ts); without them every tool answers `not_implemented`. */
  policyKb?: UseCaseDeps;
  /** The `policy-ingest` queue: with it (and `policyKb`) the admin REST API is served under `/api`. */
  ingestQueue?: JobQueue<PolicyIngestJobPayload, PolicyIngestJobResult>;
  tools?: ToolRegistration[];
}

/** The admin API's OpenAPI document and page, under `/api` beside the routes they describe. */
export const ADMIN_DOCS = { json: '/api/openapi.json', page: '/api/docs' } as const;

/** Compose policy-kb-mcp without listening (the same server `lectern mcp policies` serves over stdio). */
export const buildApp = (deps: PolicyKbDeps): FastifyInstance => {
  const { config } = deps;
  const service = policyKbMcpService(deps.policyKb, mcpTimeouts(config));
  const app = createHttpApp({
    service: service.name,
    logger: deps.logger,
    apiKey: config.MCP_API_KEY,
    metricsToken: config.METRICS_TOKEN,
    originPolicy: { allowedHosts: config.MCP_ALLOWED_HOSTS, allowedOrigins: config.MCP_ALLOWED_ORIGINS },
    oauth: oauthSettings(config),
    // the admin API's changes (a policy, its revisions) need lectern:admin; its reads lectern:read
    adminRoute: (method, route) => method !== 'GET' && method !== 'HEAD' && route.startsWith('/api/policies'),
    ...(deps.dependencies ? { dependencies: deps.dependencies } : {}),
    openapi: {
      version: service.version,
      description: 'Policy knowledge base: MCP tools, and the admin REST API under /api.',
      paths: ADMIN_DOCS,
    },
  });
  mountMcp(app, {
    ...service,
    tools: deps.tools ?? service.tools,
    sessionMode: config.MCP_HTTP_SESSIONS,
  });
  const { policyKb, ingestQueue } = deps;
  if (policyKb && ingestQueue) {
    // busboy's limit is the backstop one byte after our own counter (which answers 413 first).
    app.register(multipart, {
      limits: { fileSize: config.MAX_DOCUMENT_BYTES + 1, files: 1, fields: 8, fieldSize: 64 * 1024 },
    });
    app.register(async (scope) =>
      registerAdminRoutes(scope, {
        policyKb,
        ingestQueue,
        dataDir: config.DATA_DIR,
        maxDocumentBytes: config.MAX_DOCUMENT_BYTES,
      }),
    );
  }
  return app;
};
