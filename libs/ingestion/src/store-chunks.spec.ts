// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '@lectern/contracts';
import { resolveEmbedder, type Embedder } from '@lectern/embedding';
import { createVectorStore, type VectorStore } from '@lectern/vector-store';
import { runBounded } from './ingest-context.js';
import { isOutOfSpace } from './storage-errors.js';
import { storeChunks, type ChunkToStore, type StorePlan } from './store-chunks.js';

// storeChunks against a real embedded store (SQLite) and the bundled embedder: what a failed call leaves behind.
let dir: string;
let store: VectorStore;
let embedder: Embedder;
const COLLECTION = 'pipeline_test';

const chunk = (id: string): ChunkToStore => ({ id, text: `Chunk ${id} about the river crossing.`, payload: { n: id } });
const plan = (chunks: ChunkToStore[], extra: Partial<StorePlan> = {}): StorePlan => ({
  store,
  collection: COLLECTION,
  fingerprint: embedder.fingerprint,
  embedder,
  chunks,
  ...extra,
});
const ids = async (): Promise<string[]> =>
  (await store.scroll(COLLECTION, { limit: 1000 })).points.map((p) => p.id).sort();
const textOf = async (id: string): Promise<string | undefined> =>
  (await store.scroll(COLLECTION, { filter: { n: id }, limit: 1 })).points[0]?.text;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lectern-ingestion-'));
  store = createVectorStore({ dataDir: dir });
  embedder = await resolveEmbedder({ model: 'auto', cacheDir: join(dir, 'models') });
  await store.ensureCollection(COLLECTION, { fingerprint: embedder.fingerprint, hybrid: true });
}, 120_000);
afterAll(async () => {
  await embedder.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await store.deleteByFilter(COLLECTION, { n: { $in: ['a', 'b', 'c', 'd'] } });
});

describe('storeChunks', () => {
  it('writes the chunks, then the record last', async () => {
    const seen: string[][] = [];
    await runBounded({}, undefined, (ctx) =>
      storeChunks(plan([chunk('a'), chunk('b')], { record: async () => void seen.push(await ids()) }), ctx),
    );
    expect(await ids()).toEqual(['a', 'b']);
    expect(seen).toEqual([['a', 'b']]);
  });

  it('removes what the call wrote when the record fails, and leaves what existed before it', async () => {
    await runBounded({}, undefined, (ctx) => storeChunks(plan([chunk('a')]), ctx));
    const failing = plan([{ ...chunk('a'), text: 'Chunk a rewritten.' }, chunk('b'), chunk('c')], {
      existing: new Set(['a']),
      record: async () => {
        throw new AppError('registry_unavailable', 'the registry is down', { httpStatus: 503 });
      },
    });
    await expect(runBounded({}, undefined, (ctx) => storeChunks(failing, ctx))).rejects.toMatchObject({
      code: 'registry_unavailable',
    });
    expect(await ids()).toEqual(['a']);
    expect(await textOf('a')).toBe('Chunk a rewritten.');
  });

  it('turns a full disk into insufficient_storage (507) and removes what it wrote', async () => {
    const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const full = plan([chunk('b'), chunk('c')], {
      record: async () => {
        throw enospc;
      },
    });
    const error = await runBounded({}, undefined, (ctx) => storeChunks(full, ctx)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'insufficient_storage', httpStatus: 507 });
    expect((error as AppError).message).not.toContain('ENOSPC');
    expect(await ids()).toEqual([]);
  });

  it('stops before writing when the signal has fired, with the reason it was given', async () => {
    const controller = new AbortController();
    const reason = new AppError('TIMEOUT', 'too slow', { httpStatus: 504 });
    const stopping = plan([chunk('a'), chunk('b')], {
      beforeWrite: async () => controller.abort(reason),
    });
    await expect(
      runBounded({ signal: controller.signal }, undefined, (ctx) => storeChunks(stopping, ctx)),
    ).rejects.toBe(reason);
    expect(await ids()).toEqual([]);
  });

  it('answers timeout when its own deadline passes, cancelled when the caller aborts', async () => {
    const slow = plan([chunk('d')], { beforeWrite: () => new Promise((r) => setTimeout(r, 200)) });
    await expect(
      runBounded({}, { ms: 50, setting: 'INGEST_TIMEOUT_S' }, (ctx) => storeChunks(slow, ctx)),
    ).rejects.toMatchObject({ code: 'timeout', message: expect.stringContaining('INGEST_TIMEOUT_S') });
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      runBounded({ signal: aborted.signal }, undefined, (ctx) => storeChunks(plan([chunk('d')]), ctx)),
    ).rejects.toMatchObject({ code: 'cancelled' });
    expect(await ids()).toEqual([]);
  });
});

describe('isOutOfSpace', () => {
  it("recognises ENOSPC, SQLite's SQLITE_FULL and Qdrant's text, also as a cause, and nothing else", () => {
    expect(isOutOfSpace(Object.assign(new Error('x'), { code: 'SQLITE_FULL' }))).toBe(true);
    expect(isOutOfSpace(new Error('wrapped', { cause: Object.assign(new Error('w'), { code: 'ENOSPC' }) }))).toBe(true);
    expect(
      isOutOfSpace(
        Object.assign(new Error('Internal Server Error'), {
          data: { status: { error: 'Service internal error: No space left on device (os error 28)' } },
        }),
      ),
    ).toBe(true);
    expect(isOutOfSpace(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }))).toBe(false);
    expect(isOutOfSpace(new Error('connection refused'))).toBe(false);
  });
});
