import type { PolicyKbDeps as UseCaseDeps } from '@lectern/policy-kb';
import { policyKbMcpService } from '@lectern/platform';
import { createHttpApp, mountMcp, type ToolRegistration } from '@lectern/transport';
import type { Logger } from '@lectern/runtime';
import type { FastifyInstance } from 'fastify';
import type { PolicyKbConfig } from './config.js';

export interface PolicyKbDeps {
  config: PolicyKbConfig;
  logger: Logger;
  /** The use cases' adapters (from the platform, see main.ts); without them every tool answers `not_implemented`. */
  policyKb?: UseCaseDeps;
  tools?: ToolRegistration[];
}

/** Compose policy-kb-mcp without listening (the same server `lectern mcp policies` serves over stdio). */
export const buildApp = (deps: PolicyKbDeps): FastifyInstance => {
  const { config } = deps;
  const service = policyKbMcpService(deps.policyKb);
  const app = createHttpApp({ service: service.name, logger: deps.logger, apiKey: config.MCP_API_KEY, openapi: { version: service.version } });
  mountMcp(app, {
    ...service,
    tools: deps.tools ?? service.tools,
    sessionMode: config.MCP_HTTP_SESSIONS,
    originPolicy: { allowedHosts: config.MCP_ALLOWED_HOSTS, allowedOrigins: config.MCP_ALLOWED_ORIGINS },
  });
  return app;
};
