// SPDX-License-Identifier: AGPL-3.0-or-later
import { AuthMessages } from '@lectern/auth';
import { expectAuthMatrix, listenOnFreePort, runRestAuthMatrix, silentLogger } from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig, restApiKey } from './config.js';

describe('extraction-api REST auth', () => {
  let app: FastifyInstance;
  let baseUrl: string;

  afterEach(async () => {
    await app.close();
  });

  it.each([
    ['MCP_API_KEY', { MCP_API_KEY: 'shared-token' }, 'shared-token'],
    ['EXTRACTION_API_KEY', { MCP_API_KEY: 'shared-token', EXTRACTION_API_KEY: 'own-token' }, 'own-token'],
  ])('guards every route but /health with the key from %s', async (_name, env, token) => {
    app = buildApp({ config: loadConfig(env), logger: silentLogger() });
    baseUrl = await listenOnFreePort(app);
    const results = await runRestAuthMatrix(baseUrl, token, [
      { name: 'GET /tasks/x', method: 'GET', path: '/tasks/x' },
    ]);
    expectAuthMatrix(results, AuthMessages);
    const health = await fetch(`${baseUrl}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
  });

  it('is open when no key is configured', async () => {
    app = buildApp({ config: loadConfig({}), logger: silentLogger() });
    baseUrl = await listenOnFreePort(app);
    expect((await fetch(`${baseUrl}/metrics`)).status).toBe(200);
  });
});

describe('extraction-api config', () => {
  it('listens on 8000 by default, falls back to MCP_API_KEY for its key', () => {
    const config = loadConfig({ MCP_API_KEY: 'k' });
    expect(config.EXTRACTION_API_PORT).toBe(8000);
    expect(restApiKey(config)).toBe('k');
    expect(() => loadConfig({ EXTRACTION_API_PORT: '70000' })).toThrow(/EXTRACTION_API_PORT/);
  });
});
