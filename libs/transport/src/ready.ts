// SPDX-License-Identifier: AGPL-3.0-or-later
import { isLoopbackHost } from '@lectern/auth';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { sourceUrl } from '@lectern/runtime';

export interface ReadyFacts {
  service: string;
  /** The address asked for (HOST): decides the open-to-the-network warning. */
  host: string;
  /** Whether a bearer token is required. */
  auth: boolean;
  /** e.g. `MCP streamable-http /mcp (stateless), sse /sse`, or `REST /convert /tasks`. */
  transports: string;
  /** Anything else a person wants to see at start: store, queue mode, embedding model. */
  details?: Record<string, string>;
}

export { isLoopbackHost };

/**
 * After `listen`: one `info` line a person can read (URL, transports, auth, and the service's details), and a
 * prominent `warn` when the service listens beyond loopback without a token. Returns the ready line's text.
 */
export const announceReady = (app: FastifyInstance, log: Logger, facts: ReadyFacts): string => {
  const address = app.server.address();
  const port = address && typeof address !== 'string' ? address.port : 0;
  const shownHost = facts.host.includes(':') && !facts.host.startsWith('[') ? `[${facts.host}]` : facts.host;
  const url = `http://${shownHost}:${port}`;
  const details = Object.entries(facts.details ?? {}).map(([k, v]) => `${k} ${v}`);
  const line = [
    `${facts.service} ready at ${url}`,
    facts.transports,
    `auth ${facts.auth ? 'on' : 'off'}`,
    ...details,
    // AGPL-3.0 §13: where a network user gets the source
    `source ${sourceUrl() ?? `${url}/source`}`,
  ].join(' | ');
  if (!facts.auth && !isLoopbackHost(facts.host)) {
    log.warn(
      { event: 'open_without_auth', host: facts.host, port },
      `WARNING: listening on ${facts.host} (reachable from other machines) with no MCP_API_KEY: anyone who can reach ` +
        `port ${port} can use this service. Set MCP_API_KEY, or HOST=127.0.0.1 to stay local.`,
    );
  }
  log.info({ event: 'ready', url, auth: facts.auth, ...facts.details }, line);
  return line;
};
