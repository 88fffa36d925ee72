// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { scopesGrant, type LecternScope } from './scopes.js';
import { protectedResourceMetadataPath, type Principal, type TokenVerifier } from './oauth.js';

export interface OAuthGuardOptions {
  verifier: TokenVerifier;
  /** `resource_name` of the metadata (the service's name). */
  resourceName: string;
  /** Paths open without a token (the probes, the OpenAPI document). */
  exemptPaths?: readonly string[];
  /** Route patterns open without a token when they start with one of these (matched on the selected route). */
  exemptRoutePrefixes?: readonly string[];
  /** The scope a request needs by method and route (its tool, for an MCP call, is checked later: `requireScope`). */
  routeScope: (method: string, route: string | undefined) => LecternScope;
}

const quote = (value: string): string => `"${value.replace(/["\\]/g, '')}"`;

const challenge = (metadataUrl: string, params: Record<string, string> = {}): string => {
  const all: Record<string, string> = { ...params, resource_metadata: metadataUrl };
  return `Bearer ${Object.entries(all)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join(', ')}`;
};

/** 403 `insufficient_scope` with the challenge naming the scope (MCP authorization specification, RFC 6750 §3.1). */
export const refuseInsufficientScope = (reply: FastifyReply, metadataUrl: string, needed: LecternScope) =>
  reply
    .code(403)
    .header('www-authenticate', challenge(metadataUrl, { error: 'insufficient_scope', scope: needed }))
    .send({ error: { code: 'insufficient_scope', message: `This request needs the ${needed} scope` } });

/**
 * Whether the request's principal (set by `installOAuth`) holds `needed`; answers the 403 itself when not. Requests
 * without a principal (key or no-auth mode) pass: scopes exist only in OAuth mode.
 */
export const requireScope = (request: FastifyRequest, reply: FastifyReply, needed: LecternScope): boolean => {
  const principal = request.principal;
  if (!principal) return true;
  if (scopesGrant(principal.scopes, needed)) return true;
  request.log.warn({ event: 'insufficient_scope', needed, path: request.url.split('?')[0] }, 'insufficient scope');
  void refuseInsufficientScope(reply, request.server.resourceMetadataUrl ?? '', needed);
  return false;
};

/**
 * `AUTH_MODE=oauth`: this service as an OAuth 2.1 resource server (MCP authorization specification). Serves its
 * RFC 9728 Protected Resource Metadata (at the resource's well-known path and at the root one), checks every other
 * request's bearer token (`TokenVerifier`), answers 401 with `WWW-Authenticate: Bearer resource_metadata="…"` (and
 * `error="invalid_token"` when a token was presented) so a client can discover the authorization server, and 403
 * `insufficient_scope` when the route's scope is not granted. An authorization server that cannot be reached
 * answers 503 `dependency_unavailable`. The token itself is never logged.
 */
export const installOAuth = (app: FastifyInstance, options: OAuthGuardOptions): void => {
  const { verifier } = options;
  const metadataPaths = [
    ...new Set([
      protectedResourceMetadataPath(verifier.metadata('').resource as string),
      '/.well-known/oauth-protected-resource',
    ]),
  ];
  const exempt = new Set([...(options.exemptPaths ?? []), ...metadataPaths]);
  const prefixes = options.exemptRoutePrefixes ?? [];
  app.decorate('resourceMetadataUrl', verifier.metadataUrl);
  for (const path of metadataPaths)
    app.get(path, { schema: { hide: true } }, async () => verifier.metadata(options.resourceName));

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? request.url;
    if (exempt.has(path)) return;
    const route = request.routeOptions.url;
    if (route !== undefined && prefixes.some((p) => route.startsWith(p))) return;
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) return;
    const header = request.headers.authorization?.trim() ?? '';
    const unauthorized = (message: string, params: Record<string, string> = {}) => {
      request.log.warn(
        { event: 'auth_failed', reason: message, client_ip: request.ip, path, method: request.method },
        'authentication failed',
      );
      return reply
        .code(401)
        .header('www-authenticate', challenge(verifier.metadataUrl, params))
        .send({ error: { code: 'unauthorized', message } });
    };
    if (header === '') return unauthorized('Missing Authorization header');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1])
      return unauthorized('Invalid Authorization header format. Expected: Bearer <token>', {
        error: 'invalid_request',
      });
    let check;
    try {
      check = await verifier.verify(match[1]);
    } catch (error) {
      request.log.error({ err: error }, 'token verification failed: authorization server unreachable');
      return reply.code(503).send({
        error: {
          code: 'dependency_unavailable',
          message: 'The authorization server is unavailable; try again shortly',
        },
      });
    }
    if (!check.ok)
      return unauthorized(check.description, { error: 'invalid_token', error_description: check.description });
    request.principal = check.principal;
    requireScope(request, reply, options.routeScope(request.method, route));
  });
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The OAuth token's principal (`AUTH_MODE=oauth`); undefined in the other modes. */
    principal?: Principal;
  }
  interface FastifyInstance {
    /** Where this resource server's RFC 9728 metadata is (`AUTH_MODE=oauth`). */
    resourceMetadataUrl?: string;
  }
}
