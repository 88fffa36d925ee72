// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { boundedString } from './input-bounds.schema.js';

/**
 * Spec 003's document tools (extraction-api's `/mcp`): what they share. An index is named by a SHA-256
 * (hex) — of the file bytes, or of the bytes and the client's `cache_key` — and lives under
 * `DATA_DIR/cache/{index_id}/`.
 */
export const IndexIdField = z
  .string()
  .length(64)
  .regex(/^[0-9a-f]{64}$/, 'an index_id is 64 lowercase hex characters (a SHA-256)')
  .describe('The index_id returned by doc_index_build.');

/**
 * A chunk locator (spec 003 section 6): `h{n}` is the n-th heading (its whole section), `h{n}-c{m}` the m-th
 * text chunk under it, `h{n}-t{m}` its m-th table. Text and tables before the first heading are under `h0`.
 */
export const LocatorSchema = z
  .string()
  .max(32)
  .regex(/^h\d{1,6}(-[ct]\d{1,6})?$/, 'a locator looks like h3, h3-c2 or h3-t1');

export const ChunkKindSchema = z.enum(['text', 'table']);
export type ChunkKind = z.infer<typeof ChunkKindSchema>;

/** What `doc_read` returns: a chunk, or (for an `h{n}` locator) the heading's whole section. */
export const ReadKindSchema = z.enum(['text', 'table', 'section']);

export const DocTypeSchema = z.enum(['pdf', 'docx', 'txt', 'md', 'html', 'image']);

export const DocSearchModeSchema = z.enum(['tfidf', 'bm25', 'hybrid']);
export type DocSearchMode = z.infer<typeof DocSearchModeSchema>;

/** A chunk's metadata (spec 003 section 6: heading ancestry, original heading, index under its heading). */
export const ChunkMetaSchema = z.object({
  heading_path: z.string().describe('Heading ancestry joined by " > " (empty before the first heading).'),
  original_heading: z.string().nullable().describe('The heading this chunk is under (null before the first heading).'),
  chunk_index: z.number().int().nonnegative().describe('m of h{n}-c{m} / h{n}-t{m}; 0 for a section.'),
  headings: z.array(z.string()).describe('The heading ancestry, outermost first.'),
  heading_level: z.number().int().min(0).max(6).describe('Markdown level of original_heading (0: none).'),
});
export type ChunkMeta = z.infer<typeof ChunkMetaSchema>;

/** Bounds of the JSON values `json_validate_and_normalize` accepts (a result document, not a data dump). */
export const JsonBounds = { maxChars: 1_000_000, maxDepth: 32 } as const;

const depthOf = (value: unknown, depth = 0): number => {
  if (depth > JsonBounds.maxDepth) return depth;
  if (value === null || typeof value !== 'object') return depth;
  let max = depth + 1;
  for (const v of Object.values(value)) max = Math.max(max, depthOf(v, depth + 1));
  return max;
};

/** A JSON object of at most `JsonBounds.maxChars` serialised characters and `JsonBounds.maxDepth` levels. */
export const BoundedJsonObject = z.record(z.string().max(1000), z.unknown()).superRefine((value, ctx) => {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be JSON' });
    return;
  }
  if (text.length > JsonBounds.maxChars)
    ctx.addIssue({ code: 'custom', message: `at most ${JsonBounds.maxChars} characters of JSON` });
  else if (depthOf(value) > JsonBounds.maxDepth)
    ctx.addIssue({ code: 'custom', message: `at most ${JsonBounds.maxDepth} levels deep` });
});

export const CacheKeyField = boundedString(256);
