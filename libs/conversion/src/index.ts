export { createConversionEngine, effectiveOptions } from './conversion-engine.js';
export type { ConversionEngine, ConversionEngineOptions, ConversionLimits } from './conversion-engine.js';
export type { ConversionInput, ConvertDocumentOptions } from './convert-document.js';
export type { ConversionProgress } from './types.js';
export type { PdfEngine, PdfEngineInfo } from './pdf/pdf-worker-pool.js';
export { sha256File, sha256Bytes } from './sha256.js';
export { isRenderingFilename } from './rendering.js';
export { pageAt } from './markdown-index.js';
export { SUPPORTED_EXTENSIONS } from './detect-type.js';
