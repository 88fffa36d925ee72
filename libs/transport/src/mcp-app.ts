// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { higherScope, LecternScopes, requireScope, toolScope, type LecternScope } from '@lectern/auth';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createMcpServerFactory } from './mcp-server-factory.js';
import { registerLegacySse } from './legacy-sse.route.js';
import { registerStreamableHttp, type McpSessionMode } from './streamable-http.route.js';
import type { McpCompletions, McpPrompt } from './mcp-prompts.js';
import type { McpResourceProvider } from './mcp-resources.js';
import type { ToolDeadlines } from './tool-deadline.js';
import type { ToolRegistration } from './tool-registration.js';
import { SOURCE_PATH, sourceLink } from './source.route.js';

export interface MountMcpOptions {
  name: string;
  version: string;
  instructions?: string;
  tools: readonly ToolRegistration[];
  /** Each tool's deadline (ms); see `createMcpServerFactory`. */
  deadlines?: ToolDeadlines;
  sessionMode?: McpSessionMode;
  /** MCP resources (issue 30); they need the read scope in OAuth mode, as every request but a tool call does. */
  resources?: McpResourceProvider | undefined;
  /** MCP prompts and argument completions (issue 30); the read scope in OAuth mode, like resources. */
  prompts?: readonly McpPrompt[] | undefined;
  completions?: McpCompletions | undefined;
}

export { MCP_PATHS } from './origin-guard.js';

/**
 * The scope a JSON-RPC POST needs (OAuth mode): the highest of its messages' — a `tools/call` its tool's
 * (`toolScope`: read-only tools read, the others write, the policy KB's changes admin), anything else read.
 */
export const mcpMessageScope = (body: unknown, scopes: ReadonlyMap<string, LecternScope>): LecternScope => {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  let needed: LecternScope = LecternScopes.read;
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    if (method !== 'tools/call' || typeof params?.name !== 'string') continue;
    needed = higherScope(needed, scopes.get(params.name) ?? LecternScopes.read);
  }
  return needed;
};

const sourceNote = (): string => {
  const link = sourceLink();
  return `Source code (AGPL-3.0-or-later): ${link === SOURCE_PATH ? 'GET /source on this server (a .tar.gz)' : link}`;
};

/**
 * Mount one MCP server on both transports of specs 000/001 FR-009: Streamable HTTP at `/mcp`
 * and the legacy SSE transport at `GET /sse` + `POST /messages/`, each behind the Host/Origin guard that
 * `createHttpApp` installs (its `originPolicy`; origin-guard.ts). Open streams are closed in
 * `preClose`, before the HTTP server stops, so shutdown never waits on a client. Returns the server factory both
 * transports use, so the app can reach the same server in-process (the SDK's in-memory transport).
 */
export const mountMcp = (app: FastifyInstance, options: MountMcpOptions): (() => Server) => {
  const makeServer = createMcpServerFactory({
    name: options.name,
    version: options.version,
    // AGPL-3.0 §13: the MCP client's user is told where the source is too (source.route.ts)
    instructions: [options.instructions, sourceNote()].filter(Boolean).join('\n\n'),
    tools: options.tools,
    log: app.log as unknown as Logger,
    metrics: app.metrics,
    ...(options.deadlines ? { deadlines: options.deadlines } : {}),
    inflight: app.inflight,
    ...(options.resources ? { resources: options.resources } : {}),
    ...(options.prompts ? { prompts: options.prompts } : {}),
    ...(options.completions ? { completions: options.completions } : {}),
  });
  // OAuth mode: a tool call needs its tool's scope (the request's principal was set by the auth hook).
  const scopes = new Map(options.tools.map((t) => [t.definition.name, toolScope(t.definition)] as const));
  app.addHook('preHandler', async (request, reply) => {
    if (!request.principal || request.method !== 'POST') return;
    const route = request.routeOptions.url;
    if (route !== '/mcp' && route !== '/messages/') return;
    if (!requireScope(request, reply, mcpMessageScope(request.body, scopes))) return reply;
  });
  const streamable = registerStreamableHttp(app, makeServer, options.sessionMode ?? 'stateless');
  const sse = registerLegacySse(app, makeServer);
  app.addHook('preClose', async () => {
    await Promise.allSettled([streamable.closeAll(), sse.closeAll()]);
  });
  return makeServer;
};
