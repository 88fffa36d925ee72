// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ExtractionSchema } from '@lectern/contracts';

/** A field to extract: a leaf of the target schema skeleton. */
export interface SchemaField {
  path: string[];
  /** `dict`: per-model values keyed by model; `list`: an array; `scalar`: anything else. */
  kind: 'scalar' | 'list' | 'dict';
  /** The skeleton's value (a description, an example, or empty). */
  hint: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The leaves of a schema skeleton, in document order (see `ExtractionSchemaSkeleton` for the conventions). */
export const schemaFields = (schema: ExtractionSchema | Record<string, unknown>): SchemaField[] => {
  const fields: SchemaField[] = [];
  const walk = (node: Record<string, unknown>, path: string[]) => {
    for (const [key, value] of Object.entries(node)) {
      const here = [...path, key];
      if (isObject(value) && Object.keys(value).length > 0) walk(value, here);
      else if (Array.isArray(value)) fields.push({ path: here, kind: 'list', hint: value });
      else if (isObject(value) || /_per_model$/.test(key)) fields.push({ path: here, kind: 'dict', hint: value });
      else fields.push({ path: here, kind: 'scalar', hint: value });
    }
  };
  walk(schema as Record<string, unknown>, []);
  return fields;
};

export const fieldName = (path: readonly string[]): string => path.join('.');

export const getAt = (root: unknown, path: readonly string[]): unknown => {
  let node = root;
  for (const key of path) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
};

export const setAt = (root: Record<string, unknown>, path: readonly string[], value: unknown): void => {
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
};

/** null, undefined, '', [] and {} hold no value. */
export const isEmptyValue = (value: unknown): boolean =>
  value === null ||
  value === undefined ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0) ||
  (isObject(value) && Object.keys(value).length === 0);

export { isObject };
