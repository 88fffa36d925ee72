// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Schemas } from '@qdrant/js-client-rest';
import type { Filter, Scalar } from '../vector-store.port.js';

type QFilter = Schemas['Filter'];
type QCondition = Schemas['Condition'];

/** A condition no point satisfies (Qdrant has no literal `false`). */
const NOTHING: QCondition = { has_id: [] };

const equals = (key: string, v: Scalar): QCondition =>
  typeof v === 'number' && !Number.isInteger(v)
    ? { key, range: { gte: v, lte: v } } // match.value takes strings, integers and booleans only
    : { key, match: { value: v } };

const anyOf = (key: string, values: Scalar[]): QCondition => {
  if (values.length === 0) return NOTHING;
  if (values.every((v) => typeof v === 'string')) return { key, match: { any: [...new Set(values as string[])] } };
  if (values.every((v) => typeof v === 'number' && Number.isInteger(v)))
    return { key, match: { any: [...new Set(values as number[])] } };
  return { should: values.map((v) => equals(key, v)) };
};

const condition = (key: string, cond: unknown): QCondition => {
  if (typeof cond === 'string' || typeof cond === 'number' || typeof cond === 'boolean') return equals(key, cond);
  const c = cond as { $in?: Scalar[]; $gte?: number; $lte?: number };
  if (c.$in !== undefined) return anyOf(key, c.$in);
  return {
    key,
    range: { ...(c.$gte !== undefined ? { gte: c.$gte } : {}), ...(c.$lte !== undefined ? { lte: c.$lte } : {}) },
  };
};

const conditions = (f: Filter): QCondition[] => {
  if ('$and' in f && Array.isArray(f.$and)) return (f.$and as Filter[]).map((x) => ({ must: conditions(x) }));
  return Object.entries(f).map(([k, c]) => condition(k, c));
};

/** The port's filter as a Qdrant filter; `extra` conditions are AND-ed (e.g. a full-text match). */
export const toQdrantFilter = (f: Filter | undefined, ...extra: QCondition[]): QFilter | undefined => {
  const must = [...(f ? conditions(f) : []), ...extra];
  return must.length === 0 ? undefined : { must };
};
