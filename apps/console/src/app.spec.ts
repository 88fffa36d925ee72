// SPDX-License-Identifier: AGPL-3.0-or-later
import { request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenOnFreePort, silentLogger } from '@lectern/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp, CONSOLE_CSP } from './app.js';
import { loadConfig } from './config.js';

/** The console server: its page and headers, and the `/svc/<service>/` proxy against a real upstream server. */
describe('console server', () => {
  let uiDir: string;
  let upstream: FastifyInstance;
  let upstreamUrl: string;
  let app: FastifyInstance;
  let consoleUrl: string;

  beforeAll(async () => {
    uiDir = mkdtempSync(join(tmpdir(), 'console-ui-'));
    writeFileSync(
      join(uiDir, 'index.html'),
      '<!doctype html><title>t</title><script type="module" src="/app.js"></script>',
    );
    writeFileSync(join(uiDir, 'app.js'), 'export {};');
    // a real service stand-in: echoes what reached it, answers SSE like the MCP transport may
    upstream = Fastify();
    upstream.removeAllContentTypeParsers();
    upstream.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));
    upstream.all('/*', async (request, reply) => {
      if (request.url === '/stream') {
        reply.header('content-type', 'text/event-stream').header('mcp-session-id', 's1');
        return reply.send('event: message\ndata: {"ok":true}\n\n');
      }
      return reply.header('x-internal', 'secret').send({
        method: request.method,
        url: request.url,
        authorization: request.headers.authorization ?? null,
        cookie: request.headers.cookie ?? null,
        origin: request.headers.origin ?? null,
        body: request.body ? (request.body as Buffer).toString() : null,
      });
    });
    upstreamUrl = await listenOnFreePort(upstream);
    const config = loadConfig({
      CONSOLE_DOCUMENT_STORE_URL: upstreamUrl,
      // nothing listens on port 9 (discard): "unreachable"
      CONSOLE_POLICY_KB_URL: 'http://127.0.0.1:9',
    });
    app = buildApp({ config, logger: silentLogger(), uiDir });
    consoleUrl = await listenOnFreePort(app);
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
    rmSync(uiDir, { recursive: true, force: true });
  });

  it('serves the page with a strict CSP: scripts only from itself, nothing inline, no eval', async () => {
    const res = await fetch(`${consoleUrl}/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toBe(CONSOLE_CSP);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('passes a request to the named service: path, query, body and the bearer key; nothing else', async () => {
    const res = await fetch(`${consoleUrl}/svc/documents/api/documents?a=1&b=x%20y`, {
      method: 'POST',
      headers: { authorization: 'Bearer k1', 'content-type': 'application/json', cookie: 'session=1' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-internal')).toBeNull();
    expect(await res.json()).toEqual({
      method: 'POST',
      url: '/api/documents?a=1&b=x%20y',
      authorization: 'Bearer k1',
      cookie: null,
      origin: null,
      body: '{"hello":"world"}',
    });
  });

  it('streams an event-stream answer back with the MCP session header', async () => {
    const res = await fetch(`${consoleUrl}/svc/documents/stream`);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('mcp-session-id')).toBe('s1');
    expect(await res.text()).toContain('data: {"ok":true}');
  });

  it('answers 404 for a service it does not know and 502 in plain words for one that is down', async () => {
    const unknown = await fetch(`${consoleUrl}/svc/redis/anything`);
    expect(unknown.status).toBe(404);
    const down = await fetch(`${consoleUrl}/svc/policies/health`);
    expect(down.status).toBe(502);
    expect(await down.json()).toEqual({
      error: { code: 'service_unavailable', message: 'The policies service is not reachable.' },
    });
  });

  it('refuses a page on another origin, or a rebound Host name, before reaching a service', async () => {
    const foreign = await fetch(`${consoleUrl}/svc/documents/api/x`, { headers: { origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    const rebound = await new Promise<number>((resolve, reject) =>
      request(`${consoleUrl}/svc/documents/api/x`, { headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end(),
    );
    expect(rebound).toBe(403);
    const same = await fetch(`${consoleUrl}/svc/documents/api/x`, { headers: { origin: consoleUrl } });
    expect(same.status).toBe(200);
  });
});
