// SPDX-License-Identifier: AGPL-3.0-or-later
export { createConversionEngine, effectiveOptions } from './conversion-engine.js';
export type { ConversionEngine, ConversionEngineOptions, ConversionLimits } from './conversion-engine.js';
export type { ConversionInput, ConvertDocumentOptions } from './convert-document.js';
export type { ConversionProgress } from './types.js';
export type { PdfEngine, PdfEngineInfo } from './pdf/pdf-worker-pool.js';
export { sha256File, sha256Bytes } from './sha256.js';
export { isRenderingFilename } from './rendering.js';
export { findTextQuads, openPdfPages, renderPagePng, PAGE_IMAGE_LIMITS } from './pdf/page-image.js';
export type { FindTextOptions, PageQuads, PdfPages, RenderPageOptions } from './pdf/page-image.js';
export { pageAt } from './markdown-index.js';
export { tableToMarkdown } from './pdf/tables.js';
export { SUPPORTED_EXTENSIONS } from './detect-type.js';
export { repeatPdfPages } from './testing/repeat-pages.js';
export { DEFAULT_OCR_SETTINGS, OCR_LANG_DATA, OCR_THRESHOLDS } from './ocr/ocr-settings.js';
export type { OcrSettings } from './ocr/ocr-settings.js';
export { renderGrayPages, type GrayScan } from './testing/scan-pages.js';
export { readPdfFrontMatter, readPdfOutline, type PdfFrontMatter, type PdfOutlineEntry } from './pdf/pdf-outline.js';
export { decodePng, pixelAt, type DecodedImage } from './testing/decode-png.js';
