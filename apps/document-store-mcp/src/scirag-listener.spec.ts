// SPDX-License-Identifier: AGPL-3.0-or-later
import { AuthMessages } from '@lectern/auth';
import type { Platform } from '@lectern/platform';
import {
  connectMcp,
  expectAuthMatrix,
  listenOnFreePort,
  MCP_TRANSPORTS,
  mcpAuthProbes,
  repoRoot,
  runAuthMatrix,
  serviceArgs,
  silentLogger,
  toolText,
} from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildScirAgApp } from './app.js';
import { composeDocumentStore } from './compose.js';
import { loadConfig } from './config.js';

const SPEC_002 = ['list_collections', 'retrieve_document_chunks', 'store_document_chunks'];

/** A raw GET (fetch cannot set Host) with the Host and Origin given; answers the status. */
const statusOf = (baseUrl: string, path: string, headers: Record<string, string>): Promise<number> =>
  new Promise((resolve, reject) => {
    const url = new URL(path, baseUrl);
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'GET', headers }, (res) => {
      resolve(res.statusCode ?? 0);
      res.destroy();
    });
    req.on('error', reject);
    req.end();
  });

describe('document-store-mcp:spec 002 connection details (SSE at :8001/sse) — the SCIRAG_PORT listener', () => {
  describe('config', () => {
    it('is unset by default (no listener); a port turns it on; a bad value stops start-up naming it', () => {
      expect(loadConfig({}).SCIRAG_PORT).toBeUndefined();
      expect(loadConfig({ SCIRAG_PORT: '' }).SCIRAG_PORT).toBeUndefined();
      expect(loadConfig({ SCIRAG_PORT: '8001' }).SCIRAG_PORT).toBe(8001);
      expect(() => loadConfig({ SCIRAG_PORT: 'x' })).toThrow(/SCIRAG_PORT/);
      expect(() => loadConfig({ SCIRAG_PORT: '70000' })).toThrow(/SCIRAG_PORT/);
    });
  });

  describe('the listener (in process, on the real store)', () => {
    const token = 'scirag-test-token';
    let dataDir: string;
    let app: FastifyInstance;
    let platform: Platform;
    let baseUrl: string;

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'lectern-scirag-'));
      const config = loadConfig({ DATA_DIR: dataDir, MCP_API_KEY: token, SCIRAG_PORT: '0' });
      const log = silentLogger();
      const composed = composeDocumentStore(config, log);
      platform = composed.platform;
      app = buildScirAgApp({ config, logger: log, documentStore: composed.documentStore.deps });
      baseUrl = await listenOnFreePort(app);
    });
    afterAll(async () => {
      await app.close();
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it.each(MCP_TRANSPORTS)(
      'a real SDK client over %s lists exactly the three spec 002 tools, stores, retrieves and lists',
      async (kind) => {
        const client = await connectMcp(baseUrl, kind, { token });
        try {
          const { tools } = await client.listTools();
          expect(tools.map((t) => t.name).sort()).toEqual(SPEC_002);
          const collection = `scirag-${kind}`;
          const stored = await client.callTool({
            name: 'store_document_chunks',
            arguments: {
              collection,
              chunks: [
                {
                  text: 'Enzyme activity rises with temperature until the protein denatures.',
                  source_filename: 'enzymes.pdf',
                  chunk_index: 0,
                },
                {
                  text: 'Cycle lanes should be at least 2 metres wide where flows are high.',
                  source_filename: 'cycling.pdf',
                  chunk_index: 0,
                },
              ],
            },
          });
          expect(toolText(stored)).toEqual({
            success: true,
            chunks_stored: 2,
            collection,
            message: 'Successfully stored 2 chunks',
          });
          const found = toolText(
            await client.callTool({
              name: 'retrieve_document_chunks',
              arguments: { query: 'how wide should cycle lanes be', top_k: 1, collection },
            }),
          ) as Array<{ text: string; source_filename: string }>;
          expect(found).toHaveLength(1);
          expect(found[0]).toMatchObject({ source_filename: 'cycling.pdf', chunk_index: 0 });
          expect(toolText(await client.callTool({ name: 'list_collections', arguments: {} }))).toEqual(
            expect.arrayContaining([collection]),
          );
          // the other tools of document-store-mcp are not served here
          const other = await client.callTool({ name: 'ingest_document', arguments: {} }).catch((e: Error) => e);
          expect(other instanceof Error ? other.message : JSON.stringify(other)).toMatch(/ingest_document/);
          if (!(other instanceof Error)) expect(other.isError).toBe(true);
        } finally {
          await client.close();
        }
      },
    );

    it('has the main listener’s bearer auth on every MCP endpoint, and an open /health', async () => {
      expectAuthMatrix(await runAuthMatrix(baseUrl, token, mcpAuthProbes), AuthMessages);
      await expect(connectMcp(baseUrl, 'sse')).rejects.toThrow(/401|nauthorized/);
      const health = await fetch(`${baseUrl}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
    });

    it('has the main listener’s Host/Origin guard (DNS rebinding)', async () => {
      const port = new URL(baseUrl).port;
      const auth = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
      expect(await statusOf(baseUrl, '/sse', { ...auth, host: `127.0.0.1:${port}` })).toBe(200);
      expect(await statusOf(baseUrl, '/sse', { ...auth, host: `evil.example:${port}` })).toBe(403);
      expect(
        await statusOf(baseUrl, '/sse', { ...auth, host: `127.0.0.1:${port}`, origin: 'http://evil.example' }),
      ).toBe(403);
    });
  });

  it('main.ts: SCIRAG_PORT set → a second listener beside the main one, closed first on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lectern-scirag-main-'));
    const child = spawn(process.execPath, serviceArgs('apps/document-store-mcp/src/main.ts'), {
      cwd: repoRoot(),
      env: {
        ...process.env,
        DOCUMENT_STORE_PORT: '0',
        SCIRAG_PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        MCP_API_KEY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const lines: Array<{ msg: string; event?: string; step?: string }> = [];
      let buffered = '';
      let output = '';
      const ready = new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          buffered += d.toString();
          output += d.toString();
          let nl: number;
          while ((nl = buffered.indexOf('\n')) >= 0) {
            const raw = buffered.slice(0, nl);
            buffered = buffered.slice(nl + 1);
            try {
              const line = JSON.parse(raw) as { msg: string; event?: string };
              lines.push(line);
              if (line.event === 'ready' && line.msg.startsWith('document-store-mcp ready')) resolve();
            } catch {
              /* not a log line */
            }
          }
        });
        child.once('exit', (code) => reject(new Error(`exited early (${code})`)));
      });
      await ready;
      const readyLines = lines.filter((l) => l.event === 'ready').map((l) => l.msg);
      expect(readyLines).toHaveLength(2);
      const sciragUrl = /^scirag \(spec 002\) ready at (http:\/\/127\.0\.0\.1:\d+) \| MCP \/sse \+ \/mcp/.exec(
        readyLines[0]!,
      )?.[1];
      const mainUrl = /^document-store-mcp ready at (http:\/\/127\.0\.0\.1:\d+)/.exec(readyLines[1]!)?.[1];
      expect(sciragUrl).toBeDefined();
      expect(sciragUrl).not.toBe(mainUrl);

      const client = await connectMcp(sciragUrl!, 'sse');
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(SPEC_002);
      expect(Array.isArray(toolText(await client.callTool({ name: 'list_collections', arguments: {} })))).toBe(true);
      await client.close();
      const main = await connectMcp(mainUrl!, 'streamable-http');
      expect((await main.listTools()).tools.length).toBeGreaterThan(SPEC_002.length);
      await main.close();

      // 'close', not 'exit': every byte of stdout read
      const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      // Read from the whole output, not line by line: one CI run lost the http-scirag line while the later steps'
      // arrived (a write from another thread into the middle of a line would do that); the order is what is asserted.
      const doneAt = [...output.matchAll(/"step":"([^"]+)"[^\n]*?"msg":"shutdown step done"/g)].map((m) => m[1]);
      expect(doneAt.slice(0, 2)).toEqual(['http', 'http-scirag']);
      expect(doneAt.length).toBeGreaterThan(2); // the platform's steps after both listeners
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
