// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';

/** How a document's text was obtained (a conversion's `method`; the document store records it per document). */
export const ExtractionMethodSchema = z.enum(['text_layer', 'ocr', 'mixed']);
export type ExtractionMethod = z.infer<typeof ExtractionMethodSchema>;

/**
 * The output of `libs/conversion` (and of the converter service): any supported document turned into
 * Markdown with per-page records, a heading tree, a character-offset -> page map and marked table blocks.
 * Offsets are UTF-16 code-unit offsets into `markdown` (JavaScript string indices).
 */

export const ConversionErrorCodeSchema = z.enum([
  'unsupported_file_type',
  'extraction_failed',
  'no_content',
  'too_large',
  'encrypted',
  'timeout',
]);
export type ConversionErrorCode = z.infer<typeof ConversionErrorCodeSchema>;
/** Named access to the codes (`ConversionErrorCode.encrypted`), same values as the schema. */
export const ConversionErrorCode = ConversionErrorCodeSchema.enum;

export const DetectedFileTypeSchema = z.enum(['pdf', 'image', 'docx', 'html', 'txt', 'md']);
export type DetectedFileType = z.infer<typeof DetectedFileTypeSchema>;

export const PageMethodSchema = z.enum(['text_layer', 'ocr']);
export type PageMethod = z.infer<typeof PageMethodSchema>;

export const ConversionPageSchema = z.object({
  page_number: z.number().int().positive(),
  text: z.string().describe('Plain text of the page (text layer or OCR), before Markdown structuring.'),
  method: PageMethodSchema,
  ocr_confidence: z.number().min(0).max(100).nullable().describe('Mean word confidence 0-100 when OCR was used.'),
  image_ratio: z.number().min(0).max(1).describe('Area of the page covered by images / page area.'),
  char_count: z.number().int().nonnegative(),
  rotation: z.number().int().optional().describe('Clockwise rotation (0/90/180/270) applied before OCR, if any.'),
});
export type ConversionPage = z.infer<typeof ConversionPageSchema>;

export const ConversionHeadingSchema = z.object({
  level: z.number().int().min(1).max(6),
  title: z.string(),
  page: z.number().int().positive(),
  offset: z.number().int().nonnegative().describe('Offset of the heading line ("#...") in the Markdown.'),
});
export type ConversionHeading = z.infer<typeof ConversionHeadingSchema>;

export const PageMapEntrySchema = z.object({
  offset: z.number().int().nonnegative().describe('First Markdown offset belonging to this page.'),
  page: z.number().int().positive(),
});
export type PageMapEntry = z.infer<typeof PageMapEntrySchema>;

export const TableSpanSchema = z.object({
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative().describe('Exclusive end offset of the table block.'),
  page: z.number().int().positive().optional(),
});
export type TableSpan = z.infer<typeof TableSpanSchema>;

export const ConversionResultSchema = z.object({
  fingerprint: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .describe('SHA-256 (hex) of the file bytes.'),
  filename: z.string(),
  detected_type: DetectedFileTypeSchema,
  mime_type: z.string(),
  byte_size: z.number().int().nonnegative(),
  page_count: z.number().int().nonnegative(),
  title: z.string().nullable(),
  metadata: z.record(z.string(), z.string()).describe('Document metadata (author, subject, producer, ...).'),
  pages: z.array(ConversionPageSchema),
  method: ExtractionMethodSchema.describe('text_layer, ocr, or mixed when pages used both.'),
  image_based: z.boolean().describe('Average image ratio above the threshold: callers may skip the document.'),
  average_image_ratio: z.number().min(0).max(1),
  contains_drawings: z.boolean(),
  is_rendering: z.boolean().describe('Filename matches the spec 000 rendering patterns (OCR bypassed).'),
  markdown: z.string(),
  headings: z.array(ConversionHeadingSchema),
  /** Sorted by offset; the page of offset o is the page of the last entry with entry.offset <= o. */
  page_map: z.array(PageMapEntrySchema),
  tables: z.array(TableSpanSchema).describe('Table blocks in the Markdown: never split them across chunks.'),
  warnings: z.array(z.string()),
  running_headers: z
    .array(z.string().max(200))
    .max(6)
    .optional()
    .describe(
      'Running headers and footers left out of the Markdown and page texts (page counters removed), most frequent first; absent when there are none.',
    ),
  duration_ms: z.number().nonnegative(),
});
export type ConversionResult = z.infer<typeof ConversionResultSchema>;

/** The longest delay a Node.js timer honours (2^31-1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The OCR defaults a caller may override per conversion. Every other OCR setting and threshold lives beside these
 * in libs/conversion/src/ocr/ocr-settings.ts (`OCR_THRESHOLDS`), which reads these two from here.
 */
export const CONVERSION_OCR_DEFAULTS = { imageRatioThreshold: 0.7, ocrMinConfidence: 70 } as const;

export const ConversionOptionsSchema = z.object({
  enableOcr: z.boolean().default(true),
  imageRatioThreshold: z.number().min(0).max(1).default(CONVERSION_OCR_DEFAULTS.imageRatioThreshold),
  maxBytes: z
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024),
  maxPages: z.number().int().positive().max(1_000_000).default(2000),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .max(MAX_TIMER_MS)
    .default(10 * 60 * 1000),
  skipOcrForRenderings: z.boolean().default(true),
  ocrImageBased: z
    .boolean()
    .default(false)
    .describe(
      'OCR the text-less pages of an image-based document (average image ratio above imageRatioThreshold) that has ' +
        'a text layer on other pages. Off by default: such documents are drawings and plans (spec 000 skips them), ' +
        "and OCR of a drawing yields noise. A document with no text layer at all (a scan) is always OCR'd.",
    ),
  ocrMinConfidence: z
    .number()
    .min(0)
    .max(100)
    .default(CONVERSION_OCR_DEFAULTS.ocrMinConfidence)
    .describe('Below this mean confidence a page is warned.'),
  ocrLanguage: z
    .enum(['eng'])
    .default('eng')
    .describe('OCR language: only English data ships offline (@tesseract.js-data/eng).'),
  pageMarkers: z
    .boolean()
    .default(false)
    .describe(
      'Start each page of a paged document (PDF, image) in the Markdown with an HTML comment `<!-- page N -->` ' +
        "(N: the page number; the page map points at it). Off by default (text for chunking); the converter's " +
        'REST endpoints turn it on unless the request sets it.',
    ),
});
export type ConversionOptions = z.infer<typeof ConversionOptionsSchema>;
