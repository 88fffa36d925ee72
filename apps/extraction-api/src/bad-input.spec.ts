// SPDX-License-Identifier: AGPL-3.0-or-later
import { extractionTaskQueueOf } from '@lectern/extraction';
import { createPlatform } from '@lectern/platform';
import { listenOnFreePort, silentLogger } from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

interface Answer {
  status: number;
  body: { error?: { code: string; message: string } };
}

/** Issue 26's bad input: hostile schemas and broken or stalled multipart bodies get typed answers, nothing left behind. */
describe('extraction-api bad input', () => {
  let dataDir: string;
  let app: FastifyInstance;
  let port: number;
  let platform: ReturnType<typeof createPlatform>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'extraction-bad-'));
    platform = createPlatform({ dataDir, log: silentLogger() });
    const config = loadConfig({
      DATA_DIR: dataDir,
      MAX_UPLOAD_BYTES: '5000',
      MCP_TOOLS_URL: 'http://127.0.0.1:9/mcp',
      AGENT_MAX_RETRIES: '0',
      UPLOAD_IDLE_TIMEOUT_S: '1',
    });
    app = buildApp({
      config,
      logger: silentLogger(),
      store: platform.taskStore(),
      taskQueue: extractionTaskQueueOf(platform, config),
    });
    port = Number(new URL(await listenOnFreePort(app)).port);
  });
  afterAll(async () => {
    await app.close();
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const incomingLeft = () => {
    const dir = join(dataDir, 'uploads', '.incoming');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  /** A raw request: `chunks` written as given; `stall` leaves the body unfinished. */
  const raw = (headers: Record<string, string>, chunks: (string | Buffer)[], stall = false): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/tasks', headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Answer['body']) : {} });
        });
      });
      req.on('error', reject);
      for (const c of chunks) req.write(c);
      if (!stall) req.end();
    });

  const multipart = (schema: string, file = '# A\n\ntext') => {
    const b = 'XyZbOuNdArY';
    const body =
      `--${b}\r\nContent-Disposition: form-data; name="schema"\r\n\r\n${schema}\r\n` +
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\nContent-Type: text/markdown\r\n\r\n${file}\r\n--${b}--\r\n`;
    return raw({ 'content-type': `multipart/form-data; boundary=${b}` }, [body]);
  };

  it('bounds the schema: depth, key count and size are typed 400/413, never a 500', async () => {
    const deep = `${'{"a":'.repeat(10_000)}""${'}'.repeat(10_000)}`;
    const deepArray = `{"a": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`g${i}`, { x: '' }])));
    for (const schema of [deep, deepArray, wide]) {
      const answer = await multipart(schema);
      expect([answer.status, answer.body.error?.code]).toEqual([400, 'invalid_arguments']);
      expect(answer.body.error?.message).toMatch(/deeper|keys|fields/);
    }
    const huge = JSON.stringify({ a: 'x'.repeat(70 * 1024) });
    expect((await multipart(huge)).status).toBe(413);
    expect(incomingLeft()).toEqual([]);
  });

  it('refuses reserved keys (__proto__, constructor, prototype) at any level with a clear message', async () => {
    for (const schema of [
      '{"constructor": {"prototype": ""}}',
      '{"__proto__": {"x": ""}}',
      '{"motor": {"prototype": ""}}',
      '{"ok": "", "constructor": ""}',
    ]) {
      const answer = await multipart(schema);
      expect([schema, answer.status, answer.body.error?.code]).toEqual([schema, 400, 'invalid_arguments']);
      expect(answer.body.error?.message).toMatch(/is reserved/);
    }
    expect(incomingLeft()).toEqual([]);
  });

  it('answers broken multipart with typed 400s and a too-large one with 413', async () => {
    const noBoundary = await raw({ 'content-type': 'multipart/form-data' }, ['--x\r\n\r\n']);
    expect([noBoundary.status, noBoundary.body.error?.code]).toEqual([400, 'invalid_multipart']);
    const malformed = await raw({ 'content-type': 'multipart/form-data; boundary=abc' }, [
      '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\n\r\nhalf a file',
    ]);
    expect([malformed.status, malformed.body.error?.code]).toEqual([400, 'invalid_multipart']);
    const garbage = await raw({ 'content-type': 'multipart/form-data; boundary=abc' }, ['not multipart at all']);
    expect(garbage.status).toBe(400);
    const big = await multipart('{"a": ""}', 'x'.repeat(6000));
    expect([big.status, big.body.error?.code]).toEqual([413, 'too_large']);
    for (let i = 0; i < 50 && incomingLeft().length > 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(incomingLeft()).toEqual([]);
  });

  it('answers a stalled upload (408 upload_timeout) and removes its .incoming directory', async () => {
    const b = 'StAlL';
    const answer = await raw(
      { 'content-type': `multipart/form-data; boundary=${b}` },
      [
        `--${b}\r\nContent-Disposition: form-data; name="schema"\r\n\r\n{"a": ""}\r\n`,
        `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\n\r\nthe first bytes of a document`,
      ],
      true,
    );
    expect([answer.status, answer.body.error?.code]).toEqual([408, 'upload_timeout']);
    for (let i = 0; i < 50 && incomingLeft().length > 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(incomingLeft()).toEqual([]);
  });
});
