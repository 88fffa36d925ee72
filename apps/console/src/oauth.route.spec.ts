// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenOnFreePort, silentLogger } from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

/**
 * The console's sign-in routes when they cannot work: key mode (no token route), an issuer that is down (503 in
 * plain words, the address not leaked), and a request from another site (the proxy's Host/Origin guard). The
 * working sign-in is console-oauth.browser.spec.ts, against a real OpenID provider.
 */
describe('console sign-in routes', () => {
  let uiDir: string;
  const apps: FastifyInstance[] = [];
  const start = async (env: Record<string, string>) => {
    const app = buildApp({ config: loadConfig(env), logger: silentLogger(), uiDir });
    apps.push(app);
    return listenOnFreePort(app);
  };
  beforeAll(() => {
    uiDir = mkdtempSync(join(tmpdir(), 'console-ui-'));
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    rmSync(uiDir, { recursive: true, force: true });
  });

  it('key mode: the UI is told to ask for the key, and there is no token exchange', async () => {
    const url = await start({});
    const auth = await fetch(`${url}/console/auth`);
    expect([auth.status, await auth.json()]).toEqual([200, { mode: 'key' }]);
    expect(auth.headers.get('cache-control')).toBe('no-store');
    const token = await fetch(`${url}/console/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(token.status).toBe(404);
  });

  it('an issuer that is down: 503 dependency_unavailable, in plain words, for both routes', async () => {
    const url = await start({
      CONSOLE_OAUTH_ISSUER: 'http://127.0.0.1:9/realms/lectern',
      CONSOLE_OAUTH_CLIENT_ID: 'lectern-console',
      CONSOLE_OAUTH_RESOURCE: 'http://lectern.test/',
    });
    const auth = await fetch(`${url}/console/auth`);
    expect(auth.status).toBe(503);
    const body = await auth.text();
    expect(JSON.parse(body)).toEqual({
      error: { code: 'dependency_unavailable', message: 'The sign-in server is not reachable; try again shortly.' },
    });
    expect(body).not.toContain('127.0.0.1:9');
    const token = await fetch(`${url}/console/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'authorization_code',
        code: 'c',
        code_verifier: 'v'.repeat(43),
        redirect_uri: `${url}/`,
        client_id: 'lectern-console',
      }),
    });
    expect([token.status, ((await token.json()) as { error: { code: string } }).error.code]).toEqual([
      503,
      'dependency_unavailable',
    ]);
    // another page's script cannot use the exchange
    const cross = await fetch(`${url}/console/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: '{}',
    });
    expect(cross.status).toBe(403);
  });
});
