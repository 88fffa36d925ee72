// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ConversionOptionsSchema, ConversionResultSchema } from '../conversion.schema.js';
import { defineQueue } from './job.schema.js';

/**
 * The `conversion` queue: a document to convert -> a ConversionResult (inline, or a JSON file in the
 * shared data directory when it is large). Producers parse the payload before enqueueing, workers parse
 * it before working. The name is never renamed; a breaking payload change gets a new `version` literal.
 */
export const CONVERSION_QUEUE_NAME = 'conversion';

const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'expected a lower-case hex SHA-256');

/** Where the worker finds the document. */
export const ConversionFileRefSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('data_dir'),
    path: z.string().min(1).describe('Relative to the shared DATA_DIR (e.g. "uploads/<sha256>/original.pdf").'),
  }),
  z.object({
    kind: z.literal('local_path'),
    path: z
      .string()
      .min(1)
      .describe("Absolute path; only for workers that share the producer's filesystem (in-process)."),
  }),
  z.object({
    kind: z.literal('blob'),
    key: z
      .string()
      .min(1)
      .max(512)
      .describe(
        'Key in the blob store (distributed mode: Redis, no shared disk), e.g. "conversion/uploads/<sha256>/a.pdf".',
      ),
  }),
]);
export type ConversionFileRef = z.infer<typeof ConversionFileRefSchema>;

const o = ConversionOptionsSchema.shape;
/**
 * Per-job overrides of the worker's conversion defaults: only the keys the producer sets. (The options
 * schema has defaults; a `.partial()` would fill them in and every job would pin the defaults of the
 * producer's version.) The size limit is the worker's own and cannot be raised by a job.
 */
export const ConversionJobOptionsSchema = z.object({
  enableOcr: o.enableOcr.unwrap().optional(),
  imageRatioThreshold: o.imageRatioThreshold.unwrap().optional(),
  maxPages: o.maxPages.unwrap().optional(),
  timeoutMs: o.timeoutMs.unwrap().optional(),
  skipOcrForRenderings: o.skipOcrForRenderings.unwrap().optional(),
  ocrImageBased: o.ocrImageBased.unwrap().optional(),
  ocrMinConfidence: o.ocrMinConfidence.unwrap().optional(),
  ocrLanguage: o.ocrLanguage.unwrap().optional(),
  pageMarkers: o.pageMarkers.unwrap().optional(),
});
export type ConversionJobOptions = z.infer<typeof ConversionJobOptionsSchema>;

export const ConversionJobPayloadSchema = z.object({
  version: z.literal(1),
  file: ConversionFileRefSchema,
  filename: z.string().min(1).describe('Original file name; its extension selects the converter.'),
  sha256: Sha256Schema.describe('SHA-256 of the file bytes (the document fingerprint).'),
  byte_size: z.number().int().nonnegative(),
  options: ConversionJobOptionsSchema.default({}),
});
export type ConversionJobPayload = z.infer<typeof ConversionJobPayloadSchema>;

/** A result too large to keep in Redis, written as JSON under the shared DATA_DIR. */
export const ConversionResultFileRefSchema = z.object({
  path: z.string().min(1).describe('Relative to the shared DATA_DIR (e.g. "conversions/<sha256>.json").'),
  byte_size: z.number().int().nonnegative().describe('Size of the JSON file.'),
  sha256: Sha256Schema.describe('SHA-256 of the JSON file, checked when it is read back.'),
});
export type ConversionResultFileRef = z.infer<typeof ConversionResultFileRefSchema>;

/** A result too large to keep in the job, in the blob store (distributed mode). */
export const ConversionResultBlobRefSchema = z.object({
  key: z.string().min(1).max(512).describe('Key in the blob store (e.g. "conversion/results/<job id>.json").'),
  byte_size: z.number().int().nonnegative().describe('Size of the JSON.'),
  sha256: Sha256Schema.describe('SHA-256 of the JSON, checked when it is read back.'),
});

export const ConversionJobResultSchema = z.discriminatedUnion('kind', [
  z.object({ version: z.literal(1), kind: z.literal('inline'), result: ConversionResultSchema }),
  z.object({
    version: z.literal(1),
    kind: z.literal('data_dir'),
    file: ConversionResultFileRefSchema,
    fingerprint: Sha256Schema,
    page_count: z.number().int().nonnegative(),
  }),
  z.object({
    version: z.literal(1),
    kind: z.literal('blob'),
    file: ConversionResultBlobRefSchema,
    fingerprint: Sha256Schema,
    page_count: z.number().int().nonnegative(),
  }),
]);
export type ConversionJobResult = z.infer<typeof ConversionJobResultSchema>;

export const conversionQueue = defineQueue({
  name: CONVERSION_QUEUE_NAME,
  jobName: 'convert',
  payload: ConversionJobPayloadSchema,
  result: ConversionJobResultSchema,
});

/**
 * The job id from the content: `convert-<sha256>` (the same file converts once), suffixed with a short
 * hash of the overrides when a job sets any (different options may give a different result).
 */
export const conversionJobId = (sha256: string, options: ConversionJobOptions = {}): string => {
  const keys = Object.keys(options)
    .filter((k) => options[k as keyof ConversionJobOptions] !== undefined)
    .sort();
  if (keys.length === 0) return `convert-${sha256}`;
  const canonical = JSON.stringify(keys.map((k) => [k, options[k as keyof ConversionJobOptions]]));
  return `convert-${sha256}-${createHash('sha256').update(canonical).digest('hex').slice(0, 12)}`;
};
