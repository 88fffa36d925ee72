// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  conversionQueue,
  type ConversionJobPayload,
  type ConversionJobResult,
  QUEUE_WORKER_DEFAULTS,
  type QueueDefinition,
  type QueueRetryPolicy,
  type QueueWorkerSettings,
} from '@lectern/contracts';
import { createConversionEngine, type ConversionEngine, type ConversionEngineOptions } from '@lectern/conversion';
import {
  createConversionProcessor,
  createConversionSubmitter,
  HandedOverFiles,
  startStorageJanitor,
  type ConversionSubmitter,
} from '@lectern/conversion-job';
import { LocalBlobStore, RedisBlobStore, type BlobStore } from '@lectern/blob-store';
import { EmbedderPool } from '@lectern/embedding';
import {
  closeRedis,
  connectRedis,
  createBullmqQueue,
  pingRedis,
  createInProcessQueue,
  type JobHandler,
  type JobQueue,
  type JobWorker,
  type RedisConnection,
} from '@lectern/queue';
import { createRedisPolicyRegistry, createSqlitePolicyRegistry, type PolicyRegistry } from '@lectern/policy-registry';
import type { Logger } from '@lectern/runtime';
import { RedisTaskStore, SqliteTaskStore, type TaskStore } from '@lectern/task-store';
import type { DependencyCheck } from '@lectern/transport';
import type { z } from 'zod';
import { createVectorStore, type FusionDefaults, type VectorStore } from '@lectern/vector-store';

export interface PlatformOptions {
  /** The one directory holding all state (created if missing). */
  dataDir: string;
  log: Logger;
  /** Set: queues are BullMQ on this Redis (distributed mode); unset: in-process queues (embedded mode). */
  redisUrl?: string | undefined;
  /** BullMQ key prefix (default `lectern`; tests give each run its own). */
  redisPrefix?: string | undefined;
  /** How this process's queue workers hold jobs (lock, stall limit, shutdown grace): `queueWorkerSettings(config)`. */
  queue?: Partial<QueueWorkerSettings> | undefined;
  /** The blob store's limits (`blobSettings(config)`: BLOB_TTL_S, BLOB_MAX_BYTES, BLOB_QUOTA_BYTES, BLOB_CHUNK_BYTES). */
  blob?: Partial<BlobSettings> | undefined;
}

export interface BlobSettings {
  ttlMs: number;
  maxBytes: number;
  quotaBytes: number;
  chunkBytes: number;
}

/** The blob store's defaults: the same as the variables' (`blobEnvShape`). */
export const BLOB_DEFAULTS: BlobSettings = {
  ttlMs: 24 * 3600 * 1000,
  maxBytes: 256 * 1024 * 1024,
  quotaBytes: 4 * 1024 ** 3,
  chunkBytes: 1024 * 1024,
};

export interface VectorStoreOptions {
  /** Directory of the embedded database (default `<dataDir>/vectors`). */
  vectorDir?: string | undefined;
  /** Set: the Qdrant adapter (distributed mode). */
  qdrantUrl?: string | undefined;
  qdrantApiKey?: string | undefined;
  fusion?: FusionDefaults;
  /** Embedded store: worker threads for its searches (`SEARCH_THREADS`); 0 or absent: on the service's thread. */
  searchThreads?: number | undefined;
}

export interface EmbedderOptions {
  /** A model id or `auto`. */
  model: string;
  /** Directory of the model files (default `<dataDir>/models/<model>`). */
  modelDir?: string | undefined;
  quantized?: boolean | undefined;
  threads?: number | undefined;
  /** `auto` with no model present fetches the default model from this hub (EMBEDDING_AUTO_FETCH, HF_ENDPOINT). */
  fetchDefault?: { endpoint?: string | undefined } | undefined;
}

export interface PolicyRegistryOptions {
  /** The embedded registry's SQLite file (default `<dataDir>/policy-registry.sqlite`); unused with Redis. */
  sqlitePath?: string | undefined;
  /** Prepended to the registry's Redis keys (default none: spec 001's keys exactly; tests give each run its own). */
  redisKeyPrefix?: string | undefined;
}

export interface TaskStoreOptions {
  /** The SQLite file (default `<dataDir>/tasks.db`); unused with Redis. */
  path?: string | undefined;
}

export interface ConversionServiceOptions
  extends Pick<ConversionEngineOptions, 'pdfEngine' | 'ocrEngine' | 'defaults' | 'limits'> {
  /**
   * Conversion jobs this process runs at once, per mode. An MCP server converts in-process when embedded and
   * leaves it to converter workers when distributed ({embedded: 2, distributed: 0}); a converter works in both.
   */
  workers: { embedded: number; distributed: number };
  /** Results with more JSON than this go to `<dataDir>/conversions/` (default 512 KiB). */
  inlineMaxBytes?: number | undefined;
  /**
   * Set: uploads and results in `<dataDir>/uploads` and `<dataDir>/conversions` older than this are deleted
   * (swept every quarter of it, at most every 10 minutes). Unset: kept (a converter sets it; producers need not).
   */
  filesTtlMs?: number | undefined;
  /** Wraps the engine once it is created (metrics, or a test counting conversions). */
  instrument?: (engine: ConversionEngine) => ConversionEngine;
}

