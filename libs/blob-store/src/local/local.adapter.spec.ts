// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBlobStoreContract } from '../blob-store.contract.js';
import { LocalBlobStore } from './local.adapter.js';

const files = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

describe('BlobStore (local directory adapter)', () => {
  runBlobStoreContract(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lectern-blobs-'));
    const root = join(dir, 'blobs');
    return {
      open: async (limits) => new LocalBlobStore({ root, limits }),
      leftovers: () => files(root),
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  });
});
