// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runVectorStoreContract } from '../vector-store.contract.js';
import type { ScrollOptions } from '../vector-store.port.js';
import { EmbeddedVectorStore } from './embedded.adapter.js';

describe('VectorStore (embedded SQLite adapter)', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  runVectorStoreContract(() => new EmbeddedVectorStore({ dataDir: dir }));
});

describe('VectorStore (embedded) filtered dense search beyond the first candidates', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-filter-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the exact top-k of a selective filter whose points are far from the query, and of a broad one', async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    const fingerprint = { model_id: 'm', revision: 'r', dimension: 2, normalized: true };
    await store.ensureCollection('far', { fingerprint, hybrid: false });
    // 400 points on the unit circle; angle grows with i, so similarity to (1, 0) falls with i.
    const points = Array.from({ length: 400 }, (_, i) => {
      const a = (i / 400) * Math.PI;
      return {
        id: `p${String(i).padStart(3, '0')}`,
        vector: [Math.cos(a), Math.sin(a)],
        text: '',
        payload: { rare: i >= 395, even: i % 2 === 0 },
      };
    });
    await store.upsert('far', points, { fingerprint });
    const rare = await store.searchDense('far', [1, 0], { fingerprint, limit: 3, filter: { rare: true } });
    expect(rare.map((h) => h.id)).toEqual(['p395', 'p396', 'p397']);
    const even = await store.searchDense('far', [1, 0], { fingerprint, limit: 3, filter: { even: true } });
    expect(even.map((h) => h.id)).toEqual(['p000', 'p002', 'p004']);
    await store.close();
  });

  it('takes an $in of thousands of values (a store_chunks naming thousands of documents) and keeps its types', async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    const fingerprint = { model_id: 'm', revision: 'r', dimension: 2, normalized: true };
    await store.ensureCollection('many', { fingerprint, hybrid: true });
    const points = Array.from({ length: 30 }, (_, i) => ({
      id: `q${i}`,
      vector: [1, i / 30],
      text: `chunk ${i}`,
      payload: { document_id: `doc-${i}`, n: i, flag: i === 29 },
    }));
    await store.upsert('many', points, { fingerprint });
    // 5,000 ids, of which doc-3 and doc-7 exist: one OR per value used to pass SQLite's expression depth limit
    const wanted = [...Array.from({ length: 4998 }, (_, i) => `missing-${i}`), 'doc-3', 'doc-7'];
    const ids = async (filter: ScrollOptions['filter']) =>
      (await store.scroll('many', { filter, limit: 100, cursor: null })).points.map((p) => p.id).sort();
    expect(await ids({ document_id: { $in: wanted } })).toEqual(['q3', 'q7']);
    // a number is not the string of it, and booleans match booleans only
    expect(await ids({ n: { $in: [5, '6', 4.0] } })).toEqual(['q4', 'q5']);
    expect(await ids({ flag: { $in: [true, 'true'] } })).toEqual(['q29']);
    const hits = await store.searchHybrid(
      'many',
      { vector: [1, 0], text: 'chunk' },
      { fingerprint, limit: 10, filter: { document_id: { $in: wanted } } },
    );
    expect(hits.map((h) => h.id).sort()).toEqual(['q3', 'q7']);
    await store.deleteByFilter('many', { document_id: { $in: wanted } });
    expect(await ids(undefined)).toHaveLength(28);
    await store.close();
  });
});

