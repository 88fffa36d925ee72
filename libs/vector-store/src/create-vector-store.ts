// SPDX-License-Identifier: AGPL-3.0-or-later
import { EmbeddedVectorStore } from './embedded/embedded.adapter.js';
import { QdrantVectorStore } from './qdrant/qdrant.adapter.js';
import type { VectorStore, VectorStoreOptions } from './vector-store.port.js';

/** Qdrant when `qdrantUrl` is set (non-empty), else the embedded SQLite store under `dataDir`. */
export const createVectorStore = (options: VectorStoreOptions): VectorStore => {
  const { qdrantUrl, qdrantApiKey, dataDir, collectionPrefix, fusion, log, searchThreads } = options;
  if (qdrantUrl)
    return new QdrantVectorStore({ url: qdrantUrl, apiKey: qdrantApiKey || undefined, collectionPrefix, fusion, log });
  return new EmbeddedVectorStore({
    dataDir,
    collectionPrefix,
    fusion,
    log,
    ...(searchThreads ? { searchThreads } : {}),
  });
};
