// SPDX-License-Identifier: AGPL-3.0-or-later
export { createVectorStore } from './create-vector-store.js';
export { EmbeddedVectorStore, EMBEDDED_DB_FILE, EMBEDDED_WRITE_BATCH } from './embedded/embedded.adapter.js';
export { SEARCH_QUEUE_DEFAULT, SearchPool, defaultSearchThreads } from './embedded/search-pool.js';
export { QdrantVectorStore } from './qdrant/qdrant.adapter.js';
export type { QdrantStoreOptions } from './qdrant/qdrant.adapter.js';
export { INTEGER_FIELDS, KEYWORD_FIELDS } from './payload-indexes.js';
export {
  DOCUMENT_EVIDENCE,
  DOCUMENT_EVIDENCE_SPAN,
  FIELD_WEIGHTS,
  HEADER_CREDIT,
  PHRASE_CREDIT,
  SHORT_CHUNK_DAMPING,
} from './lexical.js';
export { FUSION_DEFAULTS, FUSION_METHODS, fuse, resolveFusion, rrfFuse, zscoreFuse } from './fusion.js';
export type { Fused, FusionDefaults, FusionMethod, FusionOptions, FusionParams, Scored } from './fusion.js';
export {
  CollectionInfoSchema,
  CollectionNameSchema,
  EmbeddingFingerprintSchema,
  FilterSchema,
  HitSchema,
  IndexInfoSchema,
  InspectionSchema,
  ScalarSchema,
  StoredPointSchema,
} from './vector-store.port.js';
export type {
  CollectionInfo,
  EmbeddingFingerprint,
  EnsureCollectionSpec,
  Filter,
  Hit,
  HybridOptions,
  IndexInfo,
  Inspection,
  Point,
  Scalar,
  ScrollOptions,
  StoredPoint,
  UpsertOptions,
  VectorStore,
  VectorStoreOptions,
  WriteOptions,
} from './vector-store.port.js';
export { MAX_SEARCH_TARGETS, searchAcross } from './multi-search.js';
export type { CollectionHit, SearchManyOptions, SearchTarget } from './multi-search.js';
