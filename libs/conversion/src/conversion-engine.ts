// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ConversionOptions, ConversionResult } from '@lectern/contracts';
import { ConfigError, type Logger } from '@lectern/runtime/core';
import { runConversion, type ConversionInput, type ConvertDocumentOptions } from './convert-document.js';
import { conversionError } from './errors.js';
import { findOnPath, type OcrEngine } from './ocr/ocr-native.js';
import { OcrPool, type OcrEngineInfo } from './ocr/ocr-pool.js';
import { ocrSettings, type OcrSettings } from './ocr/ocr-settings.js';
import { PdfWorkerPool, type PdfEngine, type PdfEngineInfo } from './pdf/pdf-worker-pool.js';
import type { ConversionPools } from './types.js';

/** The operator's ceilings: a call may ask for less, never for more. */
export interface ConversionLimits {
  maxBytes?: number;
  maxPages?: number;
  timeoutMs?: number;
  /** false: OCR is off here (ENABLE_OCR=false), whatever a call asks. */
  ocr?: boolean;
}

export interface ConversionEngineOptions {
  /** mupdf engine of the PDF workers ('auto' by default: native when built, else WASM; see PdfEngine). */
  pdfEngine?: PdfEngine;
  /** OCR settings used when a call does not set them (e.g. from ENABLE_OCR, IMAGE_RATIO_THRESHOLD). */
  defaults?: Partial<
    Pick<
      ConversionOptions,
      'enableOcr' | 'imageRatioThreshold' | 'ocrImageBased' | 'skipOcrForRenderings' | 'ocrMinConfidence'
    >
  >;
  limits?: ConversionLimits;
  /** Told once which PDF engine the workers use; also the conversions' logger. */
  log?: Logger;
  /** Worker counts (default: the machine's cores). */
  pdfWorkers?: number;
  /**
   * One PDF engine on the calling thread, worker threads only for documents over INLINE_MAX_PAGES pages (see
   * PdfWorkerPoolOptions.inline): for one-shot processes; a service keeps every engine in a worker thread.
   */
  inlinePdf?: boolean;
  ocrWorkers?: number;
  /**
   * Which tesseract reads OCR pages (env OCR_ENGINE): `auto` (default) the native `tesseract` program when it is on
   * PATH with the eng data, else tesseract.js (WASM); `native` or `wasm` to force one.
   */
  ocrEngine?: OcrEngine;
  /** How long an idle tesseract worker is kept before it is terminated (default OCR_IDLE_RELEASE_MS). */
  ocrIdleMs?: number;
  /** Internal: OCR model data, page segmentation, resolution, binarisation (default DEFAULT_OCR_SETTINGS); for the OCR trials bench. */
  ocrSettings?: Partial<OcrSettings>;
}

/**
 * Any supported document to a ConversionResult, with the worker threads (mupdf, tesseract) it needs. The
 * engine owns its pools (created on first use) and whoever created it closes it; nothing is process-wide.
 */
export interface ConversionEngine {
  convert(input: ConversionInput, options?: ConvertDocumentOptions): Promise<ConversionResult>;
  /** tesseract workers running now (started by pages that needed OCR, until their idle period ends). */
  ocrWorkersRunning(): number;
  /** Which tesseract reads OCR pages (looks for the native program once; starts no worker). */
  ocrEngineInUse(): Promise<OcrEngineInfo>;
  /** Which mupdf engine the PDF workers use (starts a worker if none is running). */
  pdfEngineInUse(): Promise<PdfEngineInfo>;
  /** Start the workers now instead of on the first document (`ocr: false`: only mupdf). */
  warm(options?: { ocr?: boolean }): Promise<void>;
  /** Terminate the worker threads; a conversion after this fails. Idempotent. */
  close(): Promise<void>;
}

const lower = (asked: number | undefined, ceiling: number | undefined): number | undefined =>
  asked === undefined ? ceiling : ceiling === undefined ? asked : Math.min(asked, ceiling);

/**
 * The options a conversion runs with: the engine's defaults, overridden by the call's options, with the limits
 * the smaller of the call's and the operator's (a client can lower a limit, never raise it) and OCR off when
 * the operator turned it off.
 */
export const effectiveOptions = (
  defaults: ConversionEngineOptions['defaults'],
  limits: ConversionLimits,
  call: ConvertDocumentOptions,
): ConvertDocumentOptions => {
  const merged: ConvertDocumentOptions = { ...defaults, ...call };
  const maxBytes = lower(call.maxBytes, limits.maxBytes);
  const maxPages = lower(call.maxPages, limits.maxPages);
  const timeoutMs = lower(call.timeoutMs, limits.timeoutMs);
  return {
    ...merged,
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    ...(maxPages !== undefined ? { maxPages } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(limits.ocr === false ? { enableOcr: false } : {}),
  };
};

export function createConversionEngine(options: ConversionEngineOptions = {}): ConversionEngine {
  const ocr = ocrSettings(options.ocrSettings); // a bad setting fails here, not on the first scanned page
  // OCR_ENGINE=native with no program to run: the service stops at start-up naming the variable (a cheap look
  // along PATH, no process started), not on its first scanned page; unless OCR is off here anyway
  const ocrOn = options.limits?.ocr !== false && options.defaults?.enableOcr !== false;
  if (options.ocrEngine === 'native' && ocrOn && !findOnPath('tesseract'))
    throw new ConfigError([
      'OCR_ENGINE: native needs the tesseract program on PATH (Debian: apt-get install tesseract-ocr tesseract-ocr-eng), or use auto or wasm',
    ]);
  let pools: ConversionPools | null = null;
  let closed = false;
  const getPools = (): ConversionPools => {
    if (closed) throw conversionError('extraction_failed', 'the conversion engine has been closed');
    pools ??= {
      pdf: new PdfWorkerPool(options.pdfWorkers, {
        engine: options.pdfEngine,
        log: options.log,
        inline: options.inlinePdf,
      }),
      ocr: new OcrPool(options.ocrWorkers, ocr, 'eng', options.ocrIdleMs, options.ocrEngine),
    };
    return pools;
  };
  const limits = options.limits ?? {};
  return {
    convert: (input, callOptions = {}) =>
      runConversion(getPools, input, effectiveOptions(options.defaults, limits, { log: options.log, ...callOptions })),
    ocrWorkersRunning: () => pools?.ocr.running ?? 0,
    ocrEngineInUse: () => getPools().ocr.engineInUse(),
    pdfEngineInUse: () => getPools().pdf.engineInUse(),
    warm: async (o = {}) => {
      const p = getPools();
      await Promise.all([p.pdf.warm(), o.ocr === false ? Promise.resolve() : p.ocr.warm()]);
    },
    close: async () => {
      closed = true;
      const p = pools;
      pools = null;
      if (p) await Promise.all([p.pdf.close(), p.ocr.close()]);
    },
  };
}