describe('VectorStore (embedded) with two connections, as two processes', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-two-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a reader's loaded matrix follows another writer's upserts, replacements and deletions", async () => {
    const fingerprint = { model_id: 'm', revision: 'r', dimension: 3, normalized: true };
    const writer = new EmbeddedVectorStore({ dataDir: dir });
    const reader = new EmbeddedVectorStore({ dataDir: dir });
    await writer.ensureCollection('shared', { fingerprint, hybrid: true });
    const p = (id: string, v: number[]) => ({ id, vector: v, text: `text ${id}`, payload: { id } });
    await writer.upsert('shared', [p('x', [1, 0, 0]), p('y', [0, 1, 0]), p('z', [0, 0, 1])], { fingerprint });
    const top = async (v: number[]) => (await reader.searchDense('shared', v, { fingerprint, limit: 1 }))[0]?.id;
    expect(await top([1, 0, 0])).toBe('x'); // the reader loads its matrix here

    await writer.deleteByIds('shared', ['x']);
    await writer.upsert('shared', [p('y', [1, 0.1, 0]), p('w', [0, 0.1, 1])], { fingerprint });
    expect(await top([1, 0, 0])).toBe('y');
    expect(await top([0, 0, 1])).toBe('z');
    expect((await reader.searchDense('shared', [0, 1, 0], { fingerprint, limit: 10 })).map((h) => h.id).sort()).toEqual(
      ['w', 'y', 'z'],
    );
    await writer.deleteByFilter('shared', { id: { $in: ['y', 'z'] } });
    expect((await reader.searchDense('shared', [1, 1, 1], { fingerprint, limit: 10 })).map((h) => h.id)).toEqual(['w']);
    expect((await reader.searchKeyword('shared', 'text', { limit: 10 })).map((h) => h.id)).toEqual(['w']);
    await writer.close();
    await reader.close();
  });
});

describe('VectorStore (embedded) loading a large matrix while another connection writes', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-warm-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads in slices, yielding to the event loop, and replays writes made during the load', async () => {
    const fingerprint = { model_id: 'm', revision: 'r', dimension: 4, normalized: true };
    const writer = new EmbeddedVectorStore({ dataDir: dir });
    await writer.ensureCollection('big', { fingerprint, hybrid: false });
    const points = Array.from({ length: 10_000 }, (_, i) => ({
      id: `p${String(i).padStart(5, '0')}`,
      vector: [1, (i + 1) / 1000, 0, 0],
      text: '',
      payload: {},
    }));
    await writer.upsert('big', points, { fingerprint });
    const reader = new EmbeddedVectorStore({ dataDir: dir });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const pending = reader.searchDense('big', [1, 0, 0, 0], { fingerprint, limit: 3 });
    // The reader has loaded its first slice and yielded; the writer changes rows on both sides of it.
    await writer.deleteByIds('big', ['p00000', 'p09999']);
    await writer.upsert('big', [{ id: 'new', vector: [1, 0, 0, 0], text: '', payload: {} }], { fingerprint });
    const hits = await pending;
    clearInterval(ticker);
    expect(ticks).toBeGreaterThan(0);
    expect(hits.map((h) => h.id)).toEqual(['new', 'p00001', 'p00002']);
    expect((await reader.searchDense('big', [0, 1, 0, 0], { fingerprint, limit: 1 }))[0]?.id).toBe('p09998');
    await writer.close();
    await reader.close();
  });
});

describe('VectorStore (embedded) getCollection: the points count it keeps between writes', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-count-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("follows every write, this process's and another connection's, and starts again for a collection made anew", async () => {
    const reader = new EmbeddedVectorStore({ dataDir: dir });
    const writer = new EmbeddedVectorStore({ dataDir: dir });
    const fingerprint = { model_id: 'm', revision: 'r', dimension: 2, normalized: true };
    const points = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `p${from + i}`, vector: [1, i], text: `t${i}`, payload: {} }));
    const count = async () => (await reader.getCollection('c'))?.pointsCount;
    await reader.ensureCollection('c', { fingerprint, hybrid: true });
    expect(await count()).toBe(0);
    await reader.upsert('c', points(0, 3), { fingerprint });
    expect(await count()).toBe(3);
    expect(await count()).toBe(3);
    await writer.upsert('c', points(3, 4), { fingerprint }); // the other connection writes
    expect(await count()).toBe(7);
    await writer.deleteByIds('c', ['p0', 'p1']);
    expect(await count()).toBe(5);
    await reader.deleteByFilter('c', { $and: [{ document_id: 'none' }] }); // deletes nothing: no new version
    expect(await count()).toBe(5);
    await writer.dropCollection('c');
    expect(await reader.getCollection('c')).toBeNull();
    await writer.ensureCollection('c', { fingerprint, hybrid: false });
    expect(await count()).toBe(0);
    await writer.upsert('c', points(0, 2), { fingerprint });
    expect(await count()).toBe(2);
    expect((await reader.listCollections()).map((c) => c.pointsCount)).toEqual([2]);
    await reader.close();
    await writer.close();
  });
});
