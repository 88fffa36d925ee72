// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ConversionPage } from '@lectern/contracts';
import { conversionError } from '../errors.js';
import type { FormatContext, FormatOutput } from '../types.js';
import { mapLimit } from '../util/map-limit.js';
import type { PageLayout, TextBlock } from './layout.js';
import { buildMarkdown, type BuildPage } from './pdf-markdown.js';
import type { DocRef, ExtractedPage, PageDrawings } from './pdf-worker-pool.js';
import { ocrPage } from '../ocr/ocr-page.js';
import { OCR_THRESHOLDS } from '../ocr/ocr-settings.js';
import { declaredImageSizes, MAX_IMAGE_PIXELS } from '../formats/image-size.js';
import { runningHeaderTexts } from './running-headers.js';
import { hasVisibleChars } from './letters.js';

/** A page's plain text: its tables' rows tab-separated, listings line by line, its text blocks but `leaveOut` (running headers and footers). */
function pageText(layout: PageLayout, leaveOut?: Set<TextBlock>): string {
  return layout.blocks
    .filter((b) => b.kind !== 'text' || !leaveOut?.has(b))
    .map((b) =>
      b.kind === 'table' ? b.rows.map((r) => r.join('\t')).join('\n') : b.kind === 'code' ? b.lines.join('\n') : b.text,
    )
    .filter(Boolean)
    .join('\n');
}

/**
 * PDFs (text layer per page, OCR for pages with fewer than 10 characters that carry an image or lettering
 * drawn as paths) and images (every page OCR'd;
 * mupdf opens PNG/JPEG/TIFF/BMP as documents, multi-page TIFFs included).
 */
export async function convertPaged(ctx: FormatContext, kind: 'pdf' | 'image'): Promise<FormatOutput> {
  if (kind === 'image') refuseHugeImage(ctx);
  const doc: DocRef = { key: ctx.fingerprint, mime: ctx.mime, bytes: ctx.bytes };
  try {
    return await convert(ctx, kind, doc);
  } finally {
    ctx.pools.pdf.forget(doc.key);
  }
}

