// SPDX-License-Identifier: AGPL-3.0-or-later
import type { JWK } from 'jose';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { deleteDocumentTool, listCollectionsTool, removePolicyRevisionTool } from '@lectern/contracts';
import {
  ALL_LECTERN_SCOPES,
  idpAuthorizationCode,
  idpClientCredentials,
  idpSigningKey,
  listenOnFreePort,
  silentLogger,
  startOidcIdp,
  type TestIdp,
  type TestIdpClient,
} from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from './http-app.js';
import { mountMcp } from './mcp-app.js';
import { bindTool } from './tool-registration.js';
import { definePrompt } from './mcp-prompts.js';
import { z } from 'zod';

/*
 * Issue 30: AUTH_MODE=oauth against a real OpenID provider (oidc-provider) on loopback, tokens from its real
 * endpoints (client credentials; authorization code with PKCE), and the MCP SDK client's own OAuth support
 * (discovery from a 401, client credentials).
 */

const ALL = ALL_LECTERN_SCOPES;
const REDIRECT_URI = 'http://127.0.0.1/callback';

/**
 * The test identity provider of the testkit (one oidc-provider): clients `reader` (read), `writer` (read write),
 * `admin` (all), `short` (all, 1 s tokens), `opaque-*` (opaque tokens, for introspection), `rs` (the resource
 * server's introspection client) and `spa` (public, authorization code + PKCE); JWT access tokens for any
 * `resource` (audience = the resource).
 */
const CLIENTS: TestIdpClient[] = [
  { client_id: 'reader', scope: 'lectern:read', confidential: true },
  { client_id: 'writer', scope: 'lectern:read lectern:write', confidential: true },
  { client_id: 'admin', scope: ALL, confidential: true },
  { client_id: 'short', scope: ALL, confidential: true, accessTokenTtlSeconds: 1 },
  { client_id: 'opaque-reader', scope: 'lectern:read', confidential: true, opaque: true },
  { client_id: 'opaque-short', scope: ALL, confidential: true, opaque: true, accessTokenTtlSeconds: 1 },
  { client_id: 'rs', scope: 'lectern:read', confidential: true },
  { client_id: 'spa', scope: ALL, redirect_uris: [REDIRECT_URI] },
];

const startIdp = (keys: JWK[], port?: number): Promise<TestIdp> =>
  startOidcIdp({ clients: () => CLIENTS, keys, ...(port === undefined ? {} : { port }) });

const clientCredentials = idpClientCredentials;

const authorizationCode = (
  idp: TestIdp,
  scope: string,
  resource: string,
  endpoints?: { authorization: string; token: string },
): Promise<string> =>
  idpAuthorizationCode(idp, {
    clientId: 'spa',
    redirectUri: REDIRECT_URI,
    scope,
    resource,
    ...(endpoints ? { endpoints } : {}),
  });

const tools = [
  bindTool(listCollectionsTool, async () => ({ result: ['read-ok'] })),
  bindTool(deleteDocumentTool, async (input) => ({
    status: 'success' as const,
    document_id: input.document_id,
    chunks_deleted: 0,
    registry_entries_deleted: 0,
  })),
  bindTool(removePolicyRevisionTool, async (input) => ({
    status: 'success' as const,
    source: input.source,
    revision_id: input.revision_id,
    chunks_removed: 0,
  })),
];

