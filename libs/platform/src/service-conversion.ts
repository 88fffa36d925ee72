// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ConversionSubmitter } from '@lectern/conversion-job';
import type { OcrEngine, PdfEngine } from '@lectern/conversion';
import type { Platform } from './platform.js';

/** The conversion settings a service that ingests documents reads from its variables. */
export interface ServiceConversionSettings {
  pdfEngine?: PdfEngine | undefined;
  ocrEngine?: OcrEngine | undefined;
  enableOcr: boolean;
  maxDocumentBytes: number;
  imageRatioThreshold?: number;
}

/**
 * The conversion job's submitter for a service that ingests documents (document store, policy KB, doc tools):
 * converted in this process by two workers when embedded, by the converter workers when distributed.
 */
export const serviceConversion = (platform: Platform, s: ServiceConversionSettings): ConversionSubmitter =>
  platform.conversion({
    pdfEngine: s.pdfEngine,
    ocrEngine: s.ocrEngine,
    defaults: {
      enableOcr: s.enableOcr,
      ...(s.imageRatioThreshold !== undefined ? { imageRatioThreshold: s.imageRatioThreshold } : {}),
    },
    limits: { maxBytes: s.maxDocumentBytes },
    workers: { embedded: 2, distributed: 0 },
  }).submitter;
