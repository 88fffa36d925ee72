// SPDX-License-Identifier: AGPL-3.0-or-later
import { request as httpRequest } from 'node:http';
import { listenOnFreePort, silentLogger } from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from './http-app.js';
import { mountMcp } from './mcp-app.js';
import type { OriginPolicy } from './origin-guard.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '0' } },
});

/** A raw HTTP request (fetch cannot set Host), with whatever Host and Origin we like; the SSE body is not awaited. */
const probe = (baseUrl: string, method: 'GET' | 'POST', path: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(path, baseUrl);
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname,
        headers: {
          accept: 'application/json, text/event-stream',
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
      },
      (res) => {
        if (res.headers['content-type']?.startsWith('text/event-stream')) {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, body: '' });
          return;
        }
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    if (method === 'POST') req.write(INITIALIZE);
    req.end();
  });

const start = async (policy?: OriginPolicy) => {
  const app = createHttpApp({
    service: 'guard-test',
    logger: silentLogger(),
    apiKey: undefined,
    ...(policy ? { originPolicy: policy } : {}),
  });
  mountMcp(app, { name: 'guard-test', version: '0', tools: [] });
  const baseUrl = await listenOnFreePort(app);
  return { app, baseUrl, port: new URL(baseUrl).port };
};

describe('MCP endpoints: Host and Origin (DNS rebinding)', () => {
  describe('default policy (loopback on the listen port)', () => {
    let app: FastifyInstance;
    let baseUrl: string;
    let port: string;
    beforeAll(async () => ({ app, baseUrl, port } = await start()));
    afterAll(async () => app.close());

    it.each([
      ['POST', '/mcp'],
      ['GET', '/sse'],
    ] as const)('%s %s: a foreign Origin is refused with 403', async (method, path) => {
      const res = await probe(baseUrl, method, path, { host: `127.0.0.1:${port}`, origin: 'http://evil.example' });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ error: { message: 'Forbidden: Origin header not allowed' } });
    });

    it.each([
      ['POST', '/mcp'],
      ['GET', '/sse'],
    ] as const)('%s %s: a foreign Host (a rebound name) is refused with 403', async (method, path) => {
      const res = await probe(baseUrl, method, path, { host: `evil.example:${port}` });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ error: { message: 'Forbidden: Host header not allowed' } });
    });

    it('a loopback Host on another port is refused', async () => {
      expect((await probe(baseUrl, 'POST', '/mcp', { host: 'localhost:1' })).status).toBe(403);
    });

    it.each([
      ['POST', '/mcp'],
      ['GET', '/sse'],
    ] as const)('%s %s: loopback Host with a loopback Origin, or with none, passes', async (method, path) => {
      expect(
        (await probe(baseUrl, method, path, { host: `localhost:${port}`, origin: `http://localhost:${port}` })).status,
      ).toBe(200);
      expect((await probe(baseUrl, method, path, { host: `127.0.0.1:${port}` })).status).toBe(200);
      expect(
        (await probe(baseUrl, method, path, { host: `[::1]:${port}`, origin: `http://127.0.0.1:${port}` })).status,
      ).toBe(200);
    });

    it('the liveness probe is not guarded (health checks through a proxy keep working)', async () => {
      expect(
        (await probe(baseUrl, 'GET', '/health', { host: 'lectern.internal', origin: 'http://evil.example' })).status,
      ).toBe(200);
    });
  });

  describe('configured (MCP_ALLOWED_HOSTS / MCP_ALLOWED_ORIGINS)', () => {
    let app: FastifyInstance;
    let baseUrl: string;
    let port: string;
    beforeAll(
      async () =>
        ({ app, baseUrl, port } = await start({
          allowedHosts: ['mcp.example.com'],
          allowedOrigins: ['https://app.example.com'],
        })),
    );
    afterAll(async () => app.close());

    it('an allowed Host (any port) and Origin pass; loopback is no longer implied', async () => {
      const ok = await probe(baseUrl, 'POST', '/mcp', {
        host: 'mcp.example.com:443',
        origin: 'https://app.example.com',
      });
      expect(ok.status).toBe(200);
      expect((await probe(baseUrl, 'GET', '/sse', { host: 'MCP.example.com' })).status).toBe(200);
      expect((await probe(baseUrl, 'POST', '/mcp', { host: `127.0.0.1:${port}` })).status).toBe(403);
      expect(
        (await probe(baseUrl, 'POST', '/mcp', { host: 'mcp.example.com', origin: `http://localhost:${port}` })).status,
      ).toBe(403);
    });
  });
});
