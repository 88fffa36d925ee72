import type { Logger } from '@lectern/runtime';
import { OcrPool } from './ocr/ocr-pool.js';
import { PdfWorkerPool, type PdfEngine, type PdfEngineInfo } from './pdf/pdf-worker-pool.js';

let pools: { pdf: PdfWorkerPool; ocr: OcrPool } | null = null;
let pdfOptions: { engine?: PdfEngine; log?: Logger } = {};

/**
 * Process-wide settings of the conversion pools (an app calls this once at start-up, from its config):
 * `pdfEngine` ('auto' by default: the native mupdf addon when it is built, else WASM; see PdfEngine) and a
 * logger that is told once which engine is in use. Pools already started are closed; the next conversion
 * starts them with these settings.
 */
export async function configureConversionPool(options: { pdfEngine?: PdfEngine; log?: Logger }): Promise<void> {
  pdfOptions = { engine: options.pdfEngine, log: options.log };
  await closeConversionPool();
}

/** Which mupdf engine the PDF workers use (starts a worker if none is running). */
export function pdfEngineInUse(): Promise<PdfEngineInfo> {
  return getPools().pdf.engineInUse();
}

/** The process-wide worker pools (mupdf, tesseract), created on first use and shared by every conversion. */
export function getPools(): { pdf: PdfWorkerPool; ocr: OcrPool } {
  pools ??= { pdf: new PdfWorkerPool(undefined, pdfOptions), ocr: new OcrPool() };
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
