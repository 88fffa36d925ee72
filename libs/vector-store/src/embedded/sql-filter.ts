// SPDX-License-Identifier: AGPL-3.0-or-later
import { codeTokens } from '../lexical.js';
import { queryPhrases, queryTerms } from '../query-terms.js';
import type { Filter, Scalar } from '../vector-store.port.js';

export interface SqlFragment {
  sql: string;
  params: (string | number)[];
}

/**
 * Compiles a (validated) filter into a SQL boolean over the JSONB column `payload` of table alias `p`.
 * Every condition goes through `json_each`, which yields the elements of an array and the value itself for a
 * scalar: one rule gives Qdrant's semantics (an array field matches when any element does; absent never matches).
 * Field names are validated against /^[A-Za-z_][A-Za-z0-9_]*$/ before they reach here, so inlining them is safe.
 */
export const compileFilter = (filter: Filter | undefined): SqlFragment => {
  if (filter === undefined) return { sql: '1', params: [] };
  const params: (string | number)[] = [];
  const sql = node(filter, params);
  return { sql, params };
};

const node = (f: Filter, params: (string | number)[]): string => {
  if ('$and' in f && Array.isArray(f.$and)) {
    const parts = (f.$and as Filter[]).map((x) => node(x, params));
    return parts.length === 0 ? '1' : `(${parts.join(' AND ')})`;
  }
  const parts = Object.entries(f).map(([field, cond]) => condition(field, cond, params));
  return parts.length === 0 ? '1' : `(${parts.join(' AND ')})`;
};

const each = (field: string, where: string): string =>
  `EXISTS (SELECT 1 FROM json_each(p.payload, '$.${field}') WHERE ${where})`;

const scalar = (v: Scalar, params: (string | number)[]): string => {
  if (typeof v === 'boolean') return `type = '${v ? 'true' : 'false'}'`;
  params.push(v);
  return typeof v === 'number' ? `(type IN ('integer','real') AND value = ?)` : `(type = 'text' AND value = ?)`;
};

/**
 * One of `values`: an `IN (...)` list per JSON type, not one OR-ed comparison per value — a chain of thousands of ORs
 * passes SQLite's expression depth limit ("Expression tree is too large"), e.g. a `store_chunks` call naming
 * thousands of documents.
 */
const anyOf = (values: readonly Scalar[], params: (string | number)[]): string => {
  const texts = values.filter((v): v is string => typeof v === 'string');
  const numbers = values.filter((v): v is number => typeof v === 'number');
  const parts: string[] = [];
  const list = (vs: readonly (string | number)[]): string => {
    params.push(...vs);
    return vs.map(() => '?').join(',');
  };
  if (texts.length > 0) parts.push(`(type = 'text' AND value IN (${list(texts)}))`);
  if (numbers.length > 0) parts.push(`(type IN ('integer','real') AND value IN (${list(numbers)}))`);
  for (const b of new Set(values.filter((v): v is boolean => typeof v === 'boolean'))) parts.push(scalar(b, params));
  return `(${parts.join(' OR ')})`;
};

const condition = (field: string, cond: unknown, params: (string | number)[]): string => {
  if (typeof cond === 'string' || typeof cond === 'number' || typeof cond === 'boolean') {
    return each(field, scalar(cond, params));
  }
  const c = cond as { $in?: Scalar[]; $gte?: number; $lte?: number };
  if (c.$in !== undefined) {
    if (c.$in.length === 0) return '0';
    return each(field, anyOf(c.$in, params));
  }
  const bounds: string[] = [`type IN ('integer','real')`];
  if (c.$gte !== undefined) {
    bounds.push('value >= ?');
    params.push(c.$gte);
  }
  if (c.$lte !== undefined) {
    bounds.push('value <= ?');
    params.push(c.$lte);
  }
  return each(field, bounds.join(' AND '));
};

/**
 * FTS5 MATCH expression: the query's words (see queryTerms) and its code tokens (lexical.ts: `MR-J5-60G4`,
 * `Para 11` as one compound, found in the `codes` field), each quoted, OR-ed, less the words in `leaveOut`;
 * null when there is none.
 */
export const ftsQuery = (text: string, leaveOut: ReadonlySet<string> = new Set()): string | null =>
  ftsMatch(ftsWords(text, leaveOut));

/** `ftsWords` as an FTS5 MATCH expression: each a phrase, OR-ed; null when there is none. */
export const ftsMatch = (words: readonly string[]): string | null =>
  words.length === 0 ? null : words.map((w) => `"${w}"`).join(' OR ');

/** The phrases of `ftsQuery`, unquoted, in its order. */
export const ftsWords = (text: string, leaveOut: ReadonlySet<string> = new Set()): string[] => [
  ...new Set([...queryTerms(text, 64).filter((w) => !leaveOut.has(w)), ...codeTokens(text)]),
];

/**
 * FTS5 MATCH expression of the query's adjacent content-word pairs as phrases (queryPhrases), OR-ed; null when it has
 * none. A pair with a left-out (common) word is not used: it would cost what leaving the word out saved.
 */
export const ftsPhraseQuery = (text: string, leaveOut: ReadonlySet<string> = new Set()): string | null => {
  const pairs = queryPhrases(text).filter(([a, b]) => !leaveOut.has(a) && !leaveOut.has(b));
  return pairs.length === 0 ? null : pairs.map(([a, b]) => `"${a} ${b}"`).join(' OR ');
};
