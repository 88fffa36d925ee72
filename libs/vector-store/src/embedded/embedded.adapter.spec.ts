import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runVectorStoreContract } from '../vector-store.contract.js';
import { EmbeddedVectorStore } from './embedded.adapter.js';

describe('VectorStore (embedded SQLite adapter)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-vs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  runVectorStoreContract(() => new EmbeddedVectorStore({ dataDir: dir }));
});

describe('VectorStore (embedded) filtered dense search beyond the first candidates', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-vs-filter-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the exact top-k of a selective filter whose points are far from the query, and of a broad one', async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    const fingerprint = { model_id: 'm', revision: 'r', dimension: 2, normalized: true };
    await store.ensureCollection('far', { fingerprint, hybrid: false });
    // 400 points on the unit circle; angle grows with i, so similarity to (1, 0) falls with i.
    const points = Array.from({ length: 400 }, (_, i) => {
      const a = (i / 400) * Math.PI;
      return { id: `p${String(i).padStart(3, '0')}`, vector: [Math.cos(a), Math.sin(a)], text: '', payload: { rare: i >= 395, even: i % 2 === 0 } };
    });
    await store.upsert('far', points, { fingerprint });
    const rare = await store.searchDense('far', [1, 0], { fingerprint, limit: 3, filter: { rare: true } });
    expect(rare.map((h) => h.id)).toEqual(['p395', 'p396', 'p397']);
    const even = await store.searchDense('far', [1, 0], { fingerprint, limit: 3, filter: { even: true } });
    expect(even.map((h) => h.id)).toEqual(['p000', 'p002', 'p004']);
    await store.close();
  });
});
