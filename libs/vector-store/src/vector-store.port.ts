// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { EmbeddingFingerprintSchema, type EmbeddingFingerprint } from '@lectern/contracts';
import type { Logger } from '@lectern/runtime';
import type { FusionDefaults, FusionOptions } from './fusion.js';
import type { CollectionHit, SearchManyOptions, SearchTarget } from './multi-search.js';

export { EmbeddingFingerprintSchema, type EmbeddingFingerprint };

/** A payload value a filter can compare against (Qdrant `match.value` accepts these). */
export const ScalarSchema = z.union([z.string(), z.number(), z.boolean()]);
export type Scalar = z.infer<typeof ScalarSchema>;

const RangeSchema = z
  .object({ $gte: z.number().optional(), $lte: z.number().optional() })
  .strict()
  .refine((r) => r.$gte !== undefined || r.$lte !== undefined, 'a range needs $gte or $lte');
const InSchema = z.object({ $in: z.array(ScalarSchema) }).strict();
const ConditionSchema = z.union([ScalarSchema, InSchema, RangeSchema]);

/**
 * Payload filter: `{field: value}` (equality; for an array field, any element), `{field: {$in: [...]}}`,
 * `{field: {$gte, $lte}}` (numeric, inclusive), several fields in one object (all must hold), `{$and: [...]}`.
 * A field that is absent never matches. Field names are payload keys (dots are not paths).
 */
export type Filter =
  | { $and: Filter[] }
  | { [field: string]: Scalar | { $in: Scalar[] } | { $gte?: number; $lte?: number } };
export const FilterSchema: z.ZodType<Filter> = z.lazy(() =>
  z.union([
    z.object({ $and: z.array(FilterSchema) }).strict(),
    z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a payload field name'), ConditionSchema),
  ]),
) as z.ZodType<Filter>;

/** Collection (= project) names: what the callers pass; the store adds its prefix. */
export const CollectionNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'a collection name');

export interface Point {
  /** Deterministic string id chosen by the caller (e.g. `<document_id>:<chunk_index>`). */
  id: string;
  vector: Float32Array | number[];
  /** Payload keys starting with `__` are reserved by the store. */
  payload: Record<string, unknown>;
  text: string;
}

export const StoredPointSchema = z.object({
  id: z.string(),
  payload: z.record(z.string(), z.unknown()),
  text: z.string(),
  vector: z.array(z.number()).optional(),
});
export type StoredPoint = z.infer<typeof StoredPointSchema>;

export const HitSchema = z.object({
  id: z.string(),
  /**
   * Dense: cosine similarity clipped at 0. Keyword: BM25-style relevance (> 0). Hybrid: the fused score
   * (default: weighted sum of z-scores, may be negative; with `fusion: 'rrf'` the RRF score).
   */
  score: z.number(),
  payload: z.record(z.string(), z.unknown()),
  text: z.string(),
  /** 1-based rank in the dense candidate list (hybrid only; absent when the point was not a dense candidate). */
  denseRank: z.number().int().positive().optional(),
  /** 1-based rank in the keyword candidate list (hybrid only; absent when the point was not a keyword candidate). */
  keywordRank: z.number().int().positive().optional(),
  /**
   * Hybrid only: the point's cosine similarity to the query vector, clipped at 0 — always present, also for a
   * point that was only a keyword candidate (so callers never search again to score a hit).
   */
  denseScore: z.number().min(0).optional(),
  /** Hybrid only: the point's keyword (BM25-style) score when it was a keyword candidate. */
  keywordScore: z.number().optional(),
});
export type Hit = z.infer<typeof HitSchema>;

export const IndexInfoSchema = z.object({ field: z.string(), type: z.string() });
export type IndexInfo = z.infer<typeof IndexInfoSchema>;

export const CollectionInfoSchema = z.object({
  /** The name callers use (the project id). */
  name: z.string(),
  /** The name in the engine: prefix + name. */
  physicalName: z.string(),
  fingerprint: EmbeddingFingerprintSchema,
  hybrid: z.boolean(),
  pointsCount: z.number().int().nonnegative(),
});
export type CollectionInfo = z.infer<typeof CollectionInfoSchema>;

export const InspectionSchema = CollectionInfoSchema.extend({
  /** Distinct `document_id` payload values (0 when no point has one). */
  documentsCount: z.number().int().nonnegative(),
  indexes: z.array(IndexInfoSchema),
  samplePayloads: z.array(z.record(z.string(), z.unknown())),
  engine: z.enum(['embedded', 'qdrant']),
});
export type Inspection = z.infer<typeof InspectionSchema>;