async function convert(ctx: FormatContext, kind: 'pdf' | 'image', doc: DocRef): Promise<FormatOutput> {
  const { pools, options, signal } = ctx;
  const warnings: string[] = [];
  let info;
  try {
    info = await pools.pdf.info(doc, signal);
  } catch (e) {
    signal.throwIfAborted();
    // mupdf's own words ("format error: cannot find startxref ...") go to the log, not to the client.
    ctx.log?.warn({ file: ctx.filename, err: (e as Error).message }, 'PDF could not be opened');
    throw conversionError(
      'extraction_failed',
      `${ctx.filename} could not be opened: it is damaged, truncated or not a PDF`,
      e,
    );
  }
  if (info.needsPassword) throw conversionError('encrypted', `${ctx.filename} is password-protected`);
  if (info.pageCount === 0)
    throw conversionError(
      'extraction_failed',
      `${ctx.filename} has no readable pages${info.repaired ? ' (damaged or truncated PDF)' : ''}`,
    );
  if (info.pageCount > options.maxPages)
    throw conversionError('too_large', `${ctx.filename} has ${info.pageCount} pages (limit ${options.maxPages})`);
  if (info.repaired) {
    ctx.log?.warn({ file: ctx.filename, reader: info.logs.slice(0, 3) }, 'damaged PDF repaired by the reader');
    warnings.push('damaged PDF repaired by the reader: some of its content may be missing');
  }
  const pages = info.pageCount;
  ctx.progress({ stage: 'open', page: 0, pages });

  // 1. text layer, in batches spread over the mupdf workers, which also lay the pages out
  const numbers = Array.from({ length: pages }, (_, i) => i + 1);
  let layouts: ExtractedPage[];
  let texts: string[];
  if (kind === 'pdf') {
    const lanes = pools.pdf.lanes(pages);
    const batch = Math.min(16, Math.max(1, Math.ceil(pages / (lanes * 4))));
    const batches: number[][] = [];
    for (let i = 0; i < pages; i += batch) batches.push(numbers.slice(i, i + batch));
    let done = 0;
    // each batch's page texts are joined on arrival, while the workers extract the next ones
    const parts = await mapLimit(batches, lanes, async (b) => {
      let r: ExtractedPage[];
      try {
        r = await pools.pdf.extract(doc, b, signal);
      } catch (e) {
        signal.throwIfAborted();
        throw conversionError('extraction_failed', `text extraction failed on pages ${b[0]}-${b[b.length - 1]}`, e);
      }
      done += b.length;
      ctx.progress({ stage: 'extract', page: done, pages });
      return { layouts: r, texts: r.map((l) => pageText(l)) };
    });
    layouts = parts.flatMap((p) => p.layouts);
    texts = parts.flatMap((p) => p.texts);
  } else {
    layouts = numbers.map((n) => ({ pageNumber: n, width: 0, height: 0, blocks: [], imageRatio: 1 }));
    texts = layouts.map(() => '');
  }

  // 2. OCR where the text layer is (nearly) empty
  let needOcr = layouts
    .filter((_, i) => !hasVisibleChars(texts[i] ?? '', OCR_THRESHOLDS.minTextChars))
    .map((l) => l.pageNumber);
  let ocrAllowed = options.enableOcr;
  if (needOcr.length && !options.enableOcr)
    warnings.push(`OCR disabled: ${needOcr.length} page(s) without a text layer left empty`);
  if (needOcr.length && options.enableOcr && ctx.isRendering && options.skipOcrForRenderings) {
    ocrAllowed = false;
    warnings.push('filename matches a rendering pattern: OCR skipped');
  }
  // One pass decides per page: an image-based document with a text layer elsewhere is a drawing or a plan
  // (spec 000 skips those), so its text-less pages are not OCR'd unless asked; a pure scan always is.
  const averageImageRatio = layouts.reduce((s, l) => s + l.imageRatio, 0) / Math.max(1, layouts.length);
  if (
    ocrAllowed &&
    needOcr.length &&
    needOcr.length < pages &&
    !options.ocrImageBased &&
    averageImageRatio > options.imageRatioThreshold
  ) {
    ocrAllowed = false;
    warnings.push(
      `image-based document (average image ratio ${averageImageRatio.toFixed(3)} above ${options.imageRatioThreshold}): ` +
        `OCR skipped on ${needOcr.length} page(s) without text`,
    );
  }
  // OCR only where it can find something: a page without text that carries no image and no drawing dense
  // like lettering (a blank page, a part title of a few characters, a page of rules) is left as it is
  if (ocrAllowed && needOcr.length && kind === 'pdf') {
    const nothing = await pagesWithNothingToRead(ctx, doc, layouts, needOcr);
    if (nothing.size) {
      needOcr = needOcr.filter((n) => !nothing.has(n));
      warnings.push(`${nothing.size} page(s) without text, images or lettering drawn as paths: not OCR'd`);
    }
  }
  const ocr = new Map<number, { text: string; confidence: number; rotation: number }>();
  if (ocrAllowed && needOcr.length) {
    const dpi =
      kind === 'image' && info.pixelWidth && info.firstPageWidth
        ? imageDpi(info.pixelWidth, info.firstPageWidth)
        : pools.ocr.settings.dpi;
    let done = 0;
    await mapLimit(needOcr, pools.ocr.size + 1, async (n) => {
      const r = await ocrPage(ctx, doc, n, dpi);
      ocr.set(n, r);
      done += 1;
      ctx.progress({ stage: 'ocr', page: done, pages: needOcr.length });
      if (r.confidence < options.ocrMinConfidence && hasVisibleChars(r.text, 1)) {
        const msg = `page ${n}: OCR confidence ${r.confidence.toFixed(1)}% below ${options.ocrMinConfidence}%`;
        warnings.push(msg);
        ctx.log?.warn({ file: ctx.filename, page: n, confidence: r.confidence }, 'low OCR confidence');
      }
    });
  }

  // 3. Markdown, page records
  const build: BuildPage[] = layouts.map((l) => {
    const o = ocr.get(l.pageNumber);
    return o ? { pageNumber: l.pageNumber, ocrText: o.text } : { pageNumber: l.pageNumber, layout: l };
  });
  const { markdown, pageMap, furniture } = buildMarkdown(build, { pageMarkers: options.pageMarkers });
  // the page texts as the Markdown has them: broken words rejoined, running headers and footers left out
  const records: ConversionPage[] = layouts.map((l) => {
    const o = ocr.get(l.pageNumber);
    const text = o ? o.text.trim() : pageText(l, furniture);
    return {
      page_number: l.pageNumber,
      text,
      method: o ? 'ocr' : 'text_layer',
      ocr_confidence: o ? Math.round(o.confidence * 10) / 10 : null,
      image_ratio: Math.round(l.imageRatio * 1000) / 1000,
      char_count: text.length,
      ...(o && o.rotation ? { rotation: o.rotation } : {}),
    };
  });
  const title = info.metadata['title']?.trim() || null;
  return {
    pages: records,
    markdown,
    pageMap,
    title,
    metadata: info.metadata,
    warnings,
    ocrSkipped: needOcr.length > 0 && !ocrAllowed,
    runningHeaders: runningHeaderTexts(furniture),
  };
}

