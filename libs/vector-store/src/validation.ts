// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import { resolveFusion, type FusionDefaults, type FusionParams } from './fusion.js';
import { INTEGER_FIELDS } from './payload-indexes.js';
import {
  CollectionNameSchema,
  EmbeddingFingerprintSchema,
  FilterSchema,
  type EmbeddingFingerprint,
  type Filter,
  type HybridOptions,
  type Point,
} from './vector-store.port.js';

const invalid = (message: string): AppError => new AppError('invalid_arguments', message, { httpStatus: 400 });

export const checkName = (name: string): string => {
  if (!CollectionNameSchema.safeParse(name).success) {
    throw invalid(`Invalid collection name "${name}": use 1-64 letters, digits, "_" or "-".`);
  }
  return name;
};

export const checkField = (field: string): string => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) throw invalid(`Invalid payload field name "${field}".`);
  return field;
};

/** Ordered scrolls use the integer-indexed payload fields (Qdrant needs a range index to order by). */
export const checkOrderBy = (field: string | undefined): string | undefined => {
  if (field !== undefined && !(INTEGER_FIELDS as readonly string[]).includes(field)) {
    throw invalid(`orderBy must be one of ${INTEGER_FIELDS.join(', ')}.`);
  }
  return field;
};

export const checkFilter = (filter: Filter | undefined): Filter | undefined => {
  if (filter === undefined) return undefined;
  const r = FilterSchema.safeParse(filter);
  if (!r.success) throw invalid(`Invalid filter: ${r.error.issues.map((i) => i.message).join('; ')}`);
  return filter;
};

/** A delete needs a condition: `{}` (or `{$and: []}`) would match every point. */
export const checkDeleteFilter = (filter: Filter): Filter => {
  checkFilter(filter);
  const empty = (f: Filter): boolean =>
    '$and' in f && Array.isArray(f.$and) ? (f.$and as Filter[]).every(empty) : Object.keys(f).length === 0;
  if (empty(filter))
    throw invalid('deleteByFilter needs at least one condition (drop the collection to delete everything).');
  return filter;
};

/** A payload patch: a non-empty object of non-null values, no reserved keys. */
export const checkPatch = (patch: Record<string, unknown>): Record<string, unknown> => {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch))
    throw invalid('A payload patch must be an object.');
  const keys = Object.keys(patch);
  if (keys.length === 0) throw invalid('A payload patch needs at least one field.');
  for (const k of keys) {
    checkField(k);
    if (k.startsWith(RESERVED_PREFIX)) throw invalid(`Payload key "${k}" is reserved (keys starting with "__").`);
    const v = patch[k];
    if (v === null || v === undefined) throw invalid(`Payload patch field "${k}" has no value (null cannot be set).`);
  }
  return patch;
};

export const checkFingerprint = (fp: EmbeddingFingerprint): EmbeddingFingerprint => {
  const r = EmbeddingFingerprintSchema.safeParse(fp);
  if (!r.success) throw invalid('Invalid embedding fingerprint.');
  return r.data;
};

export const checkLimit = (limit: number, max = 1000): number => {
  if (!Number.isInteger(limit) || limit < 1 || limit > max) throw invalid(`limit must be an integer in 1..${max}.`);
  return limit;
};

const describe = (f: EmbeddingFingerprint): string =>
  `${f.model_id}@${f.revision} (dimension ${f.dimension}, ${f.normalized ? 'normalized' : 'not normalized'})`;

export const sameFingerprint = (a: EmbeddingFingerprint, b: EmbeddingFingerprint): boolean =>
  a.model_id === b.model_id &&
  a.revision === b.revision &&
  a.dimension === b.dimension &&
  a.normalized === b.normalized;

/** Refuses a write or query made with another embedding model than the collection's. */
export const assertFingerprint = (name: string, stored: EmbeddingFingerprint, given: EmbeddingFingerprint): void => {
  if (!sameFingerprint(stored, given)) {
    throw new AppError(
      'EMBEDDING_MISMATCH',
      `Collection "${name}" holds embeddings of ${describe(stored)}, but this request uses ${describe(given)}. ` +
        "Use the collection's model, or re-ingest with migration enabled.",
      { httpStatus: 409 },
    );
  }
};

