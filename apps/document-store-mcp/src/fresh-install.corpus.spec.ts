// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { CLIENT_CHUNKING, createProject } from '@lectern/document-store';
import { connectMcp, listenOnFreePort, sharedModelDir, toolText } from '@lectern/testing';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { composeDocumentStore } from './compose.js';
import { loadConfig } from './config.js';

// A fresh install's first start: a clean DATA_DIR, EMBEDDING_MODEL=auto (the default), the hub at HF_ENDPOINT a
// loopback fake serving potion-base-2M's files (the offline copy in ../shared, whose sha256 values the registry
// pins). The first store_chunks fetches, verifies and uses the model; with no hub the log names the fallback.

const POTION_FILES = ['model.safetensors', 'tokenizer.json', 'config.json'];

const startFakeHub = async () => {
  const files = Object.fromEntries(
    POTION_FILES.map((f) => [f, readFileSync(join(sharedModelDir('potion-base-2M'), f))]),
  );
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const m = /^\/minishlab\/potion-base-2M\/resolve\/main\/(.+)$/.exec(req.url ?? '');
    const body = m ? files[m[1] as string] : undefined;
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
};

/** The service composed as main.ts does, on a clean DATA_DIR, with its log lines recorded. */
const startService = async (env: Record<string, string>) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'lectern-fresh-'));
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const raw of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(raw) as never);
        done();
      },
    }),
  );
  const config = loadConfig({ DATA_DIR: dataDir, EMBEDDING_AUTO_FETCH: '1', ...env });
  const { documentStore, platform } = composeDocumentStore(config, logger);
  const app = buildApp({ config, logger, documentStore: documentStore.deps });
  const client = await connectMcp(await listenOnFreePort(app), 'streamable-http');
  await createProject(documentStore.deps, { project: 'fresh', chunking: CLIENT_CHUNKING });
  return {
    lines,
    dataDir,
    client,
    stop: async () => {
      await client.close();
      await app.close();
      await platform.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

const CHUNKS = [
  { doc_id: 'a', chunk_index: 0, text: 'Heat pumps move heat from outside air into the house.' },
  { doc_id: 'b', chunk_index: 0, text: 'The chapel and its churchyard wall are listed heritage assets.' },
];

describe('document-store-mcp on a fresh install', () => {
  it('fetches potion-base-2M from the hub at the first embedding, verifies it and serves with it', async () => {
    const hub = await startFakeHub();
    const svc = await startService({ HF_ENDPOINT: hub.url });
    try {
      const stored = await svc.client.callTool({
        name: 'store_chunks',
        arguments: { project: 'fresh', chunks: CHUNKS },
      });
      expect(stored.isError).toBeFalsy();
      expect(hub.requests).toHaveLength(3);
      const found = await svc.client.callTool({
        name: 'find_chunks',
        arguments: { project: 'fresh', query: 'heat pump' },
      });
      expect(JSON.stringify(toolText(found))).toContain('Heat pumps');
      const info = await svc.client.callTool({ name: 'list_projects', arguments: {} });
      expect(JSON.stringify(info.structuredContent ?? toolText(info))).toContain('potion-base-2M');
      const msgs = svc.lines.map((l) => l.msg);
      expect(msgs.some((m) => m.startsWith('no embedding model in') && m.includes(hub.url))).toBe(true);
      expect(msgs.some((m) => /fetching potion-base-2M: model\.safetensors 100% of 7\.6 MB/.test(m))).toBe(true);
      expect(msgs.filter((m) => m.startsWith('embedding model:'))).toEqual([
        expect.stringMatching(/^embedding model: potion-base-2M \(64-d/),
      ]);
    } finally {
      await svc.stop();
      await hub.close();
    }
  }, 60_000);

  it('without network names the bundled fallback, once, and how to get the better model', async () => {
    const hub = await startFakeHub();
    await hub.close(); // nothing listens there any more
    const svc = await startService({ HF_ENDPOINT: hub.url });
    try {
      const stored = await svc.client.callTool({
        name: 'store_chunks',
        arguments: { project: 'fresh', chunks: CHUNKS },
      });
      expect(stored.isError).toBeFalsy();
      const model = svc.lines.filter((l) => l.msg.startsWith('embedding model:'));
      expect(model).toHaveLength(1);
      expect(model[0]?.level).toBe(40); // warn
      expect(model[0]?.msg).toContain('universal-sentence-encoder-lite');
      expect(model[0]?.msg).toContain(`could not fetch potion-base-2M from ${hub.url}`);
      expect(model[0]?.msg).toContain('lectern models pull potion-base-2M');
    } finally {
      await svc.stop();
    }
  }, 120_000);
});
