// SPDX-License-Identifier: AGPL-3.0-or-later
import { createRequire } from 'node:module';
import { AppError, CommonErrorCodes } from '@lectern/contracts/errors';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type Tesseract from 'tesseract.js';
import { ResourcePool } from '../util/resource-pool.js';
import { cropPam, probeNativeTesseract, recognizeNative, type NativeTesseract, type OcrEngine } from './ocr-native.js';
import { OCR_IDLE_RELEASE_MS, ocrSettings, type OcrSettings } from './ocr-settings.js';

export interface OcrText {
  text: string;
  /** Tesseract's mean word confidence, 0-100. */
  confidence: number;
}

/**
 * Offline language data: the `@tesseract.js-data/eng` package (LSTM "best_int" model), never a CDN
 * (tesseract.js's default download crashes an offline process).
 */
function langPath(data: OcrSettings['langData']): string {
  // not named `require`: the production build turns `import.meta.url` into code that calls the module's `require`,
  // which a local of that name would shadow (the compiled WASM OCR then failed before reading a page)
  const resolver = createRequire(import.meta.url);
  return join(dirname(resolver.resolve('@tesseract.js-data/eng/package.json')), data);
}

/** Which tesseract the pool's pages are read by, and why. */
export interface OcrEngineInfo {
  engine: 'native' | 'wasm';
  /** The native program's version line, or tesseract.js's model data. */
  version: string;
  reason: string;
}

/** A lane of the pool: a tesseract.js worker, or a turn to run the native program (one process per page). */
type OcrLane = { kind: 'wasm'; worker: Tesseract.Worker } | { kind: 'native'; tesseract: NativeTesseract };

/**
 * Which engine serves (OcrEngine): native when asked or when `auto` finds a tesseract with the language on PATH
 * (`probeNativeTesseract`, once per pool), else tesseract.js; `native` without one fails the OCR'd page.
 */
async function chooseEngine(
  engine: OcrEngine,
  lang: string,
): Promise<{ native: NativeTesseract | null; reason: string }> {
  if (engine === 'wasm') return { native: null, reason: 'OCR_ENGINE=wasm' };
  const probe = await probeNativeTesseract(lang);
  if (engine === 'native' && !probe.native)
    throw new AppError(CommonErrorCodes.dependencyUnavailable, `OCR_ENGINE=native, but ${probe.reason}`, {
      httpStatus: 503,
    });
  return probe.native ? probe : { native: null, reason: `${probe.reason}: tesseract.js (WASM)` };
}

/**
 * Native tesseract (OcrEngine) runs one process per page, at most `size` at a time, nothing kept between pages.
 * Otherwise tesseract.js workers (each its own worker thread running the WASM engine), at most the machine's cores, each
 * created only when a page needs OCR and no worker is free (a document with one scanned page starts one), reused
 * for every page of every document while busy, and terminated after `idleMs` without a page (OCR_IDLE_RELEASE_MS):
 * a service that met one scanned cover does not keep its memory. A worker whose job is abandoned (document
 * timeout) is terminated and replaced.
 */
export class OcrPool {
  private readonly pool: ResourcePool<OcrLane>;
  readonly settings: Readonly<OcrSettings>;
  private chosen: Promise<{ native: NativeTesseract | null; reason: string }> | null = null;

  constructor(
    size = Math.max(1, availableParallelism()),
    settings: Partial<OcrSettings> = {},
    private readonly lang = 'eng',
    idleMs: number = OCR_IDLE_RELEASE_MS,
    private readonly engine: OcrEngine = 'auto',
  ) {
    const s = ocrSettings(settings);
    this.settings = s;
    this.pool = new ResourcePool<OcrLane>({
      size,
      idleMs,
      create: async (): Promise<OcrLane> => {
        const { native } = await this.choice();
        if (native) return { kind: 'native', tesseract: native };
        // tesseract.js is loaded with the first OCR page: a conversion without one never loads it. A require, not an
        // import(): the compiled command line runs where Node 20 has no dynamic import (apps/cli/bin/lectern.cjs)
        const { createWorker, OEM } = createRequire(import.meta.url)('tesseract.js') as typeof Tesseract;
        const worker = await createWorker(lang, OEM.LSTM_ONLY, {
          langPath: langPath(s.langData),
          gzip: true,
          cacheMethod: 'none',
        });
        return { kind: 'wasm', worker };
      },
      destroy: async (lane) => {
        if (lane.kind === 'wasm') await lane.worker.terminate();
      },
    });
  }

  /** The engine decision, made once (a failed probe of a forced native engine is retried on the next page). */
  private choice(): Promise<{ native: NativeTesseract | null; reason: string }> {
    const c = (this.chosen ??= chooseEngine(this.engine, this.lang));
    c.catch(() => {
      if (this.chosen === c) this.chosen = null;
    });
    return c;
  }

  /** Which tesseract reads this pool's pages (probes for the native program once; starts nothing). */
  async engineInUse(): Promise<OcrEngineInfo> {
    const { native, reason } = await this.choice();
    return native
      ? { engine: 'native', version: native.version, reason }
      : { engine: 'wasm', version: `tesseract.js ${this.settings.langData}`, reason };
  }

  get size(): number {
    return this.pool.size;
  }

  /** tesseract workers running now (busy or idle). */
  get running(): number {
    return this.pool.liveCount;
  }

  /** Recognises an image (PAM/PNG/...); `rectangle` limits recognition to a region (cheap orientation trials). */
  recognize(
    image: Uint8Array,
    signal?: AbortSignal,
    rectangle?: Tesseract.Rectangle,
    dpi = this.settings.dpi,
  ): Promise<OcrText> {
    const { psm, thresholding } = this.settings;
    return this.pool.use(async (lane) => {
      if (lane.kind === 'native') {
        // the same settings as the WASM path; the band of an orientation trial is cut out here
        const img = rectangle ? cropPam(image, rectangle) : image;
        return recognizeNative(lane.tesseract.bin, img, { lang: this.lang, dpi, psm, thresholding, signal });
      }
      const w = lane.worker;
      // The image carries no resolution: tell tesseract instead of letting it guess. Page segmentation
      // AUTO (the tesseract CLI's default) finds columns and blocks; the library's default, SINGLE_BLOCK,
      // reads a two-column page straight across both columns (linn.pdf: ~8% slower, recall 96.1% -> 96.7%).
      await w.setParameters({
        user_defined_dpi: String(Math.round(dpi)),
        tessedit_pageseg_mode: String(psm) as Tesseract.PSM,
        thresholding_method: String(thresholding),
      });
      const opts: Partial<Tesseract.RecognizeOptions> = rectangle ? { rectangle } : {};
      const { data } = await w.recognize(Buffer.from(image), opts, { text: true });
      return { text: data.text, confidence: data.confidence };
    }, signal);
  }

  /** Starts every tesseract worker (engine and language data loaded) before the first page. */
  warm(): Promise<void> {
    return this.pool.warm();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
