// SPDX-License-Identifier: AGPL-3.0-or-later
import type { EvidenceLeaf } from '@lectern/contracts';
import type { PdfPages } from '@lectern/conversion';
import type { ChunkReader } from '../doc-tool-calls.js';
import { labelMatches, partialLabel } from '../fields/field-words.js';
import { quantityOfUnit } from '../fields/field-kinds.js';
import { identifierNamedIn } from '../local/value-cleanup.js';
import { fieldName, getAt, isEmptyValue, isObject, setAt, type SchemaField } from '../schema-fields.js';
import { locateSnippet, valueOccurs } from './text-match.js';

export const NOT_FOUND_WARNING = 'Not found in document';

/** How a value was matched, as an extractor claims it (the evidence check keeps it; `agent` when absent). */
export type MatchMethod = NonNullable<EvidenceLeaf['match']>;

export interface VerifiedEvidence {
  /** Mirrors `data`: one leaf per field (per model for a per-model field given per-model evidence). */
  evidence: Record<string, unknown>;
  warnings: string[];
  /** Non-null fields, and how many of them are grounded. */
  counts: { values: number; grounded: number };
}

export interface VerifyOptions {
  /** The task's document when it is a PDF: each snippet is searched on its pages (page + quads). */
  pages?: PdfPages | undefined;
}

/** A locator as the chunker writes them (h3, h3-c2, h3-t1; h0 before the first heading). */
const LOCATOR = /^h\d{1,6}(-[ct]\d{1,6})?$/;
const METHODS = new Set<string>(['table_cell', 'key_value', 'pattern', 'agent']);

const isLeaf = (v: unknown): v is Record<string, unknown> => isObject(v) && ('locator' in v || 'snippet' in v);

const valuesOf = (value: unknown): unknown[] => {
  if (Array.isArray(value)) return value.flatMap(valuesOf);
  if (isObject(value)) return Object.values(value).flatMap(valuesOf);
  return isEmptyValue(value) ? [] : [value];
};

const display = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** Where the snippet is in the document: the first page it is found on, with its quads there. */
const onPage = (
  pages: PdfPages,
  snippet: string,
): Pick<EvidenceLeaf, 'page' | 'quads' | 'page_width' | 'page_height'> | undefined => {
  const [page] = pages.pagesWith(snippet);
  if (page === undefined) return undefined;
  const found = pages.find(page, snippet);
  return { page, quads: found.quads, page_width: found.page_width, page_height: found.page_height };
};

/**
 * Verify, never trust. A non-null value is `grounded` only when all of these hold: its snippet is found in the
 * chunk at its locator (exact, then whitespace/case-normalised, then fuzzy); the value (normalised) occurs in
 * the snippet; the snippet names the field (its label words, synonyms or description: `labelMatches`); and, for
 * a PDF, the snippet is found on a page (mupdf's search; the leaf then carries `page`, `quads` and the page
 * size). A value that fails is kept, its evidence says `grounded: false` with the reason, its confidence is
 * capped at 0.2, and a warning names the field. Null values get the spec's null evidence and a "not found"
 * warning. The LLM agent's evidence goes through the same check as the offline extractor's.
 */
