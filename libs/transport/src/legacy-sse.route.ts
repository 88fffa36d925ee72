// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { FastifyInstance } from 'fastify';
import { hijackWithHeaders } from './raw-reply.js';
import { connectGuarded } from './request-guard.js';

/**
 * The legacy HTTP+SSE transport (MCP 2024-11-05): `GET /sse` opens the event stream and announces
 * `/messages/?sessionId=...`; `POST /messages/` delivers client messages to that connection.
 * Sessions live as long as their stream, in this process only.
 */
export const registerLegacySse = (app: FastifyInstance, makeServer: () => Server): { closeAll(): Promise<void> } => {
  const sessions = new Map<string, SSEServerTransport>();

  app.get('/sse', async (request, reply) => {
    hijackWithHeaders(reply);
    const transport = new SSEServerTransport('/messages/', reply.raw);
    const server = makeServer();
    sessions.set(transport.sessionId, transport);
    // Closing the transport closes the server's side too (the SDK chains onclose); no server.close() here,
    // which would close the transport again and recurse.
    transport.onclose = () => {
      sessions.delete(transport.sessionId);
    };
    reply.raw.on('close', () => void transport.close());
    request.log.debug({ session_id: transport.sessionId }, 'sse session opened');
    await connectGuarded(server, transport);
  });

  app.post('/messages/', async (request, reply) => {
    const sessionId = (request.query as Record<string, string | undefined>)['sessionId'];
    if (!sessionId)
      return reply.code(400).send({ error: { code: 'bad_request', message: 'Missing sessionId query parameter' } });
    const transport = sessions.get(sessionId);
    if (!transport) return reply.code(404).send({ error: { code: 'not_found', message: 'Unknown or closed session' } });
    hijackWithHeaders(reply);
    await transport.handlePostMessage(request.raw, reply.raw, request.body);
  });

  return {
    closeAll: async () => {
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      sessions.clear();
    },
  };
};
