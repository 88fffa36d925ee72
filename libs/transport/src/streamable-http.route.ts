// SPDX-License-Identifier: AGPL-3.0-or-later
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hijackWithHeaders } from './raw-reply.js';
import type { ToolCallHandler } from './mcp-server-factory.js';
import { connectGuarded } from './request-guard.js';
import { answerToolCallDirectly } from './tool-call-fast-path.js';

export type McpSessionMode = 'stateless' | 'stateful';

const jsonRpcError = (
  reply: FastifyReply,
  status: number,
  message: string,
  extraHeaders: Record<string, string> = {},
  code = -32000,
) => reply.code(status).headers(extraHeaders).send({ jsonrpc: '2.0', error: { code, message }, id: null });

/** JSON-RPC 2.0: an empty batch is an invalid request (the SDK would accept it and answer 202). */
const isEmptyBatch = (request: FastifyRequest): boolean =>
  request.method === 'POST' && Array.isArray(request.body) && request.body.length === 0;
const refuseEmptyBatch = (reply: FastifyReply) =>
  jsonRpcError(reply, 400, 'Invalid Request: empty batch', {}, ErrorCode.InvalidRequest);

/**
 * A stateless POST is answered as one JSON body (the transport specification lets the server choose JSON or an
 * SSE stream) unless a request in it asked for progress (`_meta.progressToken`): those notifications need the
 * stream. The JSON answer costs the server one write instead of an SSE stream's framing and chunks; the tools
 * send no other notification tied to a request.
 */
const answersInJson = (body: unknown): boolean =>
  (Array.isArray(body) ? body : [body]).every((m) => {
    const meta = (m as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
    return meta?.['progressToken'] === undefined;
  });

/**
 * Streamable HTTP at `/mcp`.
 *
 * - `stateless` (default): every POST gets a fresh server + transport, so any replica serves any
 *   request; GET (a standalone notification stream) and DELETE (session end) have nothing to act on
 *   and answer 405 with `Allow: POST`, as the MCP transport specification allows.
 * - `stateful`: sessions kept in this process (`Mcp-Session-Id`); a request without a session id
 *   that is not `initialize` → 400, an unknown session id → 404; GET streams and DELETE work.
 */
export const registerStreamableHttp = (
  app: FastifyInstance,
  makeServer: (() => Server) & { callTool?: ToolCallHandler },
  mode: McpSessionMode,
): { closeAll(): Promise<void> } => {
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const stateless = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') {
      return jsonRpcError(reply, 405, 'Method not allowed: this server is stateless; use POST.', { allow: 'POST' });
    }
    if (isEmptyBatch(request)) return refuseEmptyBatch(reply);
    if (makeServer.callTool && (await answerToolCallDirectly(request, reply, makeServer.callTool))) return;
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: answersInJson(request.body),
    });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await connectGuarded(server, transport);
    hijackWithHeaders(reply);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  };

  const stateful = async (request: FastifyRequest, reply: FastifyReply) => {
    if (isEmptyBatch(request)) return refuseEmptyBatch(reply);
    const header = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    let transport = sessionId ? sessions.get(sessionId) : undefined;
    if (sessionId && !transport) return jsonRpcError(reply, 404, 'Session not found');
    if (!transport) {
      if (request.method !== 'POST' || !isInitializeRequest(request.body)) {
        return jsonRpcError(reply, 400, 'Bad Request: Mcp-Session-Id header is required');
      }
      const server = makeServer();
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      await connectGuarded(server, created);
      transport = created;
    }
    hijackWithHeaders(reply);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  };

  const handler = mode === 'stateless' ? stateless : stateful;
  app.route({ method: ['GET', 'POST', 'DELETE'], url: '/mcp', handler });

  return {
    closeAll: async () => {
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      sessions.clear();
    },
  };
};
