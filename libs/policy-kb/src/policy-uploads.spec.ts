// SPDX-License-Identifier: AGPL-3.0-or-later
import { LocalBlobStore } from '@lectern/blob-store';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolicyUploads, policyUploadsDir } from './policy-uploads.js';

describe('PolicyUploads', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'policy-uploads-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const upload = (dataDir: string, name = 'nppf.pdf'): string => {
    const dir = join(policyUploadsDir(dataDir), 'NPPF', 'f0e1d2c3');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), 'policy bytes');
    return join(dir, name);
  };

  it('distributed: a replica with another DATA_DIR fetches the upload from the blob store; remove deletes file and blob', async () => {
    const blobs = new LocalBlobStore({
      root: join(root, 'blobs'),
      limits: { ttlMs: 1000, maxBytes: 1e6, quotaBytes: 1e6 },
    });
    const a = new PolicyUploads({ dataDir: join(root, 'a'), blobs });
    const b = new PolicyUploads({ dataDir: join(root, 'b'), blobs });
    const path = upload(join(root, 'a'));
    await a.keep(path);
    await new Promise((r) => setTimeout(r, 1100)); // kept with no expiry, whatever the store's default TTL
    const fetched = await b.localPath(path);
    expect(fetched).toBe(join(policyUploadsDir(join(root, 'b')), 'NPPF', 'f0e1d2c3', 'nppf.pdf'));
    expect(readFileSync(fetched!, 'utf8')).toBe('policy bytes');
    await a.remove(path);
    expect(existsSync(path)).toBe(false);
    expect(await blobs.usedBytes()).toBe(0);
    rmSync(join(root, 'b'), { recursive: true, force: true });
    await expect(b.localPath(path)).resolves.toBeUndefined();
  });

  it('embedded: the file under DATA_DIR; paths that are not admin API uploads are never resolved nor removed', async () => {
    const dataDir = join(root, 'data');
    const uploads = new PolicyUploads({ dataDir });
    const path = upload(dataDir);
    await uploads.keep(path);
    await expect(uploads.localPath(path)).resolves.toBe(path);
    for (const other of [
      join(root, 'elsewhere', 'uploads', 'policies', 'a.pdf'),
      join(policyUploadsDir(dataDir), 'NPPF', '..', '..', 'x.pdf'),
      '/etc/passwd',
    ]) {
      await expect(uploads.localPath(other)).resolves.toBeUndefined();
      await uploads.remove(other);
    }
    expect(existsSync(path)).toBe(true);
  });
});