/** The `conversion` queue as a service sees it: the producer, the engine when it converts here, its worker. */
export interface ConversionService {
  submitter: ConversionSubmitter;
  queue: JobQueue<ConversionJobPayload, ConversionJobResult>;
  /** The engine of this process (its workers start on first use; `POST /convert` and the local worker use it). */
  engine: ConversionEngine;
  worker: JobWorker | undefined;
}

export interface QueueWorkerOptions {
  /** Jobs this process runs at once (default 1). */
  concurrency?: number | undefined;
  /** Finished jobs an in-process queue remembers (see `queue`). */
  keepFinished?: number | undefined;
}

export interface ShutdownStep {
  name: string;
  close(): Promise<void> | void;
}

/**
 * The infrastructure every service shares: builds exactly what is asked for — vector store, embedders, the
 * conversion job path, queues and their workers, the policy registry, the task store — chosen by configuration
 * alone (embedded or distributed), each once, and closes them in order. It knows no feature: each feature lib's
 * module (`documentStoreModule`, `policyKbModule`, ...) composes itself from it, and its use cases receive the ports.
 * "Once" is literal: a second `vectorStore()`, `embedders()` or `conversion()` call returns the service the first
 * call built and ignores its options — so two services composed on one platform share one store and one
 * conversion queue (the converter and the document store in one process convert a file once).
 */
export interface Platform {
  readonly dataDir: string;
  readonly log: Logger;
  readonly mode: 'embedded' | 'distributed';
  vectorStore(options?: VectorStoreOptions): VectorStore;
  embedders(options: EmbedderOptions): EmbedderPool;
  /**
   * The embedding models this process has loaded (none when no embedder pool was built): read at every `/metrics`
   * scrape through `app.metrics.trackEmbeddingModels(() => platform.embeddingModels())`; builds nothing.
   */
  embeddingModels(): string[];
  /**
   * The queue `definition` names (BullMQ on the platform's Redis, else in-process), built once per name with the
   * definition's retry policy and the platform's worker settings; closed at the `queue` stage. `keepFinished`:
   * finished jobs an in-process queue remembers (default 1000); `retry`: the app's override of the definition's
   * policy (extraction tasks: `AGENT_MAX_RETRIES`).
   */
  queue<P extends z.ZodType, R extends z.ZodType>(
    definition: QueueDefinition<P, R>,
    options?: { keepFinished?: number; retry?: Partial<QueueRetryPolicy> },
  ): JobQueue<z.output<P>, z.output<R>>;
  conversion(options: ConversionServiceOptions): ConversionService;
  /**
   * The policy registry (spec 001 FR-008): on the platform's Redis when it has one (its own bounded connections,
   * so a Redis outage answers `registry_unavailable` instead of waiting), else a SQLite file under the data dir.
   */
  policyRegistry(options?: PolicyRegistryOptions): PolicyRegistry;
  /**
   * The files passed between services (uploads, large results): in Redis when the platform has a `REDIS_URL`
   * (chunked, with TTL, size cap and quota: no directory shared between pods), else in `<dataDir>/blobs`.
   * Closed at the `store` stage.
   */
  blobStore(): BlobStore;
  /** Register a shutdown step of something an app built on the platform's services (closed at its stage). */
  addShutdownStep(stage: Stage, name: string, close: () => Promise<void>): void;
  /**
   * extraction-api's task store (spec 003): on the platform's Redis when it has one (any number of API replicas),
   * else a SQLite file, `<dataDir>/tasks.db` unless `path` (`DB_PATH`) says otherwise.
   */
  taskStore(options?: TaskStoreOptions): TaskStore;
  /**
   * This process's worker on the queue `definition` names (the queue built once as by `queue`), running `handler`;
   * closed at the `worker` stage as `<queue name> worker`. A feature composes its queues' workers with it.
   */
  worker<P extends z.ZodType, R extends z.ZodType>(
    definition: QueueDefinition<P, R>,
    handler: JobHandler<z.output<P>, z.output<R>>,
    options?: QueueWorkerOptions,
  ): JobWorker;
  /**
   * What the service needs up, for `/health` and `/ready` (`createHttpApp({ dependencies })`): Redis when the
   * platform has a `REDIS_URL` (its shared connection), the vector store once built. Call it after composing.
   */
  dependencyChecks(): DependencyCheck[];
  /** What to close after HTTP, in order: workers, queues, Redis, conversion pools, embedders, stores and registries (of what was built so far). */
  shutdownSteps(): ShutdownStep[];
  close(): Promise<void>;
}

