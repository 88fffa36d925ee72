// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appErrorCode } from '@lectern/testing';
import { runVectorStoreContract } from '../vector-store.contract.js';
import type { Point } from '../vector-store.port.js';
import { EMBEDDED_DB_FILE, EmbeddedVectorStore } from './embedded.adapter.js';
import { SEARCH_YOUNG_GENERATION_MB, SearchPool, defaultSearchThreads } from './search-pool.js';

describe('VectorStore (embedded) with searches in worker threads (SEARCH_THREADS=2)', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-pool-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // One store (one pair of workers) for the whole contract: the contract closes its store after each test, which
  // this view leaves to afterAll (a worker costs ~30 ms to start on an idle machine, seconds on a loaded one).
  let shared: EmbeddedVectorStore | undefined;
  const view = (): EmbeddedVectorStore => {
    shared ??= new EmbeddedVectorStore({ dataDir: dir, searchThreads: 2 });
    const store = shared;
    return new Proxy(store, {
      get: (target, key) => (key === 'close' ? async () => undefined : (Reflect.get(target, key, target) as unknown)),
    });
  };
  runVectorStoreContract(view);
  afterAll(() => shared?.close());
});

const fingerprint = { model_id: 'm', revision: 'r', dimension: 8, normalized: true };
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'river', 'stone', 'bridge', 'policy', 'zone', 'height', 'parking'];

/** Deterministic points: pseudo-random vectors and texts (a small LCG, so every run builds the same set). */
const makePoints = (n: number): Point[] => {
  let seed = 7;
  const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  return Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    vector: Array.from({ length: 8 }, rnd),
    text: Array.from({ length: 6 }, () => WORDS[Math.floor(((rnd() + 1) / 2) * WORDS.length)]).join(' '),
    payload: { document_id: `d${i % 7}`, chunk_index: i },
  }));
};

