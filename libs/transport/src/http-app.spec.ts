// SPDX-License-Identifier: AGPL-3.0-or-later
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { listenOnFreePort, openApiErrors } from '@lectern/testing';
import { closeHttp } from './close-http.js';
import { createHttpApp } from './http-app.js';
import { announceReady } from './ready.js';

const capture = () => {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
};

describe('createHttpApp: the console', () => {
  it('logs one line per request at info, but /health and /metrics probes not at info', async () => {
    const { lines, logger } = capture();
    const app = createHttpApp({ service: 'console-test', logger, apiKey: undefined });
    app.get('/work', async () => ({ done: true }));
    const base = await listenOnFreePort(app);
    await fetch(`${base}/health`);
    await fetch(`${base}/metrics`);
    expect(lines.filter((l) => l['msg'] === 'incoming request' || l['msg'] === 'request completed')).toEqual([]);
    await fetch(`${base}/work`);
    await new Promise((r) => setTimeout(r, 50));
    await closeHttp(app, 100);
    const logged = lines.filter((l) => l['msg'] === 'incoming request' || l['msg'] === 'request completed');
    // one line at info per request, when answered, with the request and the response (arrival is at debug)
    expect(logged.map((l) => [l['level'], l['msg']])).toEqual([[30, 'request completed']]);
    expect(logged[0]).toMatchObject({ req: { method: 'GET', url: '/work' }, res: { statusCode: 200 } });
  });

  it('prints one ready line, and warns when open to the network without a token', async () => {
    const { lines, logger } = capture();
    const app = createHttpApp({ service: 'console-test', logger, apiKey: undefined });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const line = announceReady(app, logger, {
      service: 'console-test',
      host: '127.0.0.1',
      auth: false,
      transports: 'MCP /mcp',
      details: { store: 'sqlite' },
    });
    expect(line).toMatch(
      /^console-test ready at http:\/\/127\.0\.0\.1:\d+ \| MCP \/mcp \| auth off \| store sqlite \| source \S/,
    );
    expect(lines.filter((l) => l['level'] === 40)).toEqual([]);
    announceReady(app, logger, { service: 'console-test', host: '0.0.0.0', auth: false, transports: 'MCP /mcp' });
    expect(lines.filter((l) => l['level'] === 40).map((l) => l['msg'])).toEqual([
      expect.stringMatching(/^WARNING: listening on 0\.0\.0\.0 .*MCP_API_KEY/),
    ]);
    announceReady(app, logger, { service: 'console-test', host: '0.0.0.0', auth: true, transports: 'MCP /mcp' });
    expect(lines.filter((l) => l['level'] === 40)).toHaveLength(1);
    expect(lines.filter((l) => l['event'] === 'ready')).toHaveLength(3);
    await app.close();
  });
});

describe('the link to the source (AGPL-3.0 §13)', () => {
  const saved = process.env['LECTERN_SOURCE_URL'];
  afterEach(() => {
    if (saved === undefined) delete process.env['LECTERN_SOURCE_URL'];
    else process.env['LECTERN_SOURCE_URL'] = saved;
  });

  it('is a Link header on every answer, /health and refused ones too, and ends the ready line', async () => {
    process.env['LECTERN_SOURCE_URL'] = 'https://git.example.org/acme/lectern-fork';
    const { logger } = capture();
    const app = createHttpApp({ service: 'source-test', logger, apiKey: 'secret-token' });
    const base = await listenOnFreePort(app);
    const health = await fetch(`${base}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('link')).toBe('<https://git.example.org/acme/lectern-fork>; rel="source"');
    const refused = await fetch(`${base}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('link')).toBe('<https://git.example.org/acme/lectern-fork>; rel="source"');
    const line = announceReady(app, logger, {
      service: 'source-test',
      host: '127.0.0.1',
      auth: true,
      transports: 'REST',
    });
    expect(line).toMatch(/ \| source https:\/\/git\.example\.org\/acme\/lectern-fork$/);
    await app.close();
  });
});

describe('METRICS_TOKEN: a token for GET /metrics alone', () => {
  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  it('opens /metrics (the key still does) and nothing else; a wrong token is refused', async () => {
    const app = createHttpApp({
      service: 'metrics-token-test',
      logger: pino({ level: 'silent' }),
      apiKey: 'the-full-service-key',
      metricsToken: 'scrape-only-token-123',
    });
    app.get('/work', async () => ({ done: true }));
    const base = await listenOnFreePort(app);
    const scraped = await fetch(`${base}/metrics`, bearer('scrape-only-token-123'));
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/^# HELP /m);
    expect((await fetch(`${base}/metrics`, bearer('the-full-service-key'))).status).toBe(200);
    const wrong = await fetch(`${base}/metrics`, bearer('not-the-token-at-all'));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: { code: 'unauthorized', message: 'Invalid bearer token' } });
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/work`, bearer('scrape-only-token-123'))).status).toBe(401);
    expect((await fetch(`${base}/work`, bearer('the-full-service-key'))).status).toBe(200);
    await app.close();
  });

  it('is required for /metrics even on a service with no key', async () => {
    const app = createHttpApp({
      service: 'metrics-token-test',
      logger: pino({ level: 'silent' }),
      apiKey: undefined,
      metricsToken: 'scrape-only-token-123',
    });
    const base = await listenOnFreePort(app);
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, bearer('scrape-only-token-123'))).status).toBe(200);
    await app.close();
  });
});

describe('GET /openapi.json and /docs', () => {
  it('answer without a token on an authenticated service, and the document is valid OpenAPI 3', async () => {
    const app = createHttpApp({ service: 'openapi-test', logger: pino({ level: 'silent' }), apiKey: 'secret-token' });
    const base = await listenOnFreePort(app);
    const doc = await fetch(`${base}/openapi.json`);
    expect(doc.status).toBe(200);
    const json = (await doc.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(await openApiErrors(json)).toEqual([]);
    expect(json.openapi).toBe('3.1.0');
    expect(Object.keys(json.paths)).toEqual(expect.arrayContaining(['/health', '/metrics']));
    const page = await fetch(`${base}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    // The page's assets come from this server (the npm package), nothing from elsewhere.
    expect(html).not.toMatch(/src="https?:/);
    const bundle = await fetch(`${base}/docs/static/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    await bundle.arrayBuffer();
    const refused = await fetch(`${base}/metrics`);
    expect(refused.status).toBe(401);
    await refused.arrayBuffer();
    await closeHttp(app, 100);
  });
});
