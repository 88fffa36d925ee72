// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ConversionOptions, ConversionPage, PageMapEntry } from '@lectern/contracts';
import type { Logger } from '@lectern/runtime/core';
import type { OcrPool } from './ocr/ocr-pool.js';
import type { PdfWorkerPool } from './pdf/pdf-worker-pool.js';

export interface ConversionProgress {
  stage: string;
  page?: number;
  pages?: number;
}

/** What every format converter gets: the bytes, the parsed options, the pools, and a signal that aborts on timeout. */
export interface FormatContext {
  bytes: Uint8Array;
  filename: string;
  fingerprint: string;
  mime: string;
  options: ConversionOptions;
  isRendering: boolean;
  signal: AbortSignal;
  progress: (p: ConversionProgress) => void;
  log: Logger | undefined;
  pools: ConversionPools;
}

/** The worker pools of one conversion engine (see conversion-engine.ts). */
export interface ConversionPools {
  pdf: PdfWorkerPool;
  ocr: OcrPool;
}

/** What every format converter returns; `convertDocument` adds fingerprint, type, flags and the index. */
export interface FormatOutput {
  pages: ConversionPage[];
  markdown: string;
  pageMap: PageMapEntry[];
  title: string | null;
  metadata: Record<string, string>;
  warnings: string[];
  /** Pages without text were left empty on purpose (OCR disabled, or a rendering): not a `no_content` error. */
  ocrSkipped?: boolean;
  /** The running headers and footers left out of the Markdown (running-headers.ts), when the format has them. */
  runningHeaders?: string[];
}