describe('SearchPool', () => {
  let dir = '';
  let writer: EmbeddedVectorStore;
  let pooled: EmbeddedVectorStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-pool2-'));
    writer = new EmbeddedVectorStore({ dataDir: dir });
    pooled = new EmbeddedVectorStore({ dataDir: dir, searchThreads: 2 });
    await writer.ensureCollection('same', { fingerprint, hybrid: true });
    await writer.upsert('same', makePoints(400), { fingerprint });
  });
  afterAll(async () => {
    await writer.close();
    await pooled.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('defaults to min(4, cores) threads on more than one core, none on one', () => {
    expect([1, 2, 3, 8].map((n) => defaultSearchThreads(n))).toEqual([0, 2, 3, 4]);
  });

  it('answers dense, keyword and hybrid searches exactly as in-process, ordered by score', async () => {
    const queries = makePoints(12).map((p, i) => ({ vector: p.vector.map((x) => -x), text: `${WORDS[i % 11]} zone` }));
    for (const [i, q] of queries.entries()) {
      const filter = i % 2 === 0 ? { document_id: { $in: ['d1', 'd3'] } } : undefined;
      const common = { fingerprint, limit: 10, ...(filter ? { filter } : {}) };
      const pairs = await Promise.all(
        [
          [writer.searchDense('same', q.vector, common), pooled.searchDense('same', q.vector, common)],
          [writer.searchKeyword('same', q.text, common), pooled.searchKeyword('same', q.text, common)],
          [writer.searchHybrid('same', q, common), pooled.searchHybrid('same', q, common)],
          [
            writer.searchMany([{ name: 'same', vector: q.vector, fingerprint, text: q.text }], { limit: 5 }),
            pooled.searchMany([{ name: 'same', vector: q.vector, fingerprint, text: q.text }], { limit: 5 }),
          ],
        ].map((pair) => Promise.all(pair)),
      );
      for (const [inProcess, inWorker] of pairs) {
        expect(inWorker!.length).toBeGreaterThan(0);
        expect(inWorker).toEqual(inProcess);
        const scores = inWorker!.map((h) => h.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
      }
    }
  });

  it('passes the typed errors of a search through (unknown collection, no full-text index, bad vector)', async () => {
    await writer.ensureCollection('dense-only', { fingerprint, hybrid: false });
    const v = Array.from({ length: 8 }, () => 0.5);
    expect(await appErrorCode(pooled.searchDense('nope', v, { fingerprint, limit: 3 }))).toBe('INVALID_PROJECT');
    expect(await appErrorCode(pooled.searchKeyword('dense-only', 'x', { limit: 3 }))).toBe('HYBRID_NOT_SUPPORTED');
    expect(await appErrorCode(pooled.searchDense('same', [1, 2], { fingerprint, limit: 3 }))).toBe('invalid_arguments');
  });

  it("refuses or answers on the collection as it is now after another connection re-made it (the early check's memory)", async () => {
    const other = { ...fingerprint, revision: 'r2' };
    const v = Array.from({ length: 8 }, () => 0.5);
    await writer.ensureCollection('remade', { fingerprint, hybrid: false });
    await writer.upsert('remade', makePoints(5), { fingerprint });
    expect(await pooled.searchDense('remade', v, { fingerprint, limit: 3 })).toHaveLength(3);
    await writer.ensureCollection('remade', { fingerprint: other, hybrid: true, migrate: true }); // emptied, new model
    await writer.upsert('remade', makePoints(2), { fingerprint: other });
    expect(await appErrorCode(pooled.searchDense('remade', v, { fingerprint, limit: 3 }))).toBe('EMBEDDING_MISMATCH');
    expect(await pooled.searchDense('remade', v, { fingerprint: other, limit: 3 })).toHaveLength(2);
    // it has a full-text index now: the early check's memory (no index) does not refuse
    expect((await pooled.searchKeyword('remade', WORDS.join(' '), { limit: 3 })).length).toBeGreaterThan(0);
    await writer.dropCollection('remade');
    expect(await appErrorCode(pooled.searchDense('remade', v, { fingerprint: other, limit: 3 }))).toBe(
      'INVALID_PROJECT',
    );
  });

  it('sees every write that has returned (read-your-writes), on every worker', async () => {
    await writer.ensureCollection('ryw', { fingerprint, hybrid: true });
    await writer.upsert('ryw', makePoints(50), { fingerprint });
    const probe = Array.from({ length: 8 }, (_, j) => (j === 0 ? 1 : 0));
    for (let round = 0; round < 8; round++) {
      const id = `new${round}`;
      // the pooled store writes: its workers must see its own write at once
      const store = round % 2 === 0 ? pooled : writer;
      await store.upsert('ryw', [{ id, vector: probe, text: `unique${round}word`, payload: {} }], { fingerprint });
      // two searches at once: both workers answer, both must see the write
      const [dense, keyword] = await Promise.all([
        pooled.searchDense('ryw', probe, { fingerprint, limit: 1 }),
        pooled.searchKeyword('ryw', `unique${round}word`, { limit: 5 }),
      ]);
      expect(dense.map((h) => h.id)).toEqual([id]);
      expect(keyword.map((h) => h.id)).toEqual([id]);
      await store.deleteByIds('ryw', [id]);
      const [after, afterKeyword] = await Promise.all([
        pooled.searchDense('ryw', probe, { fingerprint, limit: 1 }),
        pooled.searchKeyword('ryw', `unique${round}word`, { limit: 5 }),
      ]);
      expect(after.map((h) => h.id)).not.toContain(id);
      expect(afterKeyword).toEqual([]);
    }
    expect(pooled.searchPool?.workers.length).toBe(2);
  });
});

describe('SearchPool failures', () => {
  let dir = '';
  let writer: EmbeddedVectorStore;
  const v = Array.from({ length: 8 }, (_, j) => (j === 1 ? 1 : 0));
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-pool3-'));
    writer = new EmbeddedVectorStore({ dataDir: dir });
    await writer.ensureCollection('c', { fingerprint, hybrid: true });
    await writer.upsert('c', makePoints(20), { fingerprint });
  });
  afterAll(async () => {
    await writer.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const open = (maxQueued?: number): SearchPool =>
    new SearchPool({
      file: join(dir, EMBEDDED_DB_FILE),
      prefix: 'lectern_',
      fusion: {},
      threads: 1,
      testHooks: true,
      ...(maxQueued !== undefined ? { maxQueued } : {}),
    });

  it('fails the searches of a worker killed mid-query with a typed error, and the next search works', async () => {
    const pool = open();
    expect(await pool.searchDense('c', v, { fingerprint, limit: 1 })).toHaveLength(1);
    const held = pool.stall(10_000);
    const queued = pool.searchDense('c', v, { fingerprint, limit: 1 });
    const [worker] = pool.workers;
    await worker!.terminate();
    expect(await appErrorCode(held)).toBe('dependency_unavailable');
    expect(await appErrorCode(queued)).toBe('dependency_unavailable');
    expect(pool.queued).toBe(0);
    const again = await pool.searchDense('c', v, { fingerprint, limit: 1 });
    expect(again).toHaveLength(1);
    expect(pool.workers).toHaveLength(1);
    expect(pool.workers[0]).not.toBe(worker);
    await pool.close();
  });

  it('refuses a search beyond its queue with the typed busy error, and serves the next once there is room', async () => {
    const pool = open(2);
    const held = pool.stall(300);
    const queued = pool.searchDense('c', v, { fingerprint, limit: 1 });
    expect(await appErrorCode(pool.searchDense('c', v, { fingerprint, limit: 1 }))).toBe('overloaded');
    await held;
    expect(await queued).toHaveLength(1);
    expect(await pool.searchDense('c', v, { fingerprint, limit: 1 })).toHaveLength(1);
    await pool.close();
  });

  it('fails searches in flight at close with shutting_down, and refuses any after', async () => {
    const pool = open();
    const held = pool.stall(10_000);
    const closing = pool.close();
    expect(await appErrorCode(held)).toBe('shutting_down');
    await closing;
    expect(await appErrorCode(pool.searchDense('c', v, { fingerprint, limit: 1 }))).toBe('shutting_down');
  });
});

describe('SearchPool: one shared matrix per collection version for all its workers', () => {
  let dir = '';
  let writer: EmbeddedVectorStore;
  let pool: SearchPool;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-pool4-'));
    writer = new EmbeddedVectorStore({ dataDir: dir });
    await writer.ensureCollection('s', { fingerprint, hybrid: true });
    await writer.upsert('s', makePoints(1000), { fingerprint });
    pool = new SearchPool({ file: join(dir, EMBEDDED_DB_FILE), prefix: 'lectern_', fusion: {}, threads: 2 });
  });
  afterAll(async () => {
    await pool.close();
    await writer.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const queries = makePoints(6).map((p) => p.vector.map((x) => -x));
  /** Every query on both workers at once (two in flight: one per worker), each answer equal to in-process. */
  const agree = async (): Promise<void> => {
    for (const q of queries) {
      const filter = { document_id: { $in: ['d2', 'd5'] } };
      const [inProcess, a, b, filtered, expectFiltered] = await Promise.all([
        writer.searchDense('s', q, { fingerprint, limit: 10 }),
        pool.searchDense('s', q, { fingerprint, limit: 10 }),
        pool.searchDense('s', q, { fingerprint, limit: 10 }),
        pool.searchHybrid('s', { vector: q, text: 'river stone' }, { fingerprint, limit: 8, filter }),
        writer.searchHybrid('s', { vector: q, text: 'river stone' }, { fingerprint, limit: 8, filter }),
      ]);
      expect(inProcess).toHaveLength(10);
      expect(a).toEqual(inProcess);
      expect(b).toEqual(inProcess);
      expect(filtered).toEqual(expectFiltered);
    }
  };

  it('builds the matrix once for two workers, and each write since is caught up without another build', async () => {
    await agree();
    expect(pool.workers).toHaveLength(2);
    expect(pool.matricesBuilt).toBe(1);
    // their memory is bounded (load.md, "Memory"): a small young generation each; reads without a memory map
    expect(pool.workers.map((w) => w.resourceLimits?.maxYoungGenerationSizeMb)).toEqual([
      SEARCH_YOUNG_GENERATION_MB,
      SEARCH_YOUNG_GENERATION_MB,
    ]);
    const moved = makePoints(40).map((p, i) => ({ ...p, vector: p.vector.map((x) => x * (i % 2 ? -1 : 0.5)) }));
    for (let round = 0; round < 4; round++) {
      // replace 10 vectors of the shared matrix, add 5 new points, delete 3 of the shared ones
      await writer.upsert('s', moved.slice(round * 10, round * 10 + 10), { fingerprint });
      await writer.upsert(
        's',
        makePoints(5).map((p, i) => ({ ...p, id: `r${round}-${i}` })),
        { fingerprint },
      );
      await writer.deleteByIds('s', [`p${500 + round}`, `p${600 + round}`, `p${700 + round}`]);
      await agree();
    }
    expect(pool.matricesBuilt).toBe(1);
  });

  it('past compactAfter changes, one worker merges them into a new shared matrix (still equal to in-process)', async () => {
    const before = pool.matricesBuilt;
    await writer.upsert(
      's',
      makePoints(4200).map((p) => ({ ...p, id: `big-${p.id}` })),
      { fingerprint },
    );
    await agree();
    // the merge runs after the search that found the changes: a few more searches give it the turn to arrive
    for (let i = 0; i < 100 && pool.matricesBuilt === before; i++)
      await pool.searchDense('s', queries[0]!, { fingerprint, limit: 1 });
    expect(pool.matricesBuilt).toBe(before + 1);
    await agree();
    expect(pool.matricesBuilt).toBe(before + 1);
  });

  it('stops workers left idle and lets go of the shared matrices; the next search starts again', async () => {
    const idle = new SearchPool({
      file: join(dir, EMBEDDED_DB_FILE),
      prefix: 'lectern_',
      fusion: {},
      threads: 2,
      idleReleaseMs: 200,
    });
    try {
      const q = queries[0]!;
      const expected = await writer.searchDense('s', q, { fingerprint, limit: 5 });
      expect(await Promise.all([1, 2].map(() => idle.searchDense('s', q, { fingerprint, limit: 5 })))).toEqual([
        expected,
        expected,
      ]);
      // wait for the idle release (a condition, not a duration: a loaded machine takes longer)
      for (let i = 0; i < 500 && idle.workers.length > 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(idle.workers).toHaveLength(0);
      expect(idle.matricesBuilt).toBe(1);
      expect(await idle.searchDense('s', q, { fingerprint, limit: 5 })).toEqual(expected);
      expect(idle.matricesBuilt).toBe(2); // built again: nothing was kept
    } finally {
      await idle.close();
    }
  });

  it('lets go of a dropped collection, and builds a new matrix for its successor of the same name', async () => {
    const before = pool.matricesBuilt;
    await writer.dropCollection('s');
    await writer.ensureCollection('s', { fingerprint, hybrid: true });
    await writer.upsert('s', makePoints(300), { fingerprint });
    await agree();
    expect(pool.matricesBuilt).toBeGreaterThan(before);
  });
});
