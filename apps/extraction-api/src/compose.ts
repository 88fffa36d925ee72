// SPDX-License-Identifier: AGPL-3.0-or-later
import { extractionModule, type ExtractionModule } from '@lectern/extraction';
import { createPlatform, platformOptions, type Platform } from '@lectern/platform';
import type { Logger } from '@lectern/runtime';
import type { ExtractionConfig } from './config.js';

/** extraction-api composed: the platform (its shutdown steps) and the extraction module on it. */
export interface ComposedExtraction {
  /** Owns the task store, the queues, the conversion path and the embedders; closes them in order. */
  platform: Platform;
  /** The doc tools, the task store and the task queue. */
  extraction: ExtractionModule;
}

/**
 * The platform from this service's configuration (embedded or distributed by REDIS_URL alone) and the extraction
 * composed on it (`extractionModule`); `platform` given: composed on that one instead.
 */
export const composeExtraction = (
  config: ExtractionConfig,
  logger: Logger,
  platform: Platform = createPlatform(platformOptions(config, logger)),
): ComposedExtraction => ({ platform, extraction: extractionModule(platform, config) });

/** `buildApp`'s deps from the composed extraction: the doc tools it serves, the task store and the task queue. */
export const extractionAppDeps = ({ extraction }: ComposedExtraction) => ({
  docTools: extraction.docTools.tools,
  store: extraction.taskStore,
  taskQueue: extraction.taskQueue,
  uploads: extraction.taskUploads,
});
