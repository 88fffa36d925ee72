// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineQueue } from '@lectern/contracts';
import { commonEnvShape, parseEnv } from '@lectern/runtime';
import { silentLogger } from '@lectern/testing';
import { z } from 'zod';
import { defaultSearchThreads } from '@lectern/vector-store';
import { createPlatform } from './platform.js';
import { documentInputEnvShape, platformOptions, storeAndEmbeddingSettings, storeEnvShape } from './platform.env.js';

const Schema = z.object({ DATA_DIR: commonEnvShape.DATA_DIR, ...storeEnvShape, ...documentInputEnvShape });

describe('the platform configuration shared by every service', () => {
  it('reads the store, embedding, Redis and queue variables once, as createPlatform takes them', () => {
    const env = parseEnv(Schema, {
      DATA_DIR: '/srv/lectern',
      REDIS_URL: 'redis://127.0.0.1:6390',
      QDRANT_URL: 'http://127.0.0.1:6333',
      EMBEDDING_MODEL: 'potion-base-2M',
      EMBEDDING_THREADS: '0',
      SEARCH_THREADS: '3',
      HF_ENDPOINT: 'http://mirror.internal:8080',
      QUEUE_LOCK_MS: '4000',
      QUEUE_STALL_LIMIT: '3',
      QUEUE_SHUTDOWN_GRACE_MS: '1500',
      BLOB_TTL_S: '600',
      BLOB_QUOTA_BYTES: '1000000',
    });
    const log = silentLogger();
    expect(platformOptions(env, log, { redisPrefix: 'p' })).toEqual({
      dataDir: '/srv/lectern',
      log,
      redisUrl: 'redis://127.0.0.1:6390',
      queue: { lockMs: 4000, stallLimit: 3, shutdownGraceMs: 1500 },
      blob: { ttlMs: 600_000, maxBytes: 256 * 1024 * 1024, quotaBytes: 1_000_000, chunkBytes: 1024 * 1024 },
      redisPrefix: 'p',
    });
    expect(storeAndEmbeddingSettings(env)).toEqual({
      vectorDir: undefined,
      qdrantUrl: 'http://127.0.0.1:6333',
      qdrantApiKey: undefined,
      searchThreads: 3,
      embedding: {
        model: 'potion-base-2M',
        modelDir: undefined,
        quantized: false,
        threads: undefined,
        // EMBEDDING_AUTO_FETCH defaults to on: a fresh install's 'auto' fetches the default model from HF_ENDPOINT.
        fetchDefault: { endpoint: 'http://mirror.internal:8080' },
      },
    });
    expect(storeAndEmbeddingSettings({ ...env, EMBEDDING_AUTO_FETCH: false }).embedding).not.toHaveProperty(
      'fetchDefault',
    );
    expect(env.DOCUMENT_ROOTS).toEqual([]);
    expect(env.ENABLE_OCR).toBe(true);
  });

  it("runs the embedded store's searches on min(4, cores) threads by default, in-process with SEARCH_THREADS=0", () => {
    expect(parseEnv(Schema, { DATA_DIR: '/d' }).SEARCH_THREADS).toBe(defaultSearchThreads());
    expect(storeAndEmbeddingSettings(parseEnv(Schema, { DATA_DIR: '/d', SEARCH_THREADS: '0' })).searchThreads).toBe(0);
    expect(() => parseEnv(Schema, { DATA_DIR: '/d', SEARCH_THREADS: '-1' })).toThrow();
  });

  it('leaves the queue settings to the platform when a configuration does not read them', () => {
    const options = platformOptions({ DATA_DIR: './data' }, silentLogger());
    expect(options).not.toHaveProperty('queue');
    expect(options.redisUrl).toBeUndefined();
  });
});

/** A feature's queue as the features define theirs (libs/contracts/src/queues/). */
const echoQueue = defineQueue({
  name: 'platform-echo',
  jobName: 'echo',
  payload: z.object({ word: z.string() }),
  result: z.object({ upper: z.string() }),
});

describe('platform.worker', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-platform-worker-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it("runs a feature's handler on its queue, built once per process, closed at the worker stage", async () => {
    const platform = createPlatform({ dataDir, log: silentLogger() });
    const handler = async (payload: { word: string }) => ({ upper: payload.word.toUpperCase() });
    const worker = platform.worker(echoQueue, handler, { concurrency: 2 });
    expect(platform.worker(echoQueue, handler)).toBe(worker);
    const job = await platform.queue(echoQueue).add({ word: 'lectern' }, { jobId: 'echo-1' });
    await expect(job.result()).resolves.toEqual({ upper: 'LECTERN' });
    platform.vectorStore();
    expect(platform.shutdownSteps().map((s) => s.name)).toEqual([
      'platform-echo worker',
      'platform-echo queue',
      'vector store',
    ]);
    await platform.close();
  });
});