/** A resource, a prompt and a completer: what OAuth mode must guard like a read tool (issue 30). */
const extras = {
  resources: {
    templates: [{ uriTemplate: 'lectern://documents/{document_id}', name: 'document' }],
    list: async () => ({ resources: [{ uri: 'lectern://documents/d1', name: 'd1' }] }),
    read: async (uri: string) => [{ uri, text: 'resource-ok' }],
  },
  prompts: [
    definePrompt({
      name: 'ask',
      title: 'Ask',
      description: 'Ask.',
      arguments: z.object({ document_id: z.string() }),
      render: ({ document_id }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `prompt-ok ${document_id}` } }],
      }),
    }),
  ],
  completions: { document_id: async () => ['d1', 'd2'] },
};
const rpc = (method: string, params: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

const callTool = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

describe('AUTH_MODE=oauth: an OAuth 2.1 resource server', () => {
  let idp: TestIdp;
  let other: TestIdp;
  let app: FastifyInstance;
  let baseUrl: string;
  let resource: string;
  let firstKey: JWK;

  beforeAll(async () => {
    firstKey = await idpSigningKey('k1');
    idp = await startIdp([firstKey]);
    other = await startIdp([firstKey]); // same key, another issuer
    // The resource URI is the service's own origin: listen first, then build the app on that port.
    const probe = createHttpApp({ service: 'p', logger: silentLogger(), apiKey: undefined });
    const probeUrl = await listenOnFreePort(probe);
    const port = Number(new URL(probeUrl).port);
    await probe.close();
    resource = `http://127.0.0.1:${port}`;
    app = createHttpApp({
      service: 'oauth-test',
      logger: silentLogger(),
      apiKey: 'ignored-in-oauth-mode-0123456789',
      oauth: { issuer: idp.issuer, resource, clockSkewSeconds: 0, jwksCooldownMs: 0 },
      adminRoute: (method, route) => method !== 'GET' && route.startsWith('/api/policies'),
      originPolicy: { allowedHosts: ['127.0.0.1'] },
    });
    mountMcp(app, { name: 'oauth-test', version: '0', tools, ...extras });
    app.register(async (scope) => {
      scope.get('/api/policies', async () => ({ policies: [] }));
      scope.post('/api/policies', async () => ({ created: true }));
      scope.post('/tasks', async () => ({ task_id: 't' }));
    });
    await app.listen({ port, host: '127.0.0.1' });
    baseUrl = resource;
  }, 30_000);

  afterAll(async () => {
    await app?.close();
    await idp?.close();
    await other?.close();
  });

  const post = (path: string, token: string | undefined, body = '{}') =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body,
    });

  it('serves RFC 9728 metadata naming the issuer and the scopes, without a token', async () => {
    const res = await fetch(`${baseUrl}/.well-known/oauth-protected-resource`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      resource,
      authorization_servers: [idp.issuer],
      scopes_supported: ['lectern:read', 'lectern:write', 'lectern:admin'],
      bearer_methods_supported: ['header'],
      resource_name: 'oauth-test',
    });
  });

  it('401 without a token, with WWW-Authenticate pointing at the metadata; probes stay open', async () => {
    const res = await post('/mcp', undefined);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${resource}/.well-known/oauth-protected-resource"`,
    );
    expect((await fetch(`${baseUrl}/health`)).status).toBe(200);
  });

  it('the static key is not a credential in OAuth mode', async () => {
    const res = await fetch(`${baseUrl}/api/policies`, {
      headers: { authorization: 'Bearer ignored-in-oauth-mode-0123456789' },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('client credentials: a read token searches, and gets 403 insufficient_scope for a write or admin tool', async () => {
    const token = await clientCredentials(idp, 'reader', 'lectern:read', resource);
    const read = await post('/mcp', token, callTool('list_collections', {}));
    expect(read.status).toBe(200);
    expect(await read.text()).toContain('read-ok');
    for (const [tool, args, scope] of [
      ['delete_document', { document_id: 'a_123456' }, 'lectern:write'],
      ['remove_policy_revision', { source: 'NPPF', revision_id: 'r1' }, 'lectern:admin'],
    ] as const) {
      const res = await post('/mcp', token, callTool(tool, args));
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${resource}/.well-known/oauth-protected-resource"`,
      );
      expect(await res.json()).toEqual({
        error: { code: 'insufficient_scope', message: `This request needs the ${scope} scope` },
      });
    }
  });

  it('resources, prompts and completions need lectern:read: a read token gets them; no token 401, no scope 403', async () => {
    const reader = await clientCredentials(idp, 'reader', 'lectern:read', resource);
    const requests = [
      [rpc('resources/list', {}), 'd1'],
      [rpc('resources/read', { uri: 'lectern://documents/d1' }), 'resource-ok'],
      [rpc('prompts/get', { name: 'ask', arguments: { document_id: 'd9' } }), 'prompt-ok d9'],
      [
        rpc('completion/complete', {
          ref: { type: 'ref/resource', uri: 'lectern://documents/{document_id}' },
          argument: { name: 'document_id', value: 'd' },
        }),
        '"values":["d1","d2"]',
      ],
    ] as const;
    for (const [body, expected] of requests) {
      const refused = await post('/mcp', undefined, body);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=/);
      const res = await post('/mcp', reader, body);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(expected);
    }
    // a token for this resource without any lectern scope: 403, naming the read scope to ask for
    const unscoped = await clientCredentials(idp, 'reader', '', resource);
    const denied = await post('/mcp', unscoped, rpc('resources/read', { uri: 'lectern://documents/d1' }));
    expect(denied.status).toBe(403);
    expect(denied.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="lectern:read"/);
  });

  it('REST routes: GET needs read, POST write, policy admin admin', async () => {
    const reader = await clientCredentials(idp, 'reader', 'lectern:read', resource);
    const writer = await clientCredentials(idp, 'writer', 'lectern:read lectern:write', resource);
    const admin = await clientCredentials(idp, 'admin', ALL, resource);
    const get = (token: string) =>
      fetch(`${baseUrl}/api/policies`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    expect(await get(reader)).toBe(200);
    expect((await post('/tasks', reader)).status).toBe(403);
    expect((await post('/tasks', writer)).status).toBe(200);
    expect((await post('/api/policies', writer)).status).toBe(403);
    expect((await post('/api/policies', admin)).status).toBe(200);
  });

  it('authorization code with PKCE: a user token with write scope deletes', async () => {
    const token = await authorizationCode(idp, 'lectern:read lectern:write', resource);
    const res = await post('/mcp', token, callTool('delete_document', { document_id: 'a_123456' }));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('a_123456');
  });

  it('refuses a token for another audience, from another issuer, or expired (401 invalid_token)', async () => {
    const cases: Array<[string, string]> = [
      [await clientCredentials(idp, 'admin', ALL, 'http://elsewhere.example'), 'not for this resource'],
      [await clientCredentials(other, 'admin', ALL, resource), 'another issuer'],
    ];
    const short = await clientCredentials(idp, 'short', ALL, resource);
    expect((await post('/mcp', short, callTool('list_collections', {}))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_100)); // the token's 1 s life, and no clock skew allowed here
    cases.push([short, 'expired']);
    for (const [token, reason] of cases) {
      const res = await post('/mcp', token, callTool('list_collections', {}));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="[^"]+"/);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(reason);
    }
  });

  it('the discovery a client follows from a 401: WWW-Authenticate → resource metadata → authorization server metadata → token (client credentials, and authorization code with PKCE)', async () => {
    const refused = await post('/mcp', undefined, callTool('list_collections', {}));
    expect(refused.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(refused.headers.get('www-authenticate') ?? '')?.[1];
    expect(metadataUrl).toBe(`${resource}/.well-known/oauth-protected-resource`);
    const prm = (await (await fetch(metadataUrl ?? '')).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    expect(prm.resource).toBe(resource);
    const issuer = prm.authorization_servers[0] ?? '';
    expect(issuer).toBe(idp.issuer);
    // RFC 8414 first, then OpenID Connect discovery (oidc-provider serves the latter).
    const candidates = [
      `${issuer}/.well-known/oauth-authorization-server`,
      `${issuer}/.well-known/openid-configuration`,
    ];
    let as: Record<string, unknown> | undefined;
    for (const candidate of candidates) {
      const res = await fetch(candidate);
      if (res.ok) {
        as = (await res.json()) as Record<string, unknown>;
        break;
      }
    }
    expect(as).toMatchObject({
      issuer,
      token_endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
      authorization_endpoint: expect.any(String),
      code_challenge_methods_supported: expect.arrayContaining(['S256']),
      grant_types_supported: expect.arrayContaining(['client_credentials', 'authorization_code']),
    });
    const tokenEndpoint = String(as?.['token_endpoint']);
    const viaCredentials = await clientCredentials(idp, 'reader', 'lectern:read', prm.resource, tokenEndpoint);
    const listed = await post('/mcp', viaCredentials, callTool('list_collections', {}));
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain('read-ok');
    const viaCode = await authorizationCode(idp, 'lectern:read', prm.resource, {
      authorization: String(as?.['authorization_endpoint']),
      token: tokenEndpoint,
    });
    expect((await post('/mcp', viaCode, callTool('list_collections', {}))).status).toBe(200);
    // the user token holds read only: a write tool is 403 insufficient_scope, naming the scope to ask for
    const denied = await post('/mcp', viaCode, callTool('delete_document', { document_id: 'a_123456' }));
    expect(denied.status).toBe(403);
    expect(denied.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="lectern:write"/);
  });

  it('the MCP SDK client discovers the authorization server from the 401 and signs in (client credentials)', async () => {
    const provider = new ClientCredentialsProvider({
      clientId: 'writer',
      clientSecret: 'writer-secret-0123456789',
      scope: 'lectern:read lectern:write',
      expectedIssuer: idp.issuer,
    });
    const client = new Client({ name: 'sdk-oauth', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { authProvider: provider }));
    try {
      const listed = await client.listTools();
      expect(listed.tools.map((t) => t.name).sort()).toEqual([
        'delete_document',
        'list_collections',
        'remove_policy_revision',
      ]);
      const deleted = await client.callTool({ name: 'delete_document', arguments: { document_id: 'b_654321' } });
      expect(deleted.isError).toBeFalsy();
      expect(provider.tokens()?.access_token).toBeDefined();
    } finally {
      await client.close();
    }
  });

  it('a rotated signing key: tokens signed with the new key are accepted once the JWKS is fetched again', async () => {
    const before = await clientCredentials(idp, 'reader', 'lectern:read', resource);
    expect((await post('/mcp', before, callTool('list_collections', {}))).status).toBe(200);
    // The provider restarts on the same issuer with a new key only.
    const port = idp.port;
    await idp.close();
    idp = await startIdp([await idpSigningKey('k2')], port);
    const after = await clientCredentials(idp, 'reader', 'lectern:read', resource);
    const res = await post('/mcp', after, callTool('list_collections', {}));
    expect(res.status).toBe(200);
    // A token signed with the retired key no longer verifies.
    expect((await post('/mcp', before, callTool('list_collections', {}))).status).toBe(401);
  });
});

describe('AUTH_MODE=oauth with RFC 7662 introspection: opaque access tokens', () => {
  let idp: TestIdp;
  let app: FastifyInstance;
  let resource: string;
  let introspections = 0;

  beforeAll(async () => {
    idp = await startIdp([await idpSigningKey('k1')]);
    idp.server.prependListener('request', (req) => {
      if (req.method === 'POST' && req.url?.startsWith('/token/introspection')) introspections += 1;
    });
    const probe = createHttpApp({ service: 'p', logger: silentLogger(), apiKey: undefined });
    const port = Number(new URL(await listenOnFreePort(probe)).port);
    await probe.close();
    resource = `http://127.0.0.1:${port}`;
    app = createHttpApp({
      service: 'introspection-test',
      logger: silentLogger(),
      apiKey: undefined,
      // the endpoint comes from the issuer's metadata; answers are reused for 60 s, never past the token's exp
      oauth: {
        issuer: idp.issuer,
        resource,
        clockSkewSeconds: 0,
        introspection: { clientId: 'rs', clientSecret: 'rs-secret-0123456789', cacheSeconds: 60 },
      },
      originPolicy: { allowedHosts: ['127.0.0.1'] },
    });
    mountMcp(app, { name: 'introspection-test', version: '0', tools });
    await app.listen({ port, host: '127.0.0.1' });
  }, 30_000);

  afterAll(async () => {
    await app?.close();
    await idp?.close();
  });

  const call = (token: string, name: string, args: Record<string, unknown>) =>
    fetch(`${resource}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: callTool(name, args),
    });

  it('an opaque token from the provider is introspected at its real endpoint; scopes apply; the answer is cached', async () => {
    const token = await clientCredentials(idp, 'opaque-reader', 'lectern:read', resource);
    expect(token.split('.')).toHaveLength(1); // not a JWT
    const before = introspections;
    const read = await call(token, 'list_collections', {});
    expect(read.status).toBe(200);
    expect(await read.text()).toContain('read-ok');
    const write = await call(token, 'delete_document', { document_id: 'a_123456' });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="lectern:write"/);
    expect((await call(token, 'list_collections', {})).status).toBe(200);
    expect(introspections - before).toBe(1); // three requests, one introspection
  });

  it('refuses an opaque token for another resource, an unknown one, and one past its exp despite the cache', async () => {
    const elsewhere = await clientCredentials(idp, 'opaque-reader', 'lectern:read', 'http://elsewhere.example');
    const foreign = await call(elsewhere, 'list_collections', {});
    expect(foreign.status).toBe(401);
    expect(((await foreign.json()) as { error: { message: string } }).error.message).toMatch(/not for this resource/);
    const unknown = await call('not-a-token-the-provider-issued', 'list_collections', {});
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/not active/);
    const short = await clientCredentials(idp, 'opaque-short', ALL, resource);
    expect((await call(short, 'list_collections', {})).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_100)); // the token's 1 s life; the cache's 60 s do not outlive it
    const expired = await call(short, 'list_collections', {});
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });
});
