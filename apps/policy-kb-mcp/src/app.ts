import { createHttpApp, mountMcp, type ToolRegistration } from '@lectern/transport';
import { LECTERN_VERSION, type Logger } from '@lectern/runtime';
import type { FastifyInstance } from 'fastify';
import type { PolicyKbConfig } from './config.js';
import { policyKbToolRegistrations } from './tools.js';

export interface PolicyKbDeps {
  config: PolicyKbConfig;
  logger: Logger;
  tools?: ToolRegistration[];
}

/** Compose policy-kb-mcp without listening. */
export const buildApp = (deps: PolicyKbDeps): FastifyInstance => {
  const app = createHttpApp({ service: 'policy-kb-mcp', logger: deps.logger, apiKey: deps.config.MCP_API_KEY });
  mountMcp(app, {
    name: 'policy-kb-mcp',
    version: LECTERN_VERSION,
    instructions:
      'Lectern policy knowledge base: search versioned policy documents "as in force on" a date, read sections, ' +
      'list policies and revisions, ingest and remove revisions.',
    tools: deps.tools ?? policyKbToolRegistrations(),
    sessionMode: deps.config.MCP_HTTP_SESSIONS,
  });
  return app;
};