export const collectionNotFound = (name: string): AppError =>
  new AppError('INVALID_PROJECT', `Collection "${name}" does not exist.`, { httpStatus: 404 });

export const hybridNotSupported = (name: string): AppError =>
  new AppError(
    'HYBRID_NOT_SUPPORTED',
    `Collection "${name}" has no full-text index: create it with hybrid search enabled.`,
    { httpStatus: 400 },
  );

/** Vector as Float32Array with the expected dimension and finite values. */
export const checkVector = (v: Float32Array | number[], dimension: number, what: string): Float32Array => {
  if (v.length !== dimension)
    throw invalid(`${what} has dimension ${v.length}, the collection's model has ${dimension}.`);
  const f = v instanceof Float32Array ? v : Float32Array.from(v);
  for (let i = 0; i < f.length; i++) if (!Number.isFinite(f[i])) throw invalid(`${what} holds a non-finite value.`);
  return f;
};

/** A hybrid search's options, checked (limit, filter) and resolved against the store's fusion defaults. */
export const checkHybridOptions = (
  opts: HybridOptions,
  fusion: FusionDefaults,
): { limit: number; filter: Filter | undefined; fusion: FusionParams } => {
  const limit = checkLimit(opts.limit);
  return { limit, filter: checkFilter(opts.filter), fusion: resolveFusion(limit, opts, fusion) };
};

/**
 * What a search asks of the collection it reads, in both stores: the query's model is the collection's, a keyword
 * or hybrid search finds a full-text index, and the query vector (when there is one) fits the model. Returns the
 * vector as Float32Array (null without one).
 */
export function checkQueryTarget(
  name: string,
  c: { fingerprint: EmbeddingFingerprint; hybrid: boolean },
  vector: Float32Array | number[],
  fingerprint: EmbeddingFingerprint | undefined,
  keyword: boolean,
): Float32Array;
export function checkQueryTarget(
  name: string,
  c: { fingerprint: EmbeddingFingerprint; hybrid: boolean },
  vector: Float32Array | number[] | null,
  fingerprint: EmbeddingFingerprint | undefined,
  keyword: boolean,
): Float32Array | null;
export function checkQueryTarget(
  name: string,
  c: { fingerprint: EmbeddingFingerprint; hybrid: boolean },
  vector: Float32Array | number[] | null,
  fingerprint: EmbeddingFingerprint | undefined,
  keyword: boolean,
): Float32Array | null {
  if (fingerprint) assertFingerprint(name, c.fingerprint, checkFingerprint(fingerprint));
  if (keyword && !c.hybrid) throw hybridNotSupported(name);
  return vector ? checkVector(vector, c.fingerprint.dimension, 'Query vector') : null;
}

export const RESERVED_PREFIX = '__';

export const checkPoints = (points: Point[], dimension: number): Float32Array[] => {
  const seen = new Set<string>();
  return points.map((p) => {
    if (typeof p.id !== 'string' || p.id.length === 0 || p.id.length > 512)
      throw invalid('Point ids are non-empty strings (at most 512 characters).');
    if (seen.has(p.id)) throw invalid(`Point id "${p.id}" appears twice in one batch.`);
    seen.add(p.id);
    if (typeof p.text !== 'string') throw invalid(`Point "${p.id}" has no text.`);
    if (p.payload === null || typeof p.payload !== 'object' || Array.isArray(p.payload))
      throw invalid(`Point "${p.id}" payload must be an object.`);
    for (const k of Object.keys(p.payload)) {
      if (k.startsWith(RESERVED_PREFIX)) throw invalid(`Payload key "${k}" is reserved (keys starting with "__").`);
    }
    return checkVector(p.vector, dimension, `Point "${p.id}" vector`);
  });
};
