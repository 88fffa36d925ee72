// SPDX-License-Identifier: AGPL-3.0-or-later
import { AuthMessages } from '@lectern/auth';
import { expectAuthMatrix, runRestAuthMatrix } from '@lectern/testing';
import { loadConfig, restApiKey } from './config.js';
import { postFile, startConverter, type TestConverter } from './converter.testkit.js';

const probes = [
  { name: 'POST /convert', method: 'POST' as const, path: '/convert' },
  { name: 'POST /tasks', method: 'POST' as const, path: '/tasks' },
  { name: 'GET /tasks/x', method: 'GET' as const, path: '/tasks/x' },
  { name: 'GET /tasks/x/result', method: 'GET' as const, path: '/tasks/x/result' },
];

describe('converter REST auth', () => {
  let converter: TestConverter;

  afterEach(async () => {
    await converter.close();
  });

  it.each([
    ['MCP_API_KEY', { MCP_API_KEY: 'shared-token' }, 'shared-token'],
    ['CONVERTER_API_KEY', { MCP_API_KEY: 'shared-token', CONVERTER_API_KEY: 'own-token' }, 'own-token'],
  ])('guards every route but /health with the key from %s', async (_name, env, token) => {
    converter = await startConverter(env);
    const results = await runRestAuthMatrix(converter.baseUrl, token, probes);
    expectAuthMatrix(results, AuthMessages);
    const health = await fetch(`${converter.baseUrl}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
  });

  it('converts with the right token and refuses the same upload without it', async () => {
    converter = await startConverter({ CONVERTER_API_KEY: 'own-token' });
    const doc = { bytes: new TextEncoder().encode('hello'), filename: 'a.txt' };
    expect((await postFile(converter.baseUrl, '/convert', doc)).status).toBe(401);
    expect(
      (await postFile(converter.baseUrl, '/convert', doc, { headers: { authorization: 'Bearer own-token' } })).status,
    ).toBe(200);
  });

  it('is open when no key is configured', async () => {
    converter = await startConverter({});
    expect((await fetch(`${converter.baseUrl}/metrics`)).status).toBe(200);
  });
});

describe('converter config', () => {
  it('listens on 8002 by default, falls back to MCP_API_KEY for its key', () => {
    const config = loadConfig({ MCP_API_KEY: 'k' });
    expect(config.CONVERTER_PORT).toBe(8002);
    expect(restApiKey(config)).toBe('k');
    expect(() => loadConfig({ CONVERTER_PORT: '70000' })).toThrow(/CONVERTER_PORT/);
  });

  it('refuses a process without a worker unless Redis carries the jobs elsewhere', () => {
    expect(() => loadConfig({ CONVERTER_CONCURRENCY: '0' })).toThrow(/CONVERTER_CONCURRENCY/);
    expect(loadConfig({ CONVERTER_CONCURRENCY: '0', REDIS_URL: 'redis://127.0.0.1:6379' }).CONVERTER_CONCURRENCY).toBe(
      0,
    );
    expect(() => loadConfig({ MAX_DOCUMENT_BYTES: 'lots' })).toThrow(/MAX_DOCUMENT_BYTES/);
  });
});
