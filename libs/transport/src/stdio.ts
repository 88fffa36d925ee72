// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from 'pino';
import { createMcpServerFactory } from './mcp-server-factory.js';
import type { McpCompletions, McpPrompt } from './mcp-prompts.js';
import type { McpResourceProvider } from './mcp-resources.js';
import { connectGuarded } from './request-guard.js';
import type { ToolDeadlines } from './tool-deadline.js';
import type { ToolRegistration } from './tool-registration.js';

export interface ServeStdioOptions {
  name: string;
  version: string;
  instructions?: string;
  tools: readonly ToolRegistration[];
  /** MCP resources, as on HTTP. */
  resources?: McpResourceProvider | undefined;
  /** MCP prompts and argument completions, as on HTTP. */
  prompts?: readonly McpPrompt[] | undefined;
  completions?: McpCompletions | undefined;
  /** Each tool's deadline (ms); see `createMcpServerFactory`. */
  deadlines?: ToolDeadlines;
  /** Must not write to `stdout` (the protocol stream): log to stderr. */
  log: Logger;
  stdin?: Readable;
  stdout?: Writable;
}

/**
 * Serve one MCP server over stdio (newline-delimited JSON-RPC on stdin/stdout), the transport desktop clients
 * start a local server with. The same tools, argument checks and error shapes as the HTTP transports. Resolves
 * when the client closes stdin (or the transport closes); the caller then closes its services.
 */
export const serveStdio = async (options: ServeStdioOptions): Promise<void> => {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const server = createMcpServerFactory({
    name: options.name,
    version: options.version,
    ...(options.instructions ? { instructions: options.instructions } : {}),
    tools: options.tools,
    log: options.log,
    ...(options.deadlines ? { deadlines: options.deadlines } : {}),
    ...(options.resources ? { resources: options.resources } : {}),
    ...(options.prompts ? { prompts: options.prompts } : {}),
    ...(options.completions ? { completions: options.completions } : {}),
  })();
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  transport.onerror = (error) => options.log.warn({ err: error }, 'stdio transport error');
  // The SDK's stdio transport does not watch for end of input: a client that exits closes our stdin.
  const onEnd = () => void server.close();
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  await connectGuarded(server, transport);
  options.log.info({ transport: 'stdio', tools: options.tools.length }, `${options.name} ready on stdio`);
  await closed;
  stdin.off('end', onEnd);
  stdin.off('close', onEnd);
};
