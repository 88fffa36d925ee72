import { docToolsMcpService, type DocTools } from '@lectern/doc-tools';
import { mountMcp } from '@lectern/transport';
import type { FastifyInstance } from 'fastify';
import type { ExtractionConfig } from './config.js';

/**
 * Spec 003's `mcp-tools` role served by this service: the four document tools at `/mcp` (Streamable HTTP) and
 * `/sse`, behind the app's bearer auth and the MCP Host/Origin guard. The agent reaches them here through
 * `MCP_TOOLS_URL` (default: this `/mcp`), and so can any outside agent.
 */
export const mountDocTools = (app: FastifyInstance, config: ExtractionConfig, tools: DocTools | undefined): void => {
  const service = docToolsMcpService(tools);
  mountMcp(app, {
    ...service,
    sessionMode: config.MCP_HTTP_SESSIONS,
    originPolicy: { allowedHosts: config.MCP_ALLOWED_HOSTS, allowedOrigins: config.MCP_ALLOWED_ORIGINS },
  });
};
