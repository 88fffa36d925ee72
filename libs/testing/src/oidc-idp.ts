// SPDX-License-Identifier: AGPL-3.0-or-later
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type Provider from 'oidc-provider';

/** Every Lectern scope, as a client allowed them all asks for them. */
export const ALL_LECTERN_SCOPES = 'lectern:read lectern:write lectern:admin';

export interface TestIdp {
  issuer: string;
  server: Server;
  port: number;
  close(): Promise<void>;
}

export interface TestIdpClient {
  client_id: string;
  /** The scopes the client may ask for. */
  scope: string;
  /** Set: a confidential client (client credentials, secret `<id>-secret-0123456789`). */
  confidential?: boolean;
  /** A public client (authorization code + PKCE) redirected here. */
  redirect_uris?: string[];
}

/** A signing key for the provider's JWKS. */
export const idpSigningKey = async (kid: string): Promise<JWK> => {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
};

/** The client secret `startOidcIdp` gives a confidential client. */
export const idpClientSecret = (clientId: string): string => `${clientId}-secret-0123456789`;

/**
 * A real OpenID provider (oidc-provider) on loopback, issuing JWT access tokens for any `resource` (audience = the
 * resource, RFC 8707) with the scopes asked for. Login and consent are finished at once for the account `alice` by
 * the provider's interaction route (a test signs in without a form). `clients` is read at the first request, so a
 * test can start the provider, start what it redirects to, and only then name that redirect URI.
 */
export const startOidcIdp = async (options: {
  clients: () => TestIdpClient[];
  keys?: JWK[];
  accessTokenTtlSeconds?: number;
}): Promise<TestIdp> => {
  // imported when used: every test imports this package, few need an authorization server
  const { default: ProviderClass } = await import('oidc-provider');
  const keys = options.keys ?? [await idpSigningKey('k1')];
  const ttl = options.accessTokenTtlSeconds ?? 300;
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  let provider: Provider | undefined;
  const make = (): Provider =>
    new ProviderClass(issuer, {
      clients: options.clients().map((c) =>
        c.confidential
          ? {
              client_id: c.client_id,
              client_secret: idpClientSecret(c.client_id),
              grant_types: ['client_credentials'],
              redirect_uris: [],
              response_types: [],
              scope: c.scope,
            }
          : {
              client_id: c.client_id,
              token_endpoint_auth_method: 'none',
              grant_types: ['authorization_code'],
              response_types: ['code'],
              redirect_uris: c.redirect_uris ?? [],
              scope: `openid ${c.scope}`,
            },
      ),
      jwks: { keys },
      // fixed lifetimes (the provider's defaults work but print a notice each)
      ttl: {
        AccessToken: ttl,
        AuthorizationCode: 60,
        ClientCredentials: ttl,
        Grant: 600,
        IdToken: ttl,
        Interaction: 600,
        Session: 600,
      },
      scopes: ['openid', 'lectern:read', 'lectern:write', 'lectern:admin'],
      pkce: { required: () => true },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        introspection: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => undefined as unknown as string,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, resource) => ({
            scope: ALL_LECTERN_SCOPES,
            audience: resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: ttl,
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    });
  server.on('request', (req, res) => {
    provider ??= make();
    const p = provider;
    if (!req.url?.startsWith('/interaction/')) return void p.callback()(req, res);
    void (async () => {
      const details = await p.interactionDetails(req, res);
      const params = details.params as Record<string, string>;
      const grant = new p.Grant({ accountId: 'alice', clientId: params['client_id'] ?? '' });
      // the lectern scopes are registered provider scopes, so they are granted as such and for the resource
      grant.addOIDCScope(params['scope'] ?? 'openid');
      grant.addResourceScope(params['resource'] ?? '', params['scope']?.replace('openid', '').trim() ?? '');
      const grantId = await grant.save();
      await p.interactionFinished(req, res, { login: { accountId: 'alice' }, consent: { grantId } });
    })().catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  return {
    issuer,
    server,
    port,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};

/** A client-credentials access token of a confidential client for `resource`. */
export const idpClientCredentials = async (
  idp: TestIdp,
  clientId: string,
  scope: string,
  resource: string,
): Promise<string> => {
  const res = await fetch(`${idp.issuer}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${idpClientSecret(clientId)}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
};
