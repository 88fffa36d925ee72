// SPDX-License-Identifier: AGPL-3.0-or-later
import { documentStoreModule, type DocumentStoreModule } from '@lectern/document-store';
import { createPlatform, platformOptions, type Platform } from '@lectern/platform';
import type { Logger } from '@lectern/runtime';
import type { DocumentStoreConfig } from './config.js';

/** document-store-mcp composed: the platform (its shutdown steps) and the document store module on it. */
export interface ComposedDocumentStore {
  /** Owns the store, embedders and conversion path; `platform.shutdownSteps()` closes them in order. */
  platform: Platform;
  documentStore: DocumentStoreModule;
}

/**
 * The platform from this service's configuration (embedded or distributed by REDIS_URL/QDRANT_URL alone) and the
 * document store composed on it (`documentStoreModule`); `platform` given: composed on that one instead.
 */
export const composeDocumentStore = (
  config: DocumentStoreConfig,
  logger: Logger,
  platform: Platform = createPlatform(platformOptions(config, logger)),
): ComposedDocumentStore => ({ platform, documentStore: documentStoreModule(platform, config) });
