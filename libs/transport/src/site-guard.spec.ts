// SPDX-License-Identifier: AGPL-3.0-or-later
import multipart from '@fastify/multipart';
import { request as httpRequest } from 'node:http';
import { listenOnFreePort, silentLogger } from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from './http-app.js';
import type { OriginPolicy } from './origin-guard.js';

const KEY = 'site-guard-test-key-0123456789abcdef';

interface Probe {
  method: 'GET' | 'POST' | 'DELETE' | 'OPTIONS';
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** A raw HTTP request (fetch cannot set Host). */
const send = (baseUrl: string, p: Probe) =>
  new Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }>(
    (resolve, reject) => {
      const url = new URL(p.path, baseUrl);
      const req = httpRequest(
        { host: url.hostname, port: url.port, method: p.method, path: url.pathname, headers: p.headers ?? {} },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        },
      );
      req.on('error', reject);
      if (p.body !== undefined) req.write(p.body);
      req.end();
    },
  );

const multipartBody = () => {
  const boundary = '----lectern-site-guard';
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n` +
      `hello\r\n--${boundary}--\r\n`,
  );
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
};

/**
 * A service with one multipart upload route, one JSON route and one read route, each recording that it ran: the
 * cross-site cases of issue 30 must be refused before any of them runs.
 */
const start = async (apiKey: string | undefined, policy?: OriginPolicy) => {
  const ran: string[] = [];
  const app = createHttpApp({
    service: 'site-guard-test',
    logger: silentLogger(),
    apiKey,
    ...(policy ? { originPolicy: policy } : {}),
  });
  app.register(multipart);
  app.register(async (scope) => {
    scope.post('/api/documents', async (request) => {
      const file = await request.file();
      ran.push(`upload:${file ? (await file.toBuffer()).toString() : ''}`);
      return { ok: true };
    });
    scope.post('/api/policies', async (request) => {
      ran.push(`json:${JSON.stringify(request.body)}`);
      return { ok: true };
    });
    scope.delete('/api/policies/:id', async () => {
      ran.push('delete');
      return { ok: true };
    });
    scope.get('/tasks', async () => {
      ran.push('read');
      return { tasks: ['secret'] };
    });
  });
  const baseUrl = await listenOnFreePort(app);
  return { app, baseUrl, port: new URL(baseUrl).port, ran };
};

const EVIL_ORIGIN = 'http://evil.example';

describe('REST safe from other sites (issue 30)', () => {
  describe.each([
    ['without a key', undefined],
    ['with a key', KEY],
  ] as const)('%s', (_label, apiKey) => {
    let app: FastifyInstance;
    let baseUrl: string;
    let port: string;
    let ran: string[];
    beforeAll(async () => ({ app, baseUrl, port, ran } = await start(apiKey)));
    afterAll(async () => app.close());
    beforeEach(() => ran.splice(0));

    const auth: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};

    it('a multipart POST with a foreign Origin is refused (403) and nothing is stored', async () => {
      const { body, contentType } = multipartBody();
      const res = await send(baseUrl, {
        method: 'POST',
        path: '/api/documents',
        headers: { host: `127.0.0.1:${port}`, origin: EVIL_ORIGIN, 'content-type': contentType, ...auth },
        body,
      });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toEqual({
        error: { code: 'forbidden', message: 'Forbidden: Origin header not allowed' },
      });
      expect(ran).toEqual([]);
    });

    it('a JSON POST and a DELETE with a foreign Host (a rebound name) are refused (403)', async () => {
      const json = await send(baseUrl, {
        method: 'POST',
        path: '/api/policies',
        headers: { host: `evil.example:${port}`, 'content-type': 'application/json', ...auth },
        body: '{"source":"NPPF"}',
      });
      expect(json.status).toBe(403);
      expect(JSON.parse(json.body)).toMatchObject({ error: { code: 'forbidden' } });
      const del = await send(baseUrl, {
        method: 'DELETE',
        path: '/api/policies/NPPF',
        headers: { host: `evil.example:${port}`, ...auth },
      });
      expect(del.status).toBe(403);
      expect(ran).toEqual([]);
    });

    it('the same requests from loopback (no Origin, or a loopback one) pass', async () => {
      const { body, contentType } = multipartBody();
      const upload = await send(baseUrl, {
        method: 'POST',
        path: '/api/documents',
        headers: { host: `127.0.0.1:${port}`, 'content-type': contentType, ...auth },
        body,
      });
      expect(upload.status).toBe(200);
      const json = await send(baseUrl, {
        method: 'POST',
        path: '/api/policies',
        headers: {
          host: `localhost:${port}`,
          origin: `http://localhost:${port}`,
          'content-type': 'application/json',
          ...auth,
        },
        body: '{"source":"NPPF"}',
      });
      expect(json.status).toBe(200);
      expect(ran).toEqual(['upload:hello', 'json:{"source":"NPPF"}']);
    });

    it('no answer carries CORS headers for an origin nobody configured', async () => {
      const preflight = await send(baseUrl, {
        method: 'OPTIONS',
        path: '/api/policies',
        headers: { host: `127.0.0.1:${port}`, origin: EVIL_ORIGIN, 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  it('without a key, a read with a foreign Host or Origin is refused too; /health stays open', async () => {
    const { app, baseUrl, port, ran } = await start(undefined);
    try {
      expect(
        (await send(baseUrl, { method: 'GET', path: '/tasks', headers: { host: `evil.example:${port}` } })).status,
      ).toBe(403);
      expect(
        (
          await send(baseUrl, {
            method: 'GET',
            path: '/tasks',
            headers: { host: `127.0.0.1:${port}`, origin: EVIL_ORIGIN },
          })
        ).status,
      ).toBe(403);
      expect(ran).toEqual([]);
      expect(
        (await send(baseUrl, { method: 'GET', path: '/health', headers: { host: 'lectern.internal' } })).status,
      ).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('with a key, a read with any Host is answered to the key holder (the key is the protection)', async () => {
    const { app, baseUrl, ran } = await start(KEY);
    try {
      const res = await send(baseUrl, {
        method: 'GET',
        path: '/tasks',
        headers: { host: 'lectern.internal:443', authorization: `Bearer ${KEY}` },
      });
      expect(res.status).toBe(200);
      expect(ran).toEqual(['read']);
      const anonymous = await send(baseUrl, { method: 'GET', path: '/tasks', headers: { host: 'lectern.internal' } });
      expect(anonymous.status).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('CORS answers only the configured origins, and their preflight needs no token', async () => {
    const { app, baseUrl, port, ran } = await start(KEY, {
      allowedHosts: ['127.0.0.1'],
      allowedOrigins: ['https://console.example'],
    });
    try {
      const preflight = await send(baseUrl, {
        method: 'OPTIONS',
        path: '/api/policies',
        headers: {
          host: `127.0.0.1:${port}`,
          origin: 'https://console.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://console.example');
      expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/authorization/);
      const call = await send(baseUrl, {
        method: 'POST',
        path: '/api/policies',
        headers: {
          host: `127.0.0.1:${port}`,
          origin: 'https://console.example',
          'content-type': 'application/json',
          authorization: `Bearer ${KEY}`,
        },
        body: '{}',
      });
      expect(call.status).toBe(200);
      expect(call.headers['access-control-allow-origin']).toBe('https://console.example');
      const foreign = await send(baseUrl, {
        method: 'OPTIONS',
        path: '/api/policies',
        headers: { host: `127.0.0.1:${port}`, origin: EVIL_ORIGIN, 'access-control-request-method': 'POST' },
      });
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
      expect(ran).toEqual(['json:{}']);
    } finally {
      await app.close();
    }
  });
});
