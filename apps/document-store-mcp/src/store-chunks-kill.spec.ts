// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkConsistency,
  CLIENT_CHUNKING,
  createProject,
  documentStoreReader,
  resolveProject,
} from '@lectern/document-store';
import { createPlatform } from '@lectern/platform';
import {
  connectMcp,
  killAtLine,
  silentLogger,
  spawnService,
  startRedis,
  TEST_MODEL_ID,
  testModelDir,
  testModelEnv,
  type SpawnedService,
  type TestRedis,
} from '@lectern/testing';

const ENTRY = 'apps/document-store-mcp/src/main.ts';
const CHUNKS = Array.from({ length: 120 }, (_, i) => ({
  doc_id: `paper-${Math.floor(i / 20)}`,
  chunk_index: i % 20,
  page_start: 1 + (i % 20),
  text: `Paper ${Math.floor(i / 20)} paragraph ${i % 20}: enzyme activity, pH optimum and temperature stability.`,
}));

interface Stored {
  status: string;
  chunks_stored: number;
  chunk_ids: string[];
}

/**
 * Issue 24: `kill -9` of document-store-mcp during a spec 004 `store_chunks` call (killed once the server logged the
 * call's request and before it answered), embedded and distributed (`REDIS_URL`). The store write is one transaction
 * with deterministic ids and no registry: after the restart the project holds none or all of the call's chunks (never
 * a part), the retried call stores exactly what a clean call stores, and the consistency check is clean.
 */
describe.each([
  ['embedded', false],
  ['distributed', true],
] as const)('store_chunks killed mid-call (%s mode)', (_mode, distributed) => {
  let dataDir: string;
  let redis: TestRedis | undefined;
  let env: Record<string, string>;
  const services: SpawnedService[] = [];
  const withStore = async <T>(work: (deps: ReturnType<typeof documentStoreReader>) => Promise<T>): Promise<T> => {
    const platform = createPlatform({ dataDir, log: silentLogger() });
    try {
      return await work(documentStoreReader(platform, { defaultProject: 'application_docs' }));
    } finally {
      await platform.close();
    }
  };
  const stored = (project: string) =>
    withStore(async (deps) => {
      const resolved = await resolveProject(deps, project);
      return resolved ? deps.store.count(resolved.info.name) : 0;
    });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-store-chunks-kill-'));
    // debug: a request's arrival is logged at debug (its answer at info), and the kill waits for the arrival
    env = { ...testModelEnv(), DATA_DIR: dataDir, LOG_LEVEL: 'debug', TOOL_TIMEOUT_S: '15' };
    if (distributed) {
      redis = await startRedis();
      env['REDIS_URL'] = redis.url;
    }
    const platform = createPlatform({ dataDir, log: silentLogger() });
    try {
      const deps = { ...documentStoreReader(platform, { defaultProject: 'application_docs' }) };
      const embedders = platform.embedders({ model: TEST_MODEL_ID, modelDir: testModelDir() });
      for (const project of ['papers', 'clean'])
        await createProject({ ...deps, embedders }, { project, chunking: CLIENT_CHUNKING });
    } finally {
      await platform.close();
    }
  }, 60_000);
  afterAll(async () => {
    for (const s of services.splice(0)) await s.stop();
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds none or all of the call after a restart; the retry equals a clean call; the check is clean', async () => {
    const first = await spawnService(ENTRY, 'DOCUMENT_STORE_PORT', env);
    services.push(first);
    const client = await connectMcp(first.baseUrl, 'streamable-http');
    // the session is open: the next POST /mcp the server logs is the store_chunks call
    // (its arrival line: the answer's line of the previous POST, the `initialized` notification, may come after connect)
    const killed = killAtLine(first, /"method":"POST","url":"\/mcp".*"msg":"incoming request"/);
    const call = client
      .callTool({ name: 'store_chunks', arguments: { project: 'papers', chunks: CHUNKS } }, undefined, {
        timeout: 60_000,
      })
      .catch((error: unknown) => error);
    expect(await killed).toContain('incoming request');
    services.splice(services.indexOf(first), 1);
    await client.close().catch(() => undefined);
    expect(await call).toHaveProperty('message');
    expect([0, CHUNKS.length]).toContain(await stored('papers'));

    const second = await spawnService(ENTRY, 'DOCUMENT_STORE_PORT', env);
    services.push(second);
    const client2 = await connectMcp(second.baseUrl, 'streamable-http');
    const store = async (project: string) =>
      (
        await client2.callTool({ name: 'store_chunks', arguments: { project, chunks: CHUNKS } }, undefined, {
          timeout: 60_000,
        })
      ).structuredContent as Stored;
    const retry = await store('papers');
    const clean = await store('clean');
    await client2.close();
    expect(retry).toMatchObject({ status: 'success', chunks_stored: CHUNKS.length });
    expect(retry.chunk_ids).toEqual(clean.chunk_ids); // deterministic ids: the same chunks
    expect(await stored('papers')).toBe(CHUNKS.length);
    expect(await withStore((deps) => checkConsistency(deps, { project: 'papers' }))).toMatchObject({
      chunks: CHUNKS.length,
      orphan_chunks: 0,
      consistent: true,
    });
  }, 120_000);
});
