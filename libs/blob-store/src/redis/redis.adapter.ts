// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Redis } from 'ioredis';
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

export interface RedisBlobStoreOptions {
  url: string;
  /** Prepended to every key (default `lectern:blob:`; tests give each run its own). */
  keyPrefix?: string | undefined;
  limits: BlobLimits;
  /** Bytes per Redis value (default 1 MiB): large values would block Redis while they are copied. */
  chunkBytes?: number | undefined;
  /** How long a write in progress holds its room and its chunks if its writer dies (default 15 min). */
  writeLeaseMs?: number | undefined;
}

/**
 * Releases what expired (at most 100 generations a call), then reserves ARGV[2] bytes for generation ARGV[1]
 * until ARGV[3] (ms since the epoch) if the quota ARGV[4] allows; 1 when reserved, 0 when the quota is reached.
 * KEYS: used (counter), sizes (hash generation -> bytes), expiry (sorted set generation -> expiry in ms).
 */
const RESERVE = `
local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[5], 'LIMIT', 0, 100)
for _, g in ipairs(expired) do
  redis.call('DECRBY', KEYS[1], tonumber(redis.call('HGET', KEYS[2], g) or '0'))
  redis.call('HDEL', KEYS[2], g)
  redis.call('ZREM', KEYS[3], g)
end
local bytes = tonumber(ARGV[2])
if bytes == 0 then return 1 end
if tonumber(redis.call('GET', KEYS[1]) or '0') + bytes > tonumber(ARGV[4]) then return 0 end
redis.call('INCRBY', KEYS[1], bytes)
redis.call('HINCRBY', KEYS[2], ARGV[1], bytes)
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return 1
`;

/**
 * Makes generation ARGV[1] the blob of KEYS[4] (its metadata hash): size, SHA-256, chunk count, expiry ARGV[5]
 * (ms since the epoch, or '' for none). Releases the generation it replaces and returns it with its chunk count
 * (the caller deletes those chunks), else an empty array.
 */
const COMMIT = `
local old = redis.call('HMGET', KEYS[4], 'gen', 'chunks')
redis.call('DEL', KEYS[4])
redis.call('HSET', KEYS[4], 'gen', ARGV[1], 'size', ARGV[2], 'sha256', ARGV[3], 'chunks', ARGV[4])
if ARGV[5] == '' then
  redis.call('ZADD', KEYS[3], '+inf', ARGV[1])
else
  redis.call('PEXPIREAT', KEYS[4], ARGV[5])
  redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
end
if old[1] and old[1] ~= ARGV[1] then
  redis.call('DECRBY', KEYS[1], tonumber(redis.call('HGET', KEYS[2], old[1]) or '0'))
  redis.call('HDEL', KEYS[2], old[1])
  redis.call('ZREM', KEYS[3], old[1])
  return {old[1], old[2]}
end
return {}
`;

/** Gives back generation ARGV[1]'s room (a write refused or failed). */
const RELEASE = `
redis.call('DECRBY', KEYS[1], tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0'))
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1
`;

/** Deletes the blob KEYS[4] and releases its generation; returns {generation, chunks} or an empty array. */
const DELETE = `
local old = redis.call('HMGET', KEYS[4], 'gen', 'chunks')
if not old[1] then return {} end
redis.call('DEL', KEYS[4])
redis.call('DECRBY', KEYS[1], tonumber(redis.call('HGET', KEYS[2], old[1]) or '0'))
redis.call('HDEL', KEYS[2], old[1])
redis.call('ZREM', KEYS[3], old[1])
return {old[1], old[2]}
`;

type Scripts = Redis & {
  blobReserve(used: string, sizes: string, expiry: string, ...args: Array<string | number>): Promise<number>;
  blobCommit(
    used: string,
    sizes: string,
    expiry: string,
    meta: string,
    ...args: Array<string | number>
  ): Promise<string[]>;
  blobRelease(used: string, sizes: string, expiry: string, generation: string): Promise<number>;
  blobDelete(used: string, sizes: string, expiry: string, meta: string): Promise<string[]>;
};

/**
 * Blobs in Redis (distributed mode): no directory in common between pods. A blob is a metadata hash
 * (`<prefix>meta:<key>`: generation, size, SHA-256, chunk count) and its chunks (`<prefix>chunk:<generation>:<n>`,
 * `chunkBytes` each), all expiring together. A put reserves room chunk by chunk against the quota (a Lua script
 * over a byte counter, the sizes per generation and their expiries, so expired blobs give their room back), writes
 * the chunks under a new generation, then switches the metadata in one script and deletes the chunks it replaced:
 * a reader that started on the old generation finds a chunk missing and reads the blob as missing, never mixed.
 * A writer that dies holds its room and chunks until its write lease ends.
 */
export class RedisBlobStore implements BlobStore {
  readonly kind = 'redis' as const;
  readonly limits: BlobLimits;
  private readonly redis: Scripts;
  private readonly prefix: string;
  private readonly chunkBytes: number;
  private readonly leaseMs: number;

  constructor(options: RedisBlobStoreOptions) {
    this.limits = options.limits;
    this.prefix = options.keyPrefix ?? 'lectern:blob:';
    this.chunkBytes = options.chunkBytes ?? 1024 * 1024;
    this.leaseMs = options.writeLeaseMs ?? 15 * 60_000;
    const redis = new Redis(options.url, { connectionName: 'lectern-blob-store', lazyConnect: false });
    redis.on('error', () => undefined); // reconnects by itself; commands report the failure to their callers
    redis.defineCommand('blobReserve', { numberOfKeys: 3, lua: RESERVE });
    redis.defineCommand('blobCommit', { numberOfKeys: 4, lua: COMMIT });
    redis.defineCommand('blobRelease', { numberOfKeys: 3, lua: RELEASE });
    redis.defineCommand('blobDelete', { numberOfKeys: 4, lua: DELETE });
    this.redis = redis as Scripts;
  }

