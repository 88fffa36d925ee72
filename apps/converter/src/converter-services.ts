import { conversionQueue, type ConversionJobPayload, type ConversionJobResult } from '@lectern/contracts';
import { closeConversionPool, convertDocument } from '@lectern/conversion';
import {
  closeRedis,
  connectRedis,
  createBullmqQueue,
  createConversionProcessor,
  createInProcessQueue,
  type ConvertDocumentFn,
  type JobQueue,
  type JobWorker,
} from '@lectern/queue';
import type { Logger } from '@lectern/runtime';
import type { ShutdownStep } from '@lectern/transport';
import { conversionDefaults, type ConverterConfig } from './config.js';

export interface ConverterServices {
  /** The conversion itself (also what `POST /convert` runs). */
  convert: ConvertDocumentFn;
  queue: JobQueue<ConversionJobPayload, ConversionJobResult>;
  worker: JobWorker | undefined;
  /** In shutdown order, after HTTP: worker, queue, Redis, conversion pools. */
  closeSteps: ShutdownStep[];
}

/**
 * Pick the queue adapter by configuration alone: BullMQ on `REDIS_URL` (workers scale out across
 * replicas), else in-process. Either way the same processor converts (`createConversionProcessor`).
 */
export interface ConverterServiceOptions {
  /** Defaults to `convertDocument` (tests wrap it to count conversions). */
  convert?: ConvertDocumentFn;
  /** BullMQ key prefix (default `lectern`; tests use their own). */
  redisPrefix?: string;
}

export const createConverterServices = (
  config: ConverterConfig,
  logger: Logger,
  options: ConverterServiceOptions = {},
): ConverterServices => {
  const convert: ConvertDocumentFn = options.convert ?? ((input, opts) => convertDocument(input, { ...opts, log: logger }));
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL) : undefined;
  const queue = redis
    ? createBullmqQueue({ definition: conversionQueue, connection: redis, logger, prefix: options.redisPrefix })
    : // Finished jobs (with results up to INLINE_RESULT_MAX_BYTES) stay in memory for dedupe: bounded.
      createInProcessQueue({ definition: conversionQueue, logger, keepFinished: 200 });
  const processor = createConversionProcessor({
    dataDir: config.DATA_DIR,
    convert,
    defaults: conversionDefaults(config),
    inlineMaxBytes: config.INLINE_RESULT_MAX_BYTES,
  });
  const worker = config.CONVERTER_CONCURRENCY > 0 ? queue.process(processor, { concurrency: config.CONVERTER_CONCURRENCY }) : undefined;
  const closeSteps: ShutdownStep[] = [
    { name: 'conversion worker', close: () => worker?.close() },
    { name: 'conversion queue', close: () => queue.close() },
    ...(redis ? [{ name: 'redis', close: () => closeRedis(redis) }] : []),
    { name: 'conversion pools', close: () => closeConversionPool() },
  ];
  return { convert, queue, worker, closeSteps };
};
