// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';

/**
 * extraction-api's task API (spec 003 section 4): `POST /tasks` (multipart `file` + `schema`), `GET /tasks/{id}`,
 * `GET /tasks/{id}/result`, `GET /tasks` and `DELETE /tasks/{id}`.
 */

/** Bounds of a target schema skeleton: a client can send a smaller one, never a larger one. */
export const EXTRACTION_SCHEMA_LIMITS = {
  maxBytes: 64 * 1024,
  maxDepth: 8,
  maxLeaves: 500,
  /** Keys at every level together (groups and fields). */
  maxKeys: 1000,
  maxKeyChars: 200,
} as const;

/** Keys a schema may not use: they name JavaScript's object machinery, not fields. */
export const RESERVED_SCHEMA_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** The dotted path of the first reserved key in a parsed JSON value (own keys, as JSON.parse makes them), if any. */
export const reservedKeyPath = (value: unknown, path = ''): string | undefined => {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of Object.keys(value)) {
    const here = path ? `${path}.${key}` : key;
    if ((RESERVED_SCHEMA_KEYS as readonly string[]).includes(key)) return here;
    const found = reservedKeyPath((value as Record<string, unknown>)[key], here);
    if (found) return found;
  }
  return undefined;
};

/**
 * The deepest nesting of objects and arrays in a JSON text, counted on the raw text (strings skipped) and given
 * up past `limit`: a 10,000-level document is refused before any recursive parser or validator sees it.
 * Hand-written: a one-pass bracket counter; JSON.parse and zod would recurse (and overflow) first.
 */
export const jsonNestingExceeds = (raw: string, limit: number): boolean => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return false;
};

export const ExtractionTaskStatusValues = ['queued', 'running', 'succeeded', 'failed'] as const;
export const ExtractionTaskStatusEnum = z.enum(ExtractionTaskStatusValues);
export type ExtractionTaskState = z.infer<typeof ExtractionTaskStatusEnum>;

/** Which extractor produced (or is producing) a task's result. */
export const ExtractorKindValues = ['anthropic', 'openai', 'local'] as const;
export const ExtractorKindSchema = z.enum(ExtractorKindValues);
export type ExtractorKind = z.infer<typeof ExtractorKindSchema>;

/** Spec 003's failed-task error (`message` + `details`), with the machine-readable `code` every Lectern error has. */
export const ExtractionTaskErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.array(z.string()),
});
export type ExtractionTaskError = z.infer<typeof ExtractionTaskErrorSchema>;

export const ExtractionTaskProgressSchema = z.object({
  stage: z.enum(['queued', 'indexing', 'extracting', 'verifying', 'done']),
  /** Fields (leaves of the schema) handled so far, of `fields_total`. */
  fields_done: z.number().int().nonnegative().optional(),
  fields_total: z.number().int().nonnegative().optional(),
  message: z.string().optional(),
});
export type ExtractionTaskProgress = z.infer<typeof ExtractionTaskProgressSchema>;

export const ExtractionTaskCreatedSchema = z.object({ task_id: z.string() });
export type ExtractionTaskCreated = z.infer<typeof ExtractionTaskCreatedSchema>;

/** `GET /tasks/{id}`: the spec's fields plus the file, the attempt count, the extractor and the progress. */
export const ExtractionTaskStatusSchema = z.object({
  task_id: z.string(),
  status: ExtractionTaskStatusEnum,
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  started_at: z.iso.datetime().nullable(),
  finished_at: z.iso.datetime().nullable(),
  original_filename: z.string(),
  extractor: ExtractorKindSchema,
  attempts: z.number().int().nonnegative(),
  progress: ExtractionTaskProgressSchema,
  error: ExtractionTaskErrorSchema.nullable(),
});
export type ExtractionTaskStatus = z.infer<typeof ExtractionTaskStatusSchema>;

/**
 * One evidence leaf: where the value was read. `grounded` (Lectern's own check): the value occurs in the snippet,
 * the snippet in the chunk at `locator` and on the page (`page`, `quads`, for a PDF), and the snippet names the field.
 */
export const EvidenceLeafSchema = z.object({
  locator: z.string().nullable(),
  snippet: z.string().nullable(),
  warning: z.string().optional(),
  grounded: z.boolean().optional(),
  /**
   * How the value was matched (issue 26): a table cell under a row label, a `Label: value` line, a pattern in a
   * labelled sentence (a date, a party, a total), or an LLM agent's reading.
   */
  match: z.enum(['table_cell', 'key_value', 'pattern', 'agent']).optional(),
  /** How the snippet was located in the chunk: exact, normalised (whitespace/case) or fuzzy. */
  snippet_match: z.enum(['exact', 'normalized', 'fuzzy']).optional(),
  /**
   * 0..1: the extractor's confidence in the value, capped at 0.2 when it is not grounded. The offline extractor's is a
   * calibrated probability that the value is right (issue 26, round 8: a logistic model of how the value was read,
   * fitted leave-one-set-out on the extraction benchmark; libs/extraction/src/local/calibration.ts): below `ABSTAIN_BELOW` (0.35) it
   * returns null instead, with a warning naming the value seen and its confidence. An LLM agent's is its own claim
   * (0.8 when it gives none), not calibrated.
   */
  confidence: z.number().min(0).max(1).optional(),
  /** Lectern's additions (issue 26): the 1-based PDF page the snippet was found on, by mupdf's text search. */
  page: z.number().int().positive().optional(),
  /** The snippet's quads on that page: 8 numbers each (ul, ur, ll, lr corners), PDF points, origin top-left. */
  quads: z.array(z.array(z.number()).length(8)).optional(),
  /** The page's size in PDF points (what the quads are relative to). */
  page_width: z.number().positive().optional(),
  page_height: z.number().positive().optional(),
});
export type EvidenceLeaf = z.infer<typeof EvidenceLeafSchema>;

