import type { EvidenceLeaf } from '@lectern/contracts';
import type { ChunkReader } from '../doc-tool-calls.js';
import { fieldName, getAt, isEmptyValue, isObject, setAt, type SchemaField } from '../schema-fields.js';
import { locateSnippet, valueOccurs } from './text-match.js';

export const NOT_FOUND_WARNING = 'Not found in document';

export interface VerifiedEvidence {
  /** Mirrors `data`: one leaf per field (per model for a per-model field given per-model evidence). */
  evidence: Record<string, unknown>;
  warnings: string[];
  /** Non-null fields, and how many of them are grounded. */
  counts: { values: number; grounded: number };
}

/** A locator as the chunker writes them (h3, h3-c2, h3-t1; h0 before the first heading). */
const LOCATOR = /^h\d{1,6}(-[ct]\d{1,6})?$/;

const isLeaf = (v: unknown): v is { locator?: unknown; snippet?: unknown } =>
  isObject(v) && ('locator' in v || 'snippet' in v);

const valuesOf = (value: unknown): unknown[] => {
  if (Array.isArray(value)) return value.flatMap(valuesOf);
  if (isObject(value)) return Object.values(value).flatMap(valuesOf);
  return isEmptyValue(value) ? [] : [value];
};

const display = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/**
 * Verify, never trust: every non-null value's snippet must be found in the chunk at its locator (exact, then
 * whitespace/case-normalised, then fuzzy), and the value must occur in (or follow from) that chunk. A value that
 * fails is kept but its evidence says `grounded: false`, with a warning naming the field. Null values get the
 * spec's null evidence and a "not found" warning.
 */
export const verifyEvidence = async (
  fields: SchemaField[],
  data: Record<string, unknown>,
  claimed: Record<string, unknown>,
  read: ChunkReader,
): Promise<VerifiedEvidence> => {
  const evidence: Record<string, unknown> = {};
  const warnings: string[] = [];
  const counts = { values: 0, grounded: 0 };

  const check = async (name: string, values: unknown[], leaf: unknown): Promise<EvidenceLeaf> => {
    counts.values += 1;
    const fail = (locator: string | null, snippet: string | null, why: string): EvidenceLeaf => {
      warnings.push(`Field '${name}' is not grounded: ${why}`);
      return { locator, snippet, grounded: false, warning: why };
    };
    if (!isLeaf(leaf)) return fail(null, null, 'no evidence was given for this value');
    const locator = typeof leaf.locator === 'string' ? leaf.locator : null;
    const snippet = typeof leaf.snippet === 'string' ? leaf.snippet : null;
    if (!locator || !LOCATOR.test(locator))
      return fail(locator, snippet, `the evidence locator ${JSON.stringify(leaf.locator ?? null)} is not a locator`);
    if (!snippet || snippet.trim() === '') return fail(locator, snippet, 'the evidence snippet is empty');
    const chunk = await read(locator);
    if (chunk === undefined) return fail(locator, snippet, `there is no chunk ${locator} in the document`);
    const match = locateSnippet(snippet, chunk);
    if (!match) return fail(locator, snippet, `the evidence snippet was not found in chunk ${locator}`);
    const missing = values.find((v) => !valueOccurs(v, chunk));
    if (missing !== undefined)
      return { ...fail(locator, snippet, `the value ${display(missing)} does not occur in chunk ${locator}`), match };
    counts.grounded += 1;
    return { locator, snippet, grounded: true, match };
  };

  for (const field of fields) {
    const name = fieldName(field.path);
    const value = getAt(data, field.path);
    if (isEmptyValue(value)) {
      setAt(evidence, field.path, { locator: null, snippet: null, warning: NOT_FOUND_WARNING });
      warnings.push(`Field '${name}' not found in document`);
      continue;
    }
    const leaf = getAt(claimed, field.path);
    if (isObject(value) && isObject(leaf) && !isLeaf(leaf)) {
      // per-model evidence: one leaf per model key
      const perModel: Record<string, EvidenceLeaf> = {};
      for (const [model, modelValue] of Object.entries(value)) {
        if (isEmptyValue(modelValue)) continue;
        perModel[model] = await check(`${name}.${model}`, valuesOf(modelValue), leaf[model]);
      }
      setAt(evidence, field.path, perModel);
      continue;
    }
    setAt(evidence, field.path, await check(name, valuesOf(value), leaf));
  }
  return { evidence, warnings, counts };
};
