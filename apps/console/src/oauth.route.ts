// SPDX-License-Identifier: AGPL-3.0-or-later
import { createOriginGuard, type OriginPolicy } from '@lectern/transport';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ConsoleOAuth } from './config.js';

/** What the UI reads at start: how to sign in (the bearer key, or the OAuth client's authorization request). */
export const ConsoleAuthSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('key') }),
  z.object({
    mode: z.literal('oauth'),
    authorization_endpoint: z.url(),
    client_id: z.string(),
    resource: z.url(),
    scope: z.string(),
  }),
]);
export type ConsoleAuth = z.infer<typeof ConsoleAuthSchema>;

/** The token exchange the UI sends (authorization code + PKCE, RFC 7636): bounded, one grant type only. */
export const TokenExchangeSchema = z
  .object({
    grant_type: z.literal('authorization_code'),
    code: z.string().min(1).max(2048),
    code_verifier: z
      .string()
      .min(43)
      .max(128)
      .regex(/^[A-Za-z0-9._~-]+$/),
    redirect_uri: z.url().max(2048),
    client_id: z.string().max(200),
  })
  .strict();

/** The part of the token answer passed to the browser (never a refresh or ID token: the tab keeps an access token). */
const TokenAnswerSchema = z.object({
  access_token: z.string().min(1).max(16_384),
  token_type: z.string().max(40),
  expires_in: z.number().int().positive().optional(),
  scope: z.string().max(2000).optional(),
});

const IssuerMetadataSchema = z.object({ authorization_endpoint: z.url(), token_endpoint: z.url() });

/** RFC 8414 (well-known path inserted after the host), then OpenID Connect discovery (appended). */
const discover = async (issuer: string): Promise<z.infer<typeof IssuerMetadataSchema>> => {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  for (const candidate of [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ]) {
    const res = await fetch(candidate, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(5_000) });
    if (!res.ok) continue;
    const parsed = IssuerMetadataSchema.safeParse(await res.json());
    if (parsed.success) return parsed.data;
  }
  throw new Error(`no authorization server metadata at ${issuer}`);
};

const unavailable = {
  error: { code: 'dependency_unavailable', message: 'The sign-in server is not reachable; try again shortly.' },
};

/**
 * OAuth sign-in for the console (issue 29 with issue 30's `AUTH_MODE=oauth`): `GET /console/auth` tells the UI how
 * to sign in, and `POST /console/token` passes its authorization-code exchange (PKCE; the console is a public client
 * and holds no secret) to the issuer's token endpoint.
 *
 * Why the exchange goes through the console rather than from the browser to the issuer: the strict CSP keeps
 * `connect-src 'self'`, and an issuer need not answer CORS on its token endpoint. The console adds nothing to the
 * request (no secret), accepts only this client's `authorization_code` grant, and returns only the access token.
 * The authorization request itself is a top-level navigation, which the CSP does not restrict.
 */
export const registerOAuthRoutes = (
  app: FastifyInstance,
  deps: { oauth: ConsoleOAuth | undefined; originPolicy: OriginPolicy },
): void => {
  const { oauth } = deps;
  let metadata: Promise<z.infer<typeof IssuerMetadataSchema>> | undefined;
  const issuerMetadata = () => {
    if (!oauth) throw new Error('no OAuth client configured');
    metadata ??= discover(oauth.issuer).catch((error: unknown) => {
      metadata = undefined; // asked again on the next request
      throw error;
    });
    return metadata;
  };
  app.register(async (scope) => {
    scope.addHook('onRequest', createOriginGuard(deps.originPolicy));
    scope.get('/console/auth', async (request, reply): Promise<ConsoleAuth | typeof unavailable> => {
      reply.header('cache-control', 'no-store');
      if (!oauth) return { mode: 'key' };
      try {
        const { authorization_endpoint } = await issuerMetadata();
        return {
          mode: 'oauth',
          authorization_endpoint,
          client_id: oauth.clientId,
          resource: oauth.resource,
          scope: oauth.scope,
        };
      } catch (error) {
        request.log.warn({ err: error }, 'authorization server metadata unavailable');
        return reply.code(503).send(unavailable);
      }
    });
    scope.post('/console/token', { bodyLimit: 16 * 1024 }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!oauth)
        return reply.code(404).send({ error: { code: 'not_found', message: 'The console signs in with a key.' } });
      const parsed = TokenExchangeSchema.safeParse(request.body);
      if (!parsed.success || parsed.data.client_id !== oauth.clientId)
        return reply.code(400).send({
          error: { code: 'invalid_arguments', message: 'Not an authorization code exchange of this console.' },
        });
      let answer: Response;
      try {
        const { token_endpoint } = await issuerMetadata();
        answer = await fetch(token_endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ ...parsed.data, resource: oauth.resource }),
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        request.log.warn({ err: error }, 'token endpoint unreachable');
        return reply.code(503).send(unavailable);
      }
      const body: unknown = await answer.json().catch(() => null);
      if (!answer.ok) {
        // the issuer's own error code (RFC 6749 §5.2), never its free text
        const code = z.object({ error: z.string().regex(/^[a-z_]{1,64}$/) }).safeParse(body);
        request.log.warn({ status: answer.status, error: code.data?.error }, 'token exchange refused');
        return reply.code(400).send({
          error: {
            code: code.data?.error ?? 'invalid_grant',
            message: 'The sign-in server refused the sign-in; sign in again.',
          },
        });
      }
      const token = TokenAnswerSchema.safeParse(body);
      if (!token.success)
        return reply
          .code(502)
          .send({ error: { code: 'unexpected_answer', message: 'The sign-in server answered without a token.' } });
      return token.data;
    });
  });
};
