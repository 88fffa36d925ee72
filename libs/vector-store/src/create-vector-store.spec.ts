// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVectorStore, EMBEDDED_DB_FILE } from './index.js';

describe('createVectorStore', () => {
  it('picks the embedded store without a Qdrant URL, with one database file under the data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-vs-factory-'));
    const store = createVectorStore({ dataDir: dir, qdrantUrl: '' });
    expect(store.engine).toBe('embedded');
    await store.ensureCollection('p1', {
      fingerprint: { model_id: 'm', revision: 'r', dimension: 2, normalized: true },
      hybrid: true,
    });
    expect(existsSync(join(dir, EMBEDDED_DB_FILE))).toBe(true);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('picks Qdrant when a URL is given', async () => {
    const store = createVectorStore({ dataDir: '/nonexistent', qdrantUrl: 'http://127.0.0.1:1' });
    expect(store.engine).toBe('qdrant');
    await store.close();
  });
});
