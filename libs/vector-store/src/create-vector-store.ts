import { EmbeddedVectorStore } from './embedded/embedded.adapter.js';
import type { VectorStore, VectorStoreOptions } from './vector-store.port.js';

/** Qdrant when `qdrantUrl` is set, else the embedded SQLite store under `dataDir`. */
export const createVectorStore = (options: VectorStoreOptions): VectorStore => {
  const { dataDir, collectionPrefix, log } = options;
  return new EmbeddedVectorStore({ dataDir, collectionPrefix, log });
};