  private get accounting(): [string, string, string] {
    return [`${this.prefix}used`, `${this.prefix}sizes`, `${this.prefix}expiry`];
  }

  private metaKey(key: string): string {
    return `${this.prefix}meta:${checkBlobKey(key)}`;
  }

  private chunkKey(generation: string, index: number): string {
    return `${this.prefix}chunk:${generation}:${index}`;
  }

  private async deleteChunks(generation: string, count: number): Promise<void> {
    for (let start = 0; start < count; start += 500) {
      const keys = Array.from({ length: Math.min(500, count - start) }, (_, i) => this.chunkKey(generation, start + i));
      await this.redis.del(...keys);
    }
  }

  async put(key: string, source: Uint8Array | AsyncIterable<Uint8Array>, options: PutOptions = {}): Promise<BlobInfo> {
    const meta = this.metaKey(key);
    const ttl = effectiveTtlMs(this.limits, options);
    const generation = randomUUID();
    const hash = createHash('sha256');
    let byteSize = 0;
    let chunks = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async (): Promise<void> => {
      if (pendingBytes === 0) return;
      const value = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      const now = Date.now();
      const reserved = await this.redis.blobReserve(
        ...this.accounting,
        generation,
        value.length,
        now + this.leaseMs,
        this.limits.quotaBytes,
        now,
      );
      if (reserved !== 1) throw blobQuotaExceeded();
      await this.redis.set(this.chunkKey(generation, chunks), value, 'PX', this.leaseMs);
      chunks += 1;
    };
    try {
      for await (const piece of chunksOf(source)) {
        byteSize += piece.length;
        if (byteSize > this.limits.maxBytes) throw blobTooLarge(this.limits.maxBytes);
        hash.update(piece);
        for (let offset = 0; offset < piece.length; ) {
          const take = Math.min(this.chunkBytes - pendingBytes, piece.length - offset);
          pending.push(piece.subarray(offset, offset + take));
          pendingBytes += take;
          offset += take;
          if (pendingBytes === this.chunkBytes) await flush();
        }
      }
      await flush();
      const expiresAt = ttl === null ? '' : String(Date.now() + ttl);
      if (chunks > 0) {
        const batch = this.redis.pipeline();
        for (let i = 0; i < chunks; i += 1) {
          if (expiresAt === '') batch.persist(this.chunkKey(generation, i));
          else batch.pexpireat(this.chunkKey(generation, i), Number(expiresAt));
        }
        await batch.exec();
      }
      const sha256 = hash.digest('hex');
      const replaced = await this.redis.blobCommit(
        ...this.accounting,
        meta,
        generation,
        byteSize,
        sha256,
        chunks,
        expiresAt,
      );
      if (replaced.length === 2) await this.deleteChunks(replaced[0]!, Number(replaced[1]));
      return { byteSize, sha256 };
    } catch (error) {
      await this.deleteChunks(generation, chunks).catch(() => undefined);
      await this.redis.blobRelease(...this.accounting, generation).catch(() => undefined);
      throw error;
    }
  }

  private async readMeta(key: string): Promise<{ generation: string; info: BlobInfo; chunks: number } | undefined> {
    const fields = await this.redis.hgetall(this.metaKey(key));
    if (!fields['gen'] || fields['size'] === undefined || !fields['sha256'] || fields['chunks'] === undefined)
      return undefined;
    return {
      generation: fields['gen'],
      info: { byteSize: Number(fields['size']), sha256: fields['sha256'] },
      chunks: Number(fields['chunks']),
    };
  }

  /** The chunks of `key` in order; stops (returning false) if one is gone (replaced or expired while read). */
  private async readChunks(key: string, each: (chunk: Buffer) => Promise<void> | void): Promise<boolean> {
    const meta = await this.readMeta(key);
    if (!meta) return false;
    for (let i = 0; i < meta.chunks; i += 1) {
      const chunk = await this.redis.getBuffer(this.chunkKey(meta.generation, i));
      if (chunk === null) return false;
      await each(chunk);
    }
    return true;
  }

  async get(key: string): Promise<Buffer | undefined> {
    const parts: Buffer[] = [];
    return (await this.readChunks(key, (chunk) => void parts.push(chunk))) ? Buffer.concat(parts) : undefined;
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    return (await this.readMeta(key))?.info;
  }

  async download(key: string, path: string): Promise<boolean> {
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${randomUUID()}.tmp`;
    const file = await open(tmp, 'wx');
    let complete = false;
    try {
      complete = await this.readChunks(key, async (chunk) => {
        await file.write(chunk);
      });
    } finally {
      await file.close();
      if (complete) await rename(tmp, path);
      else await rm(tmp, { force: true });
    }
    return complete;
  }

  async delete(key: string): Promise<boolean> {
    const released = await this.redis.blobDelete(...this.accounting, this.metaKey(key));
    if (released.length !== 2) return false;
    await this.deleteChunks(released[0]!, Number(released[1]));
    return true;
  }

  async usedBytes(): Promise<number> {
    const now = Date.now();
    await this.redis.blobReserve(...this.accounting, 'none', 0, now, this.limits.quotaBytes, now);
    return Number((await this.redis.get(`${this.prefix}used`)) ?? 0);
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
