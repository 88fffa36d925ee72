// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';

/** What is stored under a key: its size and SHA-256 (computed while it was written). */
export interface BlobInfo {
  byteSize: number;
  sha256: string;
}

export interface PutOptions {
  /**
   * How long the blob lives, in ms: `undefined` takes the store's default TTL (`BLOB_TTL_S`), `null` keeps it until
   * it is deleted (policy uploads, which recovery re-queues from). Expired blobs read as missing.
   */
  ttlMs?: number | null | undefined;
}

/** The settings every adapter honours (env: BLOB_TTL_S, BLOB_MAX_BYTES, BLOB_QUOTA_BYTES, BLOB_CHUNK_BYTES). */
export interface BlobLimits {
  /** Default lifetime of a blob in ms (0: no expiry). */
  ttlMs: number;
  /** Largest blob: more is `too_large` (413). */
  maxBytes: number;
  /** All live blobs together: more is `insufficient_storage` (507). */
  quotaBytes: number;
}

/**
 * Bytes passed between services by key. Embedded mode keeps them in a local directory; distributed mode in Redis,
 * so that no two pods need a directory in common. A `put` is all or nothing: a refused or failed write leaves
 * nothing readable and gives its room back; a `put` over an existing key replaces it whole (a reader sees the old
 * bytes or the new, never a mix).
 */
export interface BlobStore {
  readonly kind: 'local' | 'redis';
  readonly limits: BlobLimits;
  put(key: string, source: Uint8Array | AsyncIterable<Uint8Array>, options?: PutOptions): Promise<BlobInfo>;
  /** The whole blob, or undefined when there is none (never stored, deleted, expired). */
  get(key: string): Promise<Buffer | undefined>;
  stat(key: string): Promise<BlobInfo | undefined>;
  /**
   * Copy the blob to a local file (written aside and renamed into place; parent directories created); false when
   * there is no blob. Used to fill a pod's cache (`DATA_DIR`) from the shared store.
   */
  download(key: string, path: string): Promise<boolean>;
  /** True when something was deleted. */
  delete(key: string): Promise<boolean>;
  /** Bytes the live blobs hold (what the quota limits). */
  usedBytes(): Promise<number>;
  close(): Promise<void>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/**
 * A blob key: `/`-separated segments of letters, digits, `.`, `_`, `-`, each starting with a letter or digit (so no
 * `..`, no absolute path, no empty segment), at most 512 characters. Keys name places in a directory for the local
 * adapter, so they are checked in one place for both adapters.
 */
export const checkBlobKey = (key: string): string => {
  if (key.length > 512 || !KEY.test(key)) throw new Error(`invalid blob key: ${JSON.stringify(key.slice(0, 80))}`);
  return key;
};

export const blobTooLarge = (maxBytes: number): AppError =>
  new AppError('too_large', `The file is larger than the limit of ${maxBytes} bytes (BLOB_MAX_BYTES).`, {
    httpStatus: 413,
  });

/** The quota is reached: the same typed error as a full disk (`insufficient_storage`, 507). */
export const blobQuotaExceeded = (): AppError =>
  new AppError('insufficient_storage', 'The server is out of room for files; try again later.', { httpStatus: 507 });

/** The TTL a put asks for, in ms, or null for none. */
export const effectiveTtlMs = (limits: BlobLimits, options: PutOptions = {}): number | null => {
  if (options.ttlMs === null) return null;
  const ttl = options.ttlMs ?? limits.ttlMs;
  return ttl > 0 ? ttl : null;
};

/** Chunks of a byte array or stream as Buffers. */
export async function* chunksOf(source: Uint8Array | AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  if (source instanceof Uint8Array) {
    yield Buffer.from(source.buffer, source.byteOffset, source.byteLength);
    return;
  }
  for await (const chunk of source) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
}