export const ExtractionTimingSchema = z.object({
  total_seconds: z.number().nonnegative(),
  index_seconds: z.number().nonnegative(),
  extraction_seconds: z.number().nonnegative(),
});
export type ExtractionTiming = z.infer<typeof ExtractionTimingSchema>;

/** `GET /tasks/{id}/result` of a succeeded task (spec 003 section 12). */
export const ExtractionResultSchema = z.object({
  task_id: z.string(),
  data: z.record(z.string(), z.unknown()),
  evidence: z.record(z.string(), z.unknown()),
  warnings: z.array(z.string()),
  timing: ExtractionTimingSchema,
  extractor: ExtractorKindSchema,
});
export type ExtractionResult = z.infer<typeof ExtractionResultSchema>;

export const ExtractionTaskFailedSchema = z.object({
  task_id: z.string(),
  status: z.literal('failed'),
  error: ExtractionTaskErrorSchema,
});
export type ExtractionTaskFailed = z.infer<typeof ExtractionTaskFailedSchema>;

/** `GET /tasks?limit=&cursor=`: newest first. */
export const ExtractionTaskListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).max(64).optional(),
  status: ExtractionTaskStatusEnum.optional(),
});
export type ExtractionTaskListQuery = z.infer<typeof ExtractionTaskListQuerySchema>;

export const ExtractionTaskListSchema = z.object({
  tasks: z.array(ExtractionTaskStatusSchema),
  next_cursor: z.string().optional(),
});
export type ExtractionTaskList = z.infer<typeof ExtractionTaskListSchema>;

/** `GET /tasks/{id}/pages/{page}.png?dpi=` and `GET /tasks/{id}/evidence/{n}/page.png?dpi=`: the image's resolution. */
export const PageImageQuerySchema = z.object({
  dpi: z.coerce.number().int().min(20).max(200).default(110),
});
export type PageImageQuery = z.infer<typeof PageImageQuerySchema>;

/** A JSON value of a target schema skeleton (objects nest groups; arrays, `{}` and scalars are leaves). */
type SkeletonValue = null | boolean | number | string | SkeletonValue[] | { [key: string]: SkeletonValue };

const describeBounds = `at most ${EXTRACTION_SCHEMA_LIMITS.maxDepth} levels, ${EXTRACTION_SCHEMA_LIMITS.maxLeaves} fields, keys of ${EXTRACTION_SCHEMA_LIMITS.maxKeyChars} characters`;

/**
 * The target schema skeleton: a non-empty JSON object whose keys are the fields to extract. A non-empty object
 * value is a group of fields; an array is a list field; `{}` (or a key ending in `_per_model`) is a per-model
 * dict field; any other value (a description, an example, null) is a scalar field.
 */
export const ExtractionSchemaSkeleton = z
  .record(z.string(), z.json())
  .refine(
    (value) => !Array.isArray(value) && Object.keys(value).length > 0,
    'the schema must be a non-empty JSON object',
  )
  .superRefine((value, ctx) => {
    let leaves = 0;
    let keys = 0;
    const walk = (node: Record<string, SkeletonValue>, depth: number, path: string): void => {
      if (depth > EXTRACTION_SCHEMA_LIMITS.maxDepth) {
        ctx.addIssue({ code: 'custom', message: `${path}: nested deeper than ${describeBounds}` });
        return;
      }
      for (const [key, child] of Object.entries(node)) {
        keys += 1;
        if (keys > EXTRACTION_SCHEMA_LIMITS.maxKeys) {
          if (keys === EXTRACTION_SCHEMA_LIMITS.maxKeys + 1)
            ctx.addIssue({ code: 'custom', message: `more than ${EXTRACTION_SCHEMA_LIMITS.maxKeys} keys in all` });
          return;
        }
        if ((RESERVED_SCHEMA_KEYS as readonly string[]).includes(key))
          ctx.addIssue({
            code: 'custom',
            message: `${path ? `${path}.` : ''}${key}: "${key}" is reserved (${RESERVED_SCHEMA_KEYS.join(', ')} name JavaScript's object machinery); rename the field, e.g. "${key.replace(/_/g, '')}_value"`,
          });
        if (key.length === 0 || key.length > EXTRACTION_SCHEMA_LIMITS.maxKeyChars)
          ctx.addIssue({ code: 'custom', message: `${path}: key "${key.slice(0, 40)}" is empty or too long` });
        if (child && typeof child === 'object' && !Array.isArray(child) && Object.keys(child).length > 0)
          walk(child, depth + 1, path ? `${path}.${key}` : key);
        else leaves += 1;
      }
    };
    walk(value as Record<string, SkeletonValue>, 1, '');
    if (leaves > EXTRACTION_SCHEMA_LIMITS.maxLeaves)
      ctx.addIssue({ code: 'custom', message: `the schema has ${leaves} fields; ${describeBounds}` });
  });
export type ExtractionSchema = z.infer<typeof ExtractionSchemaSkeleton>;
