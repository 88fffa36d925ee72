// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import {
  blobQuotaExceeded,
  blobTooLarge,
  checkBlobKey,
  chunksOf,
  effectiveTtlMs,
  type BlobInfo,
  type BlobLimits,
  type BlobStore,
  type PutOptions,
} from '../blob-store.port.js';

export interface LocalBlobStoreOptions {
  /** The directory holding the blobs (created if missing), e.g. `<DATA_DIR>/blobs`. */
  root: string;
  limits: BlobLimits;
}

const MetaSchema = z.object({
  object: z.string().uuid(),
  byteSize: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  expiresAt: z.number().nullable(),
});
type Meta = z.infer<typeof MetaSchema>;

const SUFFIX = '.blob.json';

/**
 * Blobs in a local directory (embedded mode): each key's metadata in `keys/<key>.blob.json` (size, SHA-256,
 * expiry, and the object file it names), the bytes in `objects/<uuid>`. A put streams into a new object (hashing
 * and counting on the way), then renames its metadata into place — the one atomic step — and removes the
 * object it replaced, so a reader sees the old blob or the new one. Expired blobs read as missing and are removed
 * when the store is next measured. One process writes a directory; the quota is checked against what is stored
 * when a put starts plus what it has written (concurrent puts in one process may together pass it by one blob).
 */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const;
  readonly limits: BlobLimits;
  private readonly root: string;

  constructor(options: LocalBlobStoreOptions) {
    this.root = resolve(options.root);
    this.limits = options.limits;
  }

  private metaPath(key: string): string {
    return join(this.root, 'keys', `${checkBlobKey(key)}${SUFFIX}`);
  }

  private objectPath(object: string): string {
    return join(this.root, 'objects', object);
  }

  /** The metadata at `path`, expired or not (undefined when missing or unreadable). */
  private readMetaFile(path: string): Promise<Meta | undefined> {
    return readFile(path, 'utf8')
      .then((text) => MetaSchema.safeParse(JSON.parse(text)).data)
      .catch(() => undefined);
  }

  /** The live metadata of `key`. */
  private async readMeta(key: string): Promise<Meta | undefined> {
    const meta = await this.readMetaFile(this.metaPath(key));
    return meta && (meta.expiresAt === null || meta.expiresAt > Date.now()) ? meta : undefined;
  }

  async put(key: string, source: Uint8Array | AsyncIterable<Uint8Array>, options: PutOptions = {}): Promise<BlobInfo> {
    const metaPath = this.metaPath(key);
    const ttl = effectiveTtlMs(this.limits, options);
    const room = this.limits.quotaBytes - (await this.usedBytes());
    const object = randomUUID();
    const objectPath = this.objectPath(object);
    await mkdir(dirname(objectPath), { recursive: true });
    const hash = createHash('sha256');
    let byteSize = 0;
    const { maxBytes } = this.limits;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        byteSize += chunk.length;
        if (byteSize > maxBytes) return callback(blobTooLarge(maxBytes));
        if (byteSize > room) return callback(blobQuotaExceeded());
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    try {
      await pipeline(chunksOf(source), meter, createWriteStream(objectPath, { flags: 'wx' }));
      const meta: Meta = {
        object,
        byteSize,
        sha256: hash.digest('hex'),
        expiresAt: ttl === null ? null : Date.now() + ttl,
      };
      const previous = await this.readMeta(key);
      await mkdir(dirname(metaPath), { recursive: true });
      const tmp = `${metaPath}.${randomUUID()}.tmp`;
      await writeFile(tmp, JSON.stringify(meta));
      await rename(tmp, metaPath);
      if (previous && previous.object !== object) await rm(this.objectPath(previous.object), { force: true });
      return { byteSize: meta.byteSize, sha256: meta.sha256 };
    } catch (error) {
      await rm(objectPath, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    const meta = await this.readMeta(key);
    if (!meta) return undefined;
    return readFile(this.objectPath(meta.object)).catch(() => undefined);
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    const meta = await this.readMeta(key);
    return meta ? { byteSize: meta.byteSize, sha256: meta.sha256 } : undefined;
  }

  async download(key: string, path: string): Promise<boolean> {
    const meta = await this.readMeta(key);
    if (!meta) return false;
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${randomUUID()}.tmp`;
    try {
      await pipeline(createReadStream(this.objectPath(meta.object)), createWriteStream(tmp, { flags: 'wx' }));
      await rename(tmp, path);
      return true;
    } catch (error) {
      await rm(tmp, { force: true });
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false; // replaced or deleted meanwhile
      throw error;
    }
  }

  async delete(key: string): Promise<boolean> {
    const metaPath = this.metaPath(key);
    const meta = await this.readMetaFile(metaPath);
    await rm(metaPath, { force: true });
    if (meta) await rm(this.objectPath(meta.object), { force: true });
    return meta !== undefined && (meta.expiresAt === null || meta.expiresAt > Date.now());
  }

  async usedBytes(): Promise<number> {
    let total = 0;
    const now = Date.now();
    for await (const path of this.metaFiles(join(this.root, 'keys'))) {
      const parsed = await this.readMetaFile(path);
      if (!parsed) continue;
      if (parsed.expiresAt !== null && parsed.expiresAt <= now) {
        await rm(path, { force: true });
        await rm(this.objectPath(parsed.object), { force: true });
        continue;
      }
      total += parsed.byteSize;
    }
    return total;
  }

  private async *metaFiles(dir: string): AsyncGenerator<string> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) yield* this.metaFiles(path);
      else if (entry.name.endsWith(SUFFIX)) yield path;
    }
  }

  async close(): Promise<void> {}
}
