// SPDX-License-Identifier: AGPL-3.0-or-later
import { createLogger } from '@lectern/runtime';
import { listenOnFreePort } from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { postFile } from './converter.testkit.js';
import { composeConverter, type ComposedConverter } from './compose.js';

const TOKEN = 'sk_live_7e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b';
const COOKIE = 'session=ck_5a4b3c2d1e0f9a8b7c6d';

/** Issue 12, defect 7: at LOG_LEVEL=trace @fastify/multipart logs the busboy options with every request header. */
describe('converter logs at LOG_LEVEL=trace', () => {
  let app: FastifyInstance;
  let services: ComposedConverter;
  let dataDir: string;
  let baseUrl: string;
  const lines: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lectern-redaction-'));
    const config = loadConfig({ DATA_DIR: dataDir, CONVERTER_API_KEY: TOKEN, LOG_LEVEL: 'trace' });
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('converter', config.LOG_LEVEL, sink);
    services = composeConverter(config, logger);
    app = buildApp({ config, logger, conversion: services.conversion });
    baseUrl = await listenOnFreePort(app);
  });
  afterAll(async () => {
    await app.close();
    for (const step of services.platform.shutdownSteps()) await step.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('never write the bearer token or the cookie of a multipart upload', async () => {
    const file = { bytes: new TextEncoder().encode('# Redaction\n\nA small document.\n'), filename: 'notes.md' };
    const headers = { authorization: `Bearer ${TOKEN}`, cookie: COOKIE };
    const converted = await postFile(baseUrl, '/convert', file, { headers });
    expect(converted.status).toBe(200);
    const queued = await postFile(baseUrl, '/tasks', file, { headers, fields: { options: '{"maxPages": 5}' } });
    expect(queued.status).toBe(202);
    const refused = await postFile(baseUrl, '/convert', file, {
      headers: { authorization: 'Bearer wrong-token-0123456789' },
    });
    expect(refused.status).toBe(401);

    const out = lines.join('');
    expect(out).toContain('Providing options to busboy'); // the trace line that used to carry the headers
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain('ck_5a4b3c2d1e0f9a8b7c6d');
    expect(out).not.toContain('wrong-token-0123456789');
  });
});
