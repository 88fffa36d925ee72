// SPDX-License-Identifier: AGPL-3.0-or-later
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { setMaxListeners } from 'node:events';
import { basename } from 'node:path';
import {
  ConversionOptionsSchema,
  ConversionResultSchema,
  type ConversionOptions,
  type ConversionResult,
  type DetectedFileType,
} from '@lectern/contracts/conversion';
import { AppError, isAppError } from '@lectern/contracts/errors';
import type { Logger } from '@lectern/runtime/core';
import { detectType } from './detect-type.js';
import { conversionError } from './errors.js';
import { convertDocx } from './formats/docx.js';
import { convertHtml } from './formats/html.js';
import { convertMarkdown, convertText } from './formats/text.js';
import { indexMarkdown } from './markdown-index.js';
import { convertPaged } from './pdf/convert-paged.js';
import { isRenderingFilename } from './rendering.js';
import { sha256Bytes } from './sha256.js';
import type { ConversionPools, ConversionProgress, FormatContext, FormatOutput } from './types.js';
import { raceAbort, readFileHandle } from '@lectern/runtime/core';

/**
 * Each schema here is parsed once per conversion: zod's fast path (code it compiles with `new Function` on a schema's
 * first parse) costs a one-shot conversion more than it saves (~1 ms each; issue 18's start-up). A new object each
 * time: zod writes into the context it is given.
 */
const once = (): { jitless: true } => ({ jitless: true });

/**
 * A file by path, or bytes already read. With bytes, `fingerprint` is their SHA-256 when the caller has
 * already hashed exactly these bytes (the conversion then does not hash them again).
 */
export type ConversionInput = { path: string } | { bytes: Uint8Array; filename: string; fingerprint?: string };

export type ConvertDocumentOptions = Partial<ConversionOptions> & {
  onProgress?: (p: ConversionProgress) => void;
  signal?: AbortSignal;
  log?: Logger;
};

const CONVERTERS: Record<DetectedFileType, (ctx: FormatContext) => Promise<FormatOutput>> = {
  pdf: (ctx) => convertPaged(ctx, 'pdf'),
  image: (ctx) => convertPaged(ctx, 'image'),
  docx: convertDocx,
  html: convertHtml,
  txt: convertText,
  md: convertMarkdown,
};

