// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK } from 'jose';
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
  /** Set: the client's access tokens are opaque (RFC 7662 introspection), not JWTs. */
  opaque?: boolean;
  /** The client's access-token lifetime; default the provider's `accessTokenTtlSeconds`. */
  accessTokenTtlSeconds?: number;
}

/** A signing key for the provider's JWKS. */
export const idpSigningKey = async (kid: string): Promise<JWK> => {
  const { exportJWK, generateKeyPair } = await import('jose'); // imported when used, as oidc-provider below
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
  /** Listen on this port (a test restarts the provider on the same issuer, e.g. with a rotated key); default any. */
  port?: number;
}): Promise<TestIdp> => {
  // imported when used: every test imports this package, few need an authorization server
  const { default: ProviderClass } = await import('oidc-provider');
  const keys = options.keys ?? [await idpSigningKey('k1')];
  const ttl = options.accessTokenTtlSeconds ?? 300;
  const server = createServer();
  await new Promise<void>((r) => server.listen(options.port ?? 0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  let provider: Provider | undefined;
  // an access token lives as its resource server says (per client, see `getResourceServerInfo`), else `ttl`
  const tokenTtl = (_ctx: unknown, token: { resourceServer?: { accessTokenTTL?: number } }): number =>
    token.resourceServer?.accessTokenTTL ?? ttl;
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
        AccessToken: tokenTtl,
        AuthorizationCode: 60,
        ClientCredentials: tokenTtl,
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
          getResourceServerInfo: (_ctx, resource, client) => {
            const c = options.clients().find((x) => x.client_id === client.clientId);
            return {
              scope: ALL_LECTERN_SCOPES,
              audience: resource,
              accessTokenFormat: c?.opaque ? 'opaque' : 'jwt',
              accessTokenTTL: c?.accessTokenTtlSeconds ?? ttl,
              jwt: { sign: { alg: 'RS256' } },
            };
          },
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

/** A client-credentials access token of a confidential client for `resource` (at `tokenEndpoint`, default the provider's). */
export const idpClientCredentials = async (
  idp: TestIdp,
  clientId: string,
  scope: string,
  resource: string,
  tokenEndpoint = `${idp.issuer}/token`,
): Promise<string> => {
  const res = await fetch(tokenEndpoint, {
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

/**
 * An authorization-code access token of the public client `clientId` (PKCE, S256), following the provider's
 * redirects by hand with its cookies kept; the provider's interaction route signs `alice` in and consents. The
 * client must list `redirectUri` (nothing listens there: the code is read from the redirect). `endpoints` default to
 * the provider's own; a test that discovered them passes those.
 */
export const idpAuthorizationCode = async (
  idp: TestIdp,
  options: {
    clientId: string;
    redirectUri: string;
    scope: string;
    resource: string;
    endpoints?: { authorization: string; token: string };
  },
): Promise<string> => {
  const { clientId, redirectUri, scope, resource } = options;
  const endpoints = options.endpoints ?? { authorization: `${idp.issuer}/auth`, token: `${idp.issuer}/token` };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const cookies = new Map<string, string>();
  let url = `${endpoints.authorization}?${new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: `openid ${scope}`,
    resource,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
  })}`;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      if (eq > 0) cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`no redirect at ${url}: ${res.status} ${await res.text()}`);
    const next = new URL(location, url);
    if (next.href.startsWith(redirectUri)) {
      const code = next.searchParams.get('code');
      if (!code) throw new Error(`no code: ${next.href}`);
      const token = await fetch(endpoints.token, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: clientId,
          code_verifier: verifier,
          resource,
        }),
      });
      const body = (await token.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
      return body.access_token;
    }
    url = next.href;
  }
  throw new Error('too many redirects');
};
