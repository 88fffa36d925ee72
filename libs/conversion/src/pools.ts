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