export const verifyEvidence = async (
  fields: SchemaField[],
  data: Record<string, unknown>,
  claimed: Record<string, unknown>,
  read: ChunkReader,
  options: VerifyOptions = {},
): Promise<VerifiedEvidence> => {
  const evidence: Record<string, unknown> = {};
  const warnings: string[] = [];
  const counts = { values: 0, grounded: 0 };

  const check = async (field: SchemaField, name: string, values: unknown[], leaf: unknown): Promise<EvidenceLeaf> => {
    counts.values += 1;
    const claimedMethod = isLeaf(leaf) && typeof leaf['match'] === 'string' && METHODS.has(leaf['match']);
    const match = (claimedMethod ? (leaf as { match: MatchMethod }).match : 'agent') as MatchMethod;
    const claimedConfidence =
      isLeaf(leaf) && typeof leaf['confidence'] === 'number' && leaf['confidence'] >= 0 && leaf['confidence'] <= 1
        ? leaf['confidence']
        : match === 'agent'
          ? 0.8
          : 0.7;
    const fail = (base: EvidenceLeaf, why: string): EvidenceLeaf => {
      warnings.push(`Field '${name}' is not grounded: ${why}`);
      return { ...base, grounded: false, warning: why, match, confidence: Math.min(claimedConfidence, 0.2) };
    };
    if (!isLeaf(leaf)) return fail({ locator: null, snippet: null }, 'no evidence was given for this value');
    const locator = typeof leaf['locator'] === 'string' ? leaf['locator'] : null;
    const snippet = typeof leaf['snippet'] === 'string' ? leaf['snippet'] : null;
    const base: EvidenceLeaf = { locator, snippet };
    if (!locator || !LOCATOR.test(locator))
      return fail(base, `the evidence locator ${JSON.stringify(leaf['locator'] ?? null)} is not a locator`);
    if (!snippet || snippet.trim() === '') return fail(base, 'the evidence snippet is empty');
    const chunk = await read(locator);
    if (chunk === undefined) return fail(base, `there is no chunk ${locator} in the document`);
    const snippetMatch = locateSnippet(snippet, chunk);
    if (!snippetMatch) return fail(base, `the evidence snippet was not found in chunk ${locator}`);
    const located: EvidenceLeaf = { ...base, snippet_match: snippetMatch };
    const page = options.pages ? onPage(options.pages, snippet) : undefined;
    if (page) Object.assign(located, page);
    const missing = values.find((v) => !valueOccurs(v, snippet));
    if (missing !== undefined) return fail(located, `the value ${display(missing)} does not occur in the snippet`);
    // (the value's unit says which quantity it is: "160 °C" under "Thermal shutdown" names a shutdown temperature)
    const says = values.map((v) => quantityOfUnit(String(v)) ?? '').join(' ');
    // (or an identifier labelled by its thing alone: "| ROOM | 312 |" for room_number)
    // (or a label of the page layout, "label\n…\nvalue", printing part of this field's name and of no other's)
    const [layoutLabel, ...rest] = snippet.split('\n…\n');
    const partial = rest.length === 1 && partialLabel(field, layoutLabel!, fields);
    if (
      !partial &&
      !labelMatches(field, snippet) &&
      !labelMatches(field, `${snippet} ${says}`) &&
      !values.every((v) => identifierNamedIn(field, snippet, String(v)))
    )
      return fail(located, `the snippet does not name the field (${name.split('.').pop()}) or its synonyms`);
    if (options.pages && !page) return fail(located, 'the snippet was not found on any page of the document');
    counts.grounded += 1;
    return { ...located, grounded: true, match, confidence: claimedConfidence };
  };

  for (const field of fields) {
    const name = fieldName(field.path);
    const value = getAt(data, field.path);
    if (isEmptyValue(value)) {
      setAt(evidence, field.path, { locator: null, snippet: null, warning: NOT_FOUND_WARNING });
      const seen = getAt(claimed, field.path);
      const why =
        isLeaf(seen) && typeof seen['warning'] === 'string' && seen['warning'] !== NOT_FOUND_WARNING
          ? `: ${seen['warning']}`
          : '';
      warnings.push(`Field '${name}' not found in document${why}`);
      if (why) setAt(evidence, field.path, { locator: null, snippet: null, warning: `${NOT_FOUND_WARNING}${why}` });
      continue;
    }
    const leaf = getAt(claimed, field.path);
    if (isObject(value) && isObject(leaf) && !isLeaf(leaf)) {
      // per-model evidence: one leaf per model key
      const perModel: Record<string, EvidenceLeaf> = {};
      for (const [model, modelValue] of Object.entries(value)) {
        if (isEmptyValue(modelValue)) continue;
        perModel[model] = await check(field, `${name}.${model}`, valuesOf(modelValue), leaf[model]);
      }
      setAt(evidence, field.path, perModel);
      continue;
    }
    setAt(evidence, field.path, await check(field, name, valuesOf(value), leaf));
  }
  return { evidence, warnings, counts };
};
