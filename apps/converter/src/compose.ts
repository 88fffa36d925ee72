import { createPlatform, type ConversionService, type Platform, type ShutdownStep } from '@lectern/platform';
import { queueWorkerSettings, type Logger } from '@lectern/runtime';
import { conversionDefaults, type ConverterConfig } from './config.js';

export interface ConverterServices {
  /** The conversion job path (queue, submitter, worker) and this process's engine. */
  conversion: ConversionService;
  platform: Platform;
  /** In shutdown order, after HTTP: worker, queue, Redis, the engine's pools (read when shutting down). */
  readonly closeSteps: ShutdownStep[];
}

export interface ConverterServiceOptions {
  /** Wraps the engine (tests count conversions with it). */
  instrument?: Parameters<Platform['conversion']>[0]['instrument'];
  /** BullMQ key prefix (default `lectern`; tests use their own). */
  redisPrefix?: string;
}

/**
 * The converter's services through `@lectern/platform`: the `conversion` queue (BullMQ on REDIS_URL, so
 * workers scale out across replicas; else in-process), its one processor, and the engine `POST /convert` uses.
 */
export const createConverterServices = (
  config: ConverterConfig,
  logger: Logger,
  options: ConverterServiceOptions = {},
): ConverterServices => {
  const platform = createPlatform({
    dataDir: config.DATA_DIR,
    log: logger,
    redisUrl: config.REDIS_URL,
    redisPrefix: options.redisPrefix,
    queue: queueWorkerSettings(config),
  });
  const { enableOcr, imageRatioThreshold, maxBytes, maxPages, timeoutMs } = conversionDefaults(config);
  const conversion = platform.conversion({
    pdfEngine: config.PDF_ENGINE,
    defaults: { enableOcr, imageRatioThreshold },
    limits: { maxBytes, maxPages, timeoutMs, ocr: enableOcr },
    workers: { embedded: config.CONVERTER_CONCURRENCY, distributed: config.CONVERTER_CONCURRENCY },
    inlineMaxBytes: config.INLINE_RESULT_MAX_BYTES,
    filesTtlMs: config.CONVERSION_FILES_TTL_S * 1000,
    ...(options.instrument ? { instrument: options.instrument } : {}),
  });
  return {
    conversion,
    platform,
    get closeSteps() {
      return platform.shutdownSteps();
    },
  };
};
