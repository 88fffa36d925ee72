// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FastifyReply } from 'fastify';

/**
 * Hand the raw response to code that writes it itself (the MCP SDK transports), keeping the headers
 * fastify plugins already set (CORS, security headers): `reply.hijack()` alone would drop them.
 */
export const hijackWithHeaders = (reply: FastifyReply): void => {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined && !reply.raw.headersSent) reply.raw.setHeader(name, value as string | number | string[]);
  }
  reply.hijack();
};
