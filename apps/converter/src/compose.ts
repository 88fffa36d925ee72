// SPDX-License-Identifier: AGPL-3.0-or-later
import { createPlatform, platformOptions, type ConversionService, type Platform } from '@lectern/platform';
import { queueWorkerSettings, type Logger } from '@lectern/runtime';
import { conversionDefaults, type ConverterConfig } from './config.js';

/** The converter composed: the platform (its shutdown steps) and the conversion job path it serves. */
export interface ComposedConverter {
  /** Owns the queue, worker, Redis and engine; `platform.shutdownSteps()` closes them in order. */
  platform: Platform;
  /** The conversion job path (queue, submitter, worker) and this process's engine. */
  conversion: ConversionService;
}

export interface ComposeConverterOptions {
  /** Wraps the engine (tests count conversions with it). */
  instrument?: Parameters<Platform['conversion']>[0]['instrument'];
  /** BullMQ key prefix (default `lectern`; tests use their own). */
  redisPrefix?: string;
}

/**
 * The converter's services through `@lectern/platform`: the `conversion` queue (BullMQ on REDIS_URL, so
 * workers scale out across replicas; else in-process), its one processor, and the engine `POST /convert` uses.
 */
export const composeConverter = (
  config: ConverterConfig,
  logger: Logger,
  options: ComposeConverterOptions = {},
): ComposedConverter => {
  const platform = createPlatform(
    platformOptions(config, logger, { redisPrefix: options.redisPrefix, queue: queueWorkerSettings(config) }),
  );
  const { enableOcr, imageRatioThreshold, maxBytes, maxPages, timeoutMs } = conversionDefaults(config);
  const conversion = platform.conversion({
    pdfEngine: config.PDF_ENGINE,
    ocrEngine: config.OCR_ENGINE,
    defaults: { enableOcr, imageRatioThreshold },
    limits: { maxBytes, maxPages, timeoutMs, ocr: enableOcr },
    workers: { embedded: config.CONVERTER_CONCURRENCY, distributed: config.CONVERTER_CONCURRENCY },
    inlineMaxBytes: config.INLINE_RESULT_MAX_BYTES,
    filesTtlMs: config.CONVERSION_FILES_TTL_S * 1000,
    ...(options.instrument ? { instrument: options.instrument } : {}),
  });
  return { platform, conversion };
};
