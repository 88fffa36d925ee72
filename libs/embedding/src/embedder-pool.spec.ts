// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbedderPool } from './embedder-pool.js';

describe('EmbedderPool after close', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-pool-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('builds no embedder once closed: work still running at shutdown gets model_unavailable (503)', async () => {
    const pool = new EmbedderPool({ model: 'auto', cacheDir: dir });
    const before = await pool.configured();
    await pool.close();
    // The embedder built before close is closed with the pool.
    await expect(before.embed('still there?')).rejects.toMatchObject({ code: 'model_unavailable' });
    await expect(pool.configured()).rejects.toMatchObject({ code: 'model_unavailable', httpStatus: 503 });
    await expect(pool.for(before.fingerprint)).rejects.toMatchObject({ code: 'model_unavailable', httpStatus: 503 });
  });
});