async function loadInput(
  input: ConversionInput,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; filename: string; fingerprint?: string }> {
  if ('bytes' in input) {
    if (input.bytes.length > maxBytes)
      throw conversionError('too_large', `${input.filename} is ${input.bytes.length} bytes (limit ${maxBytes})`);
    return {
      bytes: input.bytes,
      filename: input.filename,
      ...(input.fingerprint ? { fingerprint: input.fingerprint } : {}),
    };
  }
  const filename = basename(input.path);
  // One descriptor, checked then read: a file swapped for a device or a bigger file after the check is never read.
  const handle = await open(input.path, constants.O_RDONLY | constants.O_NONBLOCK).catch((e: unknown) => {
    throw new AppError('file_not_found', `file not found: ${filename}`, { httpStatus: 404, cause: e });
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new AppError('file_not_found', `${filename} is not a file`, { httpStatus: 404 });
    if (info.size > maxBytes)
      throw conversionError('too_large', `${filename} is ${info.size} bytes (limit ${maxBytes})`);
    return { bytes: await readFileHandle(handle, info.size), filename };
  } finally {
    await handle.close();
  }
}

/** Real words (three letters or more) a page's own text layer must carry to be a text page (see `isImageBased`). */
export const TEXT_PAGE_MIN_WORDS = 30;

const realWords = (text: string): number => text.split(/\s+/).filter((w) => /[A-Za-z]{3,}/.test(w)).length;

/**
 * Spec 000 FR-005's image-based test: the average image ratio of the pages above the threshold. The test exists to
 * keep drawings and renderings out ("avoid ingesting unusable text", NFR-001), so a page whose own text layer carries
 * prose (`TEXT_PAGE_MIN_WORDS` real words or more: a control plan or a public notice printed over a full-page
 * background image) counts as a text page, image ratio 0, in that average. A scan (no text layer: its text, if any,
 * came from OCR), a photograph or a drawing with a few labels keeps its measured ratio. `average_image_ratio` stays
 * the measured mean.
 */
export const isImageBased = (
  pages: ReadonlyArray<Pick<ConversionResult['pages'][number], 'image_ratio' | 'method' | 'text'>>,
  threshold: number,
): boolean => {
  if (pages.length === 0) return false;
  // a page without images counts 0 whatever its words: they are counted (a split of its whole text) only when they
  // decide something
  const ratio = (p: (typeof pages)[number]): number =>
    p.image_ratio !== 0 && p.method === 'text_layer' && realWords(p.text) >= TEXT_PAGE_MIN_WORDS ? 0 : p.image_ratio;
  return pages.reduce((s, p) => s + ratio(p), 0) / pages.length > threshold;
};

/**
 * Any supported document (PDF, image, DOCX, HTML, TXT, MD) to a ConversionResult: Markdown with headings and
 * tables, per-page records, heading tree, page map. Every bad input ends in a typed AppError
 * (`unsupported_file_type`, `extraction_failed`, `no_content`, `too_large`, `encrypted`, `timeout`);
 * the heavy work runs in worker threads that a timeout terminates, so nothing hangs the process.
 * Callers use a ConversionEngine (conversion-engine.ts), which owns the pools.
 */
export async function runConversion(
  pools: () => ConversionPools,
  input: ConversionInput,
  options: ConvertDocumentOptions = {},
): Promise<ConversionResult> {
  const started = performance.now();
  const { onProgress, signal: outer, log, ...rest } = options;
  const opts = ConversionOptionsSchema.parse(rest, once());
  const { bytes, filename, fingerprint: known } = await loadInput(input, opts.maxBytes);
  if (bytes.length === 0) throw conversionError('no_content', `${filename} is empty (0 bytes)`);
  const detected = detectType(filename, bytes);
  const fingerprint = known ?? sha256Bytes(bytes);
  const isRendering = isRenderingFilename(filename);

  const timeout = conversionError('timeout', `conversion of ${filename} exceeded ${opts.timeoutMs} ms`);
  const ac = new AbortController();
  setMaxListeners(0, ac.signal); // one listener per in-flight page task
  const timer = setTimeout(() => ac.abort(timeout), opts.timeoutMs);
  const onOuterAbort = (): void => ac.abort(outer?.reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  const ctx: FormatContext = {
    bytes,
    filename,
    fingerprint,
    mime: detected.mime,
    options: opts,
    isRendering,
    signal: ac.signal,
    progress: (p) => {
      try {
        onProgress?.(p);
      } catch (e) {
        log?.warn({ err: e }, 'onProgress callback threw');
      }
    },
    log,
    pools: pools(),
  };
  let out: FormatOutput;
  try {
    out = await raceAbort(CONVERTERS[detected.type](ctx), ac.signal);
  } catch (e) {
    if (ac.signal.aborted) throw ac.signal.reason === timeout ? timeout : ac.signal.reason;
    if (isAppError(e)) throw e;
    // a parser's own message (mammoth, mupdf, the HTML reader) goes to the log, not to the client
    log?.warn({ file: filename, err: (e as Error).message }, 'conversion failed');
    throw conversionError(
      'extraction_failed',
      `${filename} could not be converted: the file is damaged or unreadable`,
      e,
    );
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
  const visible = out.pages.reduce((s, p) => s + p.char_count, 0);
  if (visible === 0 && out.markdown.trim().length === 0 && !out.ocrSkipped) {
    throw conversionError('no_content', `${filename}: no text could be extracted`);
  }
  const { headings, tables } = indexMarkdown(out.markdown, out.pageMap);
  const methods = new Set(out.pages.map((p) => p.method));
  const avg = out.pages.length ? out.pages.reduce((s, p) => s + p.image_ratio, 0) / out.pages.length : 0;
  const imageBased = isImageBased(out.pages, opts.imageRatioThreshold);
  const result: ConversionResult = {
    fingerprint,
    filename,
    detected_type: detected.type,
    mime_type: detected.mime,
    byte_size: bytes.length,
    page_count: out.pages.length,
    title: out.title ?? headings[0]?.title ?? null,
    metadata: out.metadata,
    pages: out.pages,
    method: methods.size > 1 ? 'mixed' : methods.has('ocr') ? 'ocr' : 'text_layer',
    image_based: imageBased,
    average_image_ratio: Math.round(avg * 1000) / 1000,
    contains_drawings: imageBased || isRendering,
    is_rendering: isRendering,
    markdown: out.markdown,
    headings,
    page_map: out.pageMap,
    tables,
    warnings: out.warnings,
    ...(out.runningHeaders?.length ? { running_headers: out.runningHeaders } : {}),
    duration_ms: Math.round(performance.now() - started),
  };
  ctx.progress({ stage: 'done', page: result.page_count, pages: result.page_count });
  return ConversionResultSchema.parse(result, once());
}
