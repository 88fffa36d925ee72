// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FastifyInstance } from 'fastify';

/**
 * Close the HTTP side gracefully: stop accepting, let in-flight requests finish (MCP streams are ended
 * by `preClose`), and after `graceMs` destroy whatever connections remain — e.g. a keep-alive socket
 * whose client left a response body unread, which Node does not count as idle and would otherwise hold
 * shutdown until the overall timeout.
 */
export const closeHttp = async (app: FastifyInstance, graceMs = 5_000): Promise<void> => {
  const timer = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
};

/** The first shutdown step of every service. */
export const httpShutdownStep = (app: FastifyInstance, graceMs?: number) => ({
  name: 'http',
  close: () => closeHttp(app, graceMs),
});
