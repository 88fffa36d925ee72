// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthMessages, checkAuthorization } from './bearer-token.js';

export interface BearerAuthOptions {
  /** The key; unset or empty disables authentication. */
  apiKey: string | undefined;
  /** Paths (without query string) open without a token. Default: `/health`. */
  exemptPaths?: readonly string[];
  /**
   * Route patterns open without a token when they start with one of these (e.g. `/docs/` for the OpenAPI page's
   * assets). Matched on the route fastify selected, never on the raw URL, so `/docs/../mcp` cannot slip through.
   */
  exemptRoutePrefixes?: readonly string[];
}

/**
 * Bearer-token guard for every route of a fastify instance (an `onRequest` hook, so it runs before
 * body parsing and before the MCP transports see the request). 401 bodies are the specs' shape:
 * `{"error":{"code":"unauthorized","message":...}}`. Failed attempts are logged at warn with the
 * client IP, path and method — never the presented token.
 */
export const installBearerAuth = (app: FastifyInstance, options: BearerAuthOptions): void => {
  const exempt = new Set(options.exemptPaths ?? ['/health']);
  const prefixes = options.exemptRoutePrefixes ?? [];
  const apiKey = options.apiKey;
  if (!apiKey) return;

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? request.url;
    if (exempt.has(path)) return;
    // A CORS preflight carries no credential by definition (Fetch standard); the CORS plugin answers it.
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) return;
    const route = request.routeOptions.url;
    if (route !== undefined && prefixes.some((p) => route.startsWith(p))) return;
    const decision = checkAuthorization(request.headers.authorization, apiKey);
    if (decision.ok) return;
    request.log.warn(
      { event: 'auth_failed', reason: decision.reason, client_ip: request.ip, path, method: request.method },
      'authentication failed',
    );
    return reply
      .code(401)
      .header('www-authenticate', 'Bearer')
      .send({ error: { code: 'unauthorized', message: AuthMessages[decision.reason] } });
  });
};
