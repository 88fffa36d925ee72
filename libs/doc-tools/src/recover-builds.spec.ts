// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@lectern/testing';
import { sweepInterruptedIndexBuilds } from './recover-builds.js';

describe('sweepInterruptedIndexBuilds (recovery at start of the index cache)', () => {
  let cache: string;
  beforeEach(() => {
    cache = mkdtempSync(join(tmpdir(), 'lectern-index-sweep-'));
  });
  afterEach(() => rmSync(cache, { recursive: true, force: true }));

  const plant = (path: string, ageMs: number, file = false) => {
    if (file) writeFileSync(path, '{"vec');
    else mkdirSync(path, { recursive: true });
    const at = new Date(Date.now() - ageMs);
    utimesSync(path, at, at);
  };

  it('removes what interrupted builds left, keeps complete indexes, and spares young leftovers when asked', async () => {
    const index = join(cache, 'a'.repeat(64));
    plant(index, 3_600_000);
    writeFileSync(join(index, 'index.json'), '{}');
    plant(join(cache, '.building-old-1'), 3_600_000);
    plant(join(cache, '.replaced-old-2'), 3_600_000);
    plant(join(cache, '.building-young-3'), 1_000);
    plant(join(index, '.embeddings-0badf00d.json'), 3_600_000, true);
    const log = silentLogger();

    // replicas share the cache: only leftovers older than the index timeout go
    expect(await sweepInterruptedIndexBuilds(cache, { olderThanMs: 600_000, log })).toBe(3);
    expect(existsSync(join(cache, '.building-young-3'))).toBe(true);
    expect(existsSync(join(cache, '.building-old-1'))).toBe(false);
    expect(existsSync(join(cache, '.replaced-old-2'))).toBe(false);
    expect(existsSync(join(index, '.embeddings-0badf00d.json'))).toBe(false);

    // this process owns the cache: everything temporary goes; the index stays; a second run finds nothing
    expect(await sweepInterruptedIndexBuilds(cache, { olderThanMs: 0, log })).toBe(1);
    expect(existsSync(join(index, 'index.json'))).toBe(true);
    expect(await sweepInterruptedIndexBuilds(cache, { olderThanMs: 0, log })).toBe(0);
    expect(await sweepInterruptedIndexBuilds(join(cache, 'missing'), { olderThanMs: 0, log })).toBe(0);
  });
});