/**
 * Whether a page's vector drawing could be lettering (text drawn as outlines, a scanned-and-vectorised page):
 * at least MIN_LETTER_FILLS filled paths of, on average, several segments each (a glyph is a few curves and
 * lines; rules and table borders are strokes, cell shading four-sided rectangles).
 */
export const MIN_LETTER_FILLS = 10;
export const looksLikeLettering = (d: PageDrawings): boolean =>
  d.fills >= MIN_LETTER_FILLS && d.segments >= 6 * d.fills;

/** The pages of `candidates` (no text layer) with neither an image nor a drawing that `looksLikeLettering`. */
async function pagesWithNothingToRead(
  ctx: FormatContext,
  doc: DocRef,
  layouts: ExtractedPage[],
  candidates: number[],
): Promise<Set<number>> {
  const ratio = new Map(layouts.map((l) => [l.pageNumber, l.imageRatio]));
  const imageless = candidates.filter((n) => (ratio.get(n) ?? 0) === 0);
  if (imageless.length === 0) return new Set();
  let drawn: PageDrawings[];
  try {
    drawn = await ctx.pools.pdf.drawings(doc, imageless, ctx.signal);
  } catch (e) {
    ctx.signal.throwIfAborted();
    ctx.log?.warn({ file: ctx.filename, err: (e as Error).message }, 'vector drawing check failed: pages go to OCR');
    return new Set();
  }
  return new Set(
    imageless.filter((_, i) => {
      const d = drawn[i];
      return d !== undefined && !looksLikeLettering(d);
    }),
  );
}

/** An image declaring more than MAX_IMAGE_PIXELS is refused from its header, before mupdf decodes it. */
function refuseHugeImage(ctx: FormatContext): void {
  const sizes = declaredImageSizes(ctx.bytes, ctx.mime);
  const huge = sizes?.find((s) => s.width * s.height > MAX_IMAGE_PIXELS);
  if (huge)
    throw conversionError(
      'too_large',
      `${ctx.filename} is ${huge.width}x${huge.height} pixels (limit ${MAX_IMAGE_PIXELS / 1_000_000} megapixels)`,
    );
}

/** Images render at their native resolution, small ones upscaled (tesseract wants ~300-DPI-sized glyphs). */
function imageDpi(pixelWidth: number, pointWidth: number): number {
  const native = (72 * pixelWidth) / pointWidth;
  return pixelWidth < 1200 ? native * 2 : native;
}
