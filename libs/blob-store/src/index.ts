// SPDX-License-Identifier: AGPL-3.0-or-later
export { blobQuotaExceeded, blobTooLarge, checkBlobKey } from './blob-store.port.js';
export type { BlobInfo, BlobLimits, BlobStore, PutOptions } from './blob-store.port.js';
export { LocalBlobStore } from './local/local.adapter.js';
export type { LocalBlobStoreOptions } from './local/local.adapter.js';
export { RedisBlobStore } from './redis/redis.adapter.js';
export type { RedisBlobStoreOptions } from './redis/redis.adapter.js';
