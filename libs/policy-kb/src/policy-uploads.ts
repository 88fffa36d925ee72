// SPDX-License-Identifier: AGPL-3.0-or-later
import type { BlobStore } from '@lectern/blob-store';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, rm } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/** Where the admin API keeps uploaded revision files (kept: a reindex, or recovery, reads them again). */
export const policyUploadsDir = (dataDir: string): string => resolve(dataDir, 'uploads', 'policies');

const MARKER = `${sep}uploads${sep}policies${sep}`;

/**
 * The part of an upload's path below `uploads/policies/` (`<source>/<uuid>/<name>`), whichever replica's DATA_DIR
 * it was written under; undefined for a path that is not an admin API upload.
 */
const uploadTail = (path: string): string | undefined => {
  const at = path.lastIndexOf(MARKER);
  if (at < 0) return undefined;
  const tail = path.slice(at + MARKER.length);
  const parts = tail.split(sep);
  // exactly <source>/<uuid>/<name>, as the admin API writes them
  return parts.length === 3 && parts.every((p) => p.length > 0 && p !== '..' && p !== '.') ? tail : undefined;
};

/**
 * The policy revision uploads. Embedded: files under `DATA_DIR/uploads/policies/<source>/<uuid>/`. Distributed
 * (`blobs`): also in the blob store with no expiry (`policy/uploads/<sha256 of source/uuid/name>`, deleted with
 * the revision), so the replica that runs the `policy-ingest` job, or recovers a revision at start, fetches the file
 * into its own DATA_DIR: no directory is shared, and a revision's upload survives the pod that received it.
 */
export class PolicyUploads {
  readonly dir: string;

  constructor(private readonly options: { dataDir: string; blobs?: BlobStore | undefined }) {
    this.dir = policyUploadsDir(options.dataDir);
  }

  private key(tail: string): string {
    return `policy/uploads/${createHash('sha256').update(tail.split(sep).join('/')).digest('hex')}`;
  }

  /** After the admin API received `path` (under this DATA_DIR): kept in the blob store too when distributed. */
  async keep(path: string): Promise<void> {
    const tail = uploadTail(path);
    if (!this.options.blobs || !tail) return;
    await this.options.blobs.put(this.key(tail), createReadStream(path), { ttlMs: null });
  }

  /**
   * The upload `path` (as recorded by any replica) on this machine: under this DATA_DIR, fetched from the blob store
   * when missing. Undefined when it is not an admin API upload or is nowhere.
   */
  async localPath(path: string): Promise<string | undefined> {
    const tail = uploadTail(path);
    if (!tail) return undefined;
    const here = join(this.dir, tail);
    if (
      await access(here).then(
        () => true,
        () => false,
      )
    )
      return here;
    if (!this.options.blobs) return undefined;
    return (await this.options.blobs.download(this.key(tail), here)) ? here : undefined;
  }

  /** Delete the upload (its directory here, and its blob). */
  async remove(path: string): Promise<void> {
    const tail = uploadTail(path);
    if (!tail) return;
    await rm(dirname(join(this.dir, tail)), { recursive: true, force: true });
    if (this.options.blobs) await this.options.blobs.delete(this.key(tail));
  }
}