export interface EnsureCollectionSpec {
  fingerprint: EmbeddingFingerprint;
  /** Full-text (keyword) index for keyword and hybrid search. Never switched off once on. */
  hybrid: boolean;
  /** With another fingerprint: empty the collection and adopt the new model (callers re-ingest). */
  migrate?: boolean;
}

export interface ScrollOptions {
  filter?: Filter;
  /** Page size, default 100, at most 1000. */
  limit?: number;
  /** `next` of the previous page. */
  cursor?: string | null;
  /** One of INTEGER_FIELDS to order by (ascending; points without it are skipped). Default: an engine-defined stable order (by id). */
  orderBy?: string;
  withVector?: boolean;
}

/** Fusion: `fusion` ('zscore' default, or 'rrf'), `denseWeight`, `keywordWeight`, `candidates`, `rrfK`; defaults in `fusion.ts`. */
export interface HybridOptions extends FusionOptions {
  fingerprint: EmbeddingFingerprint;
  filter?: Filter;
  limit: number;
}

/**
 * Writes go in batches (embedded: `EMBEDDED_WRITE_BATCH` points or ids per transaction; Qdrant: `batchSize` per
 * request). `signal` is checked before each batch: once aborted, the call rejects with the signal's reason. A batch
 * already committed stays (the caller cleans up what it wrote); a write is never left half-applied within a batch.
 */
export interface WriteOptions {
  signal?: AbortSignal | undefined;
}

export interface UpsertOptions extends WriteOptions {
  fingerprint: EmbeddingFingerprint;
}

export interface VectorStore {
  readonly engine: 'embedded' | 'qdrant';
  ensureCollection(name: string, spec: EnsureCollectionSpec): Promise<CollectionInfo>;
  getCollection(name: string): Promise<CollectionInfo | null>;
  upsert(name: string, points: Point[], opts: UpsertOptions): Promise<void>;
  deleteByIds(name: string, ids: string[], opts?: WriteOptions): Promise<number>;
  /** Embedded: in batches as above. Qdrant: one server-side delete, the signal checked before it. */
  deleteByFilter(name: string, filter: Filter, opts?: WriteOptions): Promise<number>;
  /**
   * Merges `patch` into the payload of every point matching `filter` (keys in `patch` are set, others kept);
   * returns how many points matched. The filter needs a condition, as for `deleteByFilter`; patch values are
   * JSON values other than null, and reserved (`__`) keys are refused.
   */
  setPayload(name: string, filter: Filter, patch: Record<string, unknown>): Promise<number>;
  scroll(name: string, opts?: ScrollOptions): Promise<{ points: StoredPoint[]; next: string | null }>;
  count(name: string, filter?: Filter): Promise<number>;
  searchDense(
    name: string,
    vector: Float32Array | number[],
    opts: { fingerprint: EmbeddingFingerprint; filter?: Filter; limit: number },
  ): Promise<Hit[]>;
  searchKeyword(name: string, query: string, opts: { filter?: Filter; limit: number }): Promise<Hit[]>;
  searchHybrid(name: string, q: { vector: Float32Array | number[]; text: string }, opts: HybridOptions): Promise<Hit[]>;
  /**
   * Several collections in one call, each with its own query vector (and text, for a hybrid search of it); one
   * list merged by ranking score, each hit naming its collection (`searchAcross`).
   */
  searchMany(targets: readonly SearchTarget[], opts: SearchManyOptions): Promise<CollectionHit[]>;
  inspect(name: string, sampleSize?: number): Promise<Inspection>;
  listCollections(): Promise<CollectionInfo[]>;
  dropCollection(name: string): Promise<boolean>;
  /** Resolves when the store answers one cheap request (readiness, `/health`); no retry, the caller bounds it. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface VectorStoreOptions {
  /** When set, the Qdrant adapter is used; otherwise the embedded SQLite store under `dataDir`. */
  qdrantUrl?: string;
  qdrantApiKey?: string;
  /** Directory of the embedded database file (`vectors.sqlite`). */
  dataDir: string;
  /** Prefix of physical collection names, default `lectern_`. */
  collectionPrefix?: string;
  /** Store-wide hybrid fusion defaults (per-call options still win); see FUSION_DEFAULTS. */
  fusion?: FusionDefaults;
  log?: Logger;
  /**
   * Embedded store: worker threads that run the searches (`SEARCH_THREADS`; each opens the file read-only); 0 or
   * absent: searches run on the calling thread. Ignored with Qdrant.
   */
  searchThreads?: number;
}
