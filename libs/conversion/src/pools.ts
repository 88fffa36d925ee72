import { OcrPool } from './ocr/ocr-pool.js';
import { PdfWorkerPool } from './pdf/pdf-worker-pool.js';

let pools: { pdf: PdfWorkerPool; ocr: OcrPool } | null = null;

/** The process-wide worker pools (mupdf, tesseract), created on first use and shared by every conversion. */
export function getPools(): { pdf: PdfWorkerPool; ocr: OcrPool } {
  pools ??= { pdf: new PdfWorkerPool(), ocr: new OcrPool() };
  return pools;
}

/** Terminates the OCR and mupdf worker threads (graceful shutdown); a later conversion starts new ones. */
export async function closeConversionPool(): Promise<void> {
  const p = pools;
  pools = null;
  if (p) await Promise.all([p.pdf.close(), p.ocr.close()]);
}

/**
 * Starts the worker threads now rather than on the first document (a service calls this at start-up so its
 * first request does not pay WASM compilation and OCR model loading). `ocr: false` starts only mupdf.
 */
export async function warmConversionPool(options: { ocr?: boolean } = {}): Promise<void> {
  const p = getPools();
  await Promise.all([p.pdf.warm(), options.ocr === false ? Promise.resolve() : p.ocr.warm()]);
}