const ORDER = ['worker', 'queue', 'redis', 'engine', 'embedders', 'audit', 'store'] as const;
export type Stage = (typeof ORDER)[number];

export const createPlatform = (options: PlatformOptions): Platform => {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const log = options.log;
  const steps: Array<ShutdownStep & { stage: Stage }> = [];
  const memo = new Map<string, unknown>();
  const once = <T>(key: string, make: () => T): T => {
    if (!memo.has(key)) memo.set(key, make());
    return memo.get(key) as T;
  };
  let redis: RedisConnection | undefined;
  const redisConnection = (): RedisConnection => {
    if (!options.redisUrl) throw new Error('no REDIS_URL: queues are in-process');
    if (!redis) {
      const connection = connectRedis(options.redisUrl);
      redis = connection;
      steps.push({ stage: 'redis', name: 'redis', close: () => closeRedis(connection) });
    }
    return redis;
  };
  const mode = options.redisUrl ? 'distributed' : 'embedded';

  const platform: Platform = {
    dataDir,
    log,
    mode,
    vectorStore: (o = {}) =>
      once('vector-store', () => {
        const store = createVectorStore({
          dataDir: o.vectorDir ? resolve(o.vectorDir) : resolve(dataDir, 'vectors'),
          ...(o.qdrantUrl ? { qdrantUrl: o.qdrantUrl } : {}),
          ...(o.qdrantApiKey ? { qdrantApiKey: o.qdrantApiKey } : {}),
          ...(o.fusion ? { fusion: o.fusion } : {}),
          ...(o.searchThreads ? { searchThreads: o.searchThreads } : {}),
          log,
        });
        steps.push({ stage: 'store', name: 'vector store', close: () => store.close() });
        return store;
      }),
    embedders: (o) =>
      once('embedders', () => {
        const pool = new EmbedderPool({
          model: o.model,
          modelDir: o.modelDir,
          cacheDir: resolve(dataDir, 'models'),
          quantized: o.quantized ?? false,
          ...(o.threads ? { threads: o.threads } : {}),
          ...(o.fetchDefault ? { fetchDefault: o.fetchDefault } : {}),
          log,
        });
        steps.push({ stage: 'embedders', name: 'embedders', close: () => pool.close() });
        return pool;
      }),
    embeddingModels: () => (memo.get('embedders') as EmbedderPool | undefined)?.loadedModels() ?? [],
    queue: <P extends z.ZodType, R extends z.ZodType>(
      definition: QueueDefinition<P, R>,
      o: { keepFinished?: number; retry?: Partial<QueueRetryPolicy> } = {},
    ) =>
      once(`queue:${definition.name}`, () => {
        const worker = { ...QUEUE_WORKER_DEFAULTS, ...options.queue };
        const retry = {
          ...(o.retry?.attempts !== undefined ? { attempts: o.retry.attempts } : {}),
          ...(o.retry?.backoffMs !== undefined ? { backoffMs: o.retry.backoffMs } : {}),
        };
        const queue = options.redisUrl
          ? createBullmqQueue({
              definition,
              connection: redisConnection(),
              logger: log,
              prefix: options.redisPrefix,
              lockDurationMs: worker.lockMs,
              maxStalledCount: worker.stallLimit,
              shutdownGraceMs: worker.shutdownGraceMs,
              ...retry,
            })
          : createInProcessQueue({
              definition,
              logger: log,
              shutdownGraceMs: worker.shutdownGraceMs,
              ...retry,
              ...(o.keepFinished ? { keepFinished: o.keepFinished } : {}),
            });
        steps.push({ stage: 'queue', name: `${definition.name} queue`, close: () => queue.close() });
        return queue;
      }),
    conversion: (o) =>
      once('conversion', () => {
        // Cheap to create (its worker threads start on first use), so created now: its close step is then
        // registered before any app reads the shutdown steps.
        const created = createConversionEngine({
          pdfEngine: o.pdfEngine,
          ...(o.ocrEngine ? { ocrEngine: o.ocrEngine } : {}),
          defaults: o.defaults,
          limits: o.limits,
          log,
        });
        const engine = o.instrument ? o.instrument(created) : created;
        steps.push({ stage: 'engine', name: 'conversion pools', close: () => created.close() });
        // Finished jobs (results up to inlineMaxBytes) stay in memory for dedupe when in-process: bounded.
        const queue: JobQueue<ConversionJobPayload, ConversionJobResult> = platform.queue(conversionQueue, {
          keepFinished: 200,
        });
        // In-process, the worker is in this process: the bytes a caller read are handed over, not staged.
        const handedOver = options.redisUrl ? undefined : new HandedOverFiles();
        // Distributed: uploads and large results go through the blob store (no directory shared by pods).
        const blobs = options.redisUrl ? platform.blobStore() : undefined;
        const concurrency = options.redisUrl ? o.workers.distributed : o.workers.embedded;
        if (!options.redisUrl && concurrency < 1)
          throw new Error('embedded mode needs at least one conversion worker in this process');
        const worker =
          concurrency > 0
            ? queue.process(
                createConversionProcessor({
                  dataDir,
                  engine,
                  inlineMaxBytes: o.inlineMaxBytes,
                  ...(handedOver ? { handedOver } : {}),
                  ...(blobs ? { blobs } : {}),
                }),
                { concurrency },
              )
            : undefined;
        if (worker) steps.push({ stage: 'worker', name: 'conversion worker', close: () => worker.close() });
        const submitter = createConversionSubmitter({
          queue,
          dataDir,
          ...(handedOver ? { handedOver } : {}),
          ...(blobs ? { blobs } : {}),
        });
        if (o.filesTtlMs !== undefined) {
          const ttlMs = o.filesTtlMs;
          const janitor = startStorageJanitor({
            dataDir,
            ttlMs,
            intervalMs: Math.max(1000, Math.min(ttlMs / 4, 10 * 60_000)),
            onSwept: (removed) => log.info({ removed, ttl_ms: ttlMs }, 'expired conversion files deleted'),
            onError: (err) => log.warn({ err }, 'conversion files sweep failed'),
          });
          steps.push({ stage: 'worker', name: 'conversion files janitor', close: () => janitor.stop() });
        }
        return {
          submitter,
          queue,
          worker,
          engine,
        };
      }),
    policyRegistry: (o = {}) =>
      once('policy-registry', () => {
        const registry = options.redisUrl
          ? createRedisPolicyRegistry({ url: options.redisUrl, keyPrefix: o.redisKeyPrefix, log })
          : createSqlitePolicyRegistry({
              path: o.sqlitePath ? resolve(o.sqlitePath) : resolve(dataDir, 'policy-registry.sqlite'),
            });
        // A store: closed after the workers and queues that may still update revisions.
        steps.push({ stage: 'store', name: 'policy registry', close: () => registry.close() });
        return registry;
      }),
    blobStore: () =>
      once('blob-store', () => {
        const settings = { ...BLOB_DEFAULTS, ...options.blob };
        const limits = { ttlMs: settings.ttlMs, maxBytes: settings.maxBytes, quotaBytes: settings.quotaBytes };
        const store: BlobStore = options.redisUrl
          ? new RedisBlobStore({
              url: options.redisUrl,
              keyPrefix: `${options.redisPrefix ?? 'lectern'}:blob:`,
              limits,
              chunkBytes: settings.chunkBytes,
            })
          : new LocalBlobStore({ root: resolve(dataDir, 'blobs'), limits });
        steps.push({ stage: 'store', name: 'blob store', close: () => store.close() });
        return store;
      }),
    addShutdownStep: (stage, name, close) => {
      steps.push({ stage, name, close });
    },
    taskStore: (o = {}) =>
      once('task-store', () => {
        const store: TaskStore = options.redisUrl
          ? new RedisTaskStore({ url: options.redisUrl, keyPrefix: `${options.redisPrefix ?? 'lectern'}:tasks:` })
          : new SqliteTaskStore({ path: o.path ? resolve(o.path) : resolve(dataDir, 'tasks.db') });
        steps.push({ stage: 'store', name: 'task store', close: () => store.close() });
        return store;
      }),
    worker: <P extends z.ZodType, R extends z.ZodType>(
      definition: QueueDefinition<P, R>,
      handler: JobHandler<z.output<P>, z.output<R>>,
      o: QueueWorkerOptions = {},
    ) =>
      once(`worker:${definition.name}`, () => {
        const queue = platform.queue(definition, o.keepFinished ? { keepFinished: o.keepFinished } : {});
        const worker = queue.process(handler, { concurrency: o.concurrency ?? 1 });
        steps.push({ stage: 'worker', name: `${definition.name} worker`, close: () => worker.close() });
        return worker;
      }),
    dependencyChecks: () => [
      ...(options.redisUrl ? [{ name: 'redis', check: () => pingRedis(redisConnection()) }] : []),
      ...(memo.has('vector-store') ? [{ name: 'vector_store', check: () => platform.vectorStore().ping() }] : []),
    ],
    shutdownSteps: () =>
      ORDER.flatMap((stage) => steps.filter((s) => s.stage === stage)).map(({ name, close }) => ({ name, close })),
    close: async () => {
      for (const step of platform.shutdownSteps()) await step.close();
      steps.length = 0;
      memo.clear();
      redis = undefined;
    },
  };
  return platform;
};
