import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ServiceMetrics } from './metrics.js';
import { runTool } from './run-tool.js';
import type { ToolContext, ToolRegistration } from './tool-registration.js';

export interface McpServerOptions {
  name: string;
  version: string;
  instructions?: string;
  tools: readonly ToolRegistration[];
  log: Logger;
  metrics?: ServiceMetrics;
}

type JsonSchemaObject = { type: 'object'; [key: string]: unknown };

const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchemaObject => {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return { ...json, type: 'object' };
};

/** `tools/list` entries, generated once from the contracts (input, output, annotations). */
export const describeTools = (tools: readonly ToolRegistration[]): Tool[] =>
  tools.map(({ definition }) => ({
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: toJsonSchema(definition.input, 'input'),
    outputSchema: toJsonSchema(definition.output, 'output'),
    annotations: { title: definition.title, ...definition.annotations },
  }));

/**
 * Build an MCP server exposing the given tools. The low-level `Server` is used (rather than
 * `McpServer.registerTool`) so that argument validation errors come back in the specs' error shape
 * (`invalid_arguments`) instead of the SDK's generic text, and so the listed schemas are exactly the
 * contracts' JSON Schemas. One factory call per transport connection (stateless HTTP: per request).
 */
export const createMcpServerFactory = (options: McpServerOptions): (() => Server) => {
  const listed = describeTools(options.tools);
  const byName = new Map(options.tools.map((t) => [t.definition.name, t]));
  const names = new Set(byName.keys());
  if (names.size !== options.tools.length) throw new Error(`duplicate tool names in ${options.name}`);

  return () => {
    const server = new Server(
      { name: options.name, version: options.version },
      { capabilities: { tools: { listChanged: false }, logging: {} }, instructions: options.instructions },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const registration = byName.get(request.params.name);
      if (!registration) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      const progressToken = request.params._meta?.progressToken;
      const log = options.log.child({ tool: request.params.name, request_id: extra.requestId });
      const ctx: ToolContext = {
        log,
        signal: extra.signal,
        progress: async (progress, total, message) => {
          if (progressToken === undefined) return;
          try {
            await extra.sendNotification({
              method: 'notifications/progress',
              params: {
                progressToken,
                progress,
                ...(total === undefined ? {} : { total }),
                ...(message ? { message } : {}),
              },
            });
          } catch (error) {
            log.warn({ err: error }, 'progress notification not delivered');
          }
        },
      };
      return runTool(registration.definition, registration.handler, request.params.arguments, ctx, options.metrics);
    });
    return server;
  };
};
