import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { Logger } from '@lectern/runtime';
import { ResourcePool } from '../util/resource-pool.js';
import type { PageLayout } from './layout.js';

/**
 * Which mupdf the workers use: `native` (Debian's libmupdf through the addon in `libs/conversion/native`,
 * built by `npm ci` when libmupdf-dev is installed), `wasm` (npm `mupdf`), or `auto`: native when it is
 * built, else WASM. Renders (OCR) and images always use WASM.
 */
export type PdfEngine = 'auto' | 'native' | 'wasm';

/** What a worker reports once its engine is loaded. */
export interface PdfEngineInfo {
  engine: 'native' | 'wasm';
  /** mupdf version of the native library (null for WASM). */
  version: string | null;
  /** Why the native engine is not used (null when it is). */
  reason: string | null;
}

export interface PdfWorkerPoolOptions {
  engine?: PdfEngine;
  /** Told once which engine the workers use. */
  log?: Logger;
}

/** One text line of the mupdf structured text (size and weight: those carrying most of its characters); the
 * engines' output inside the worker, the input of page-layout.mjs. */
export interface RawLine {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  size: number;
  /** Size of the line's first character (a superscript footnote number is smaller than the text). */
  leadSize?: number;
  bold: boolean;
}

export interface RawBlock {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  lines: RawLine[];
}

export interface RawPage {
  pageNumber: number;
  width: number;
  height: number;
  blocks: RawBlock[];
  imageRatio: number;
}

/** A page as `extract` returns it: laid out in the worker (page-layout.mjs), with its image-area ratio. */
export interface ExtractedPage extends PageLayout {
  imageRatio: number;
}

export interface DocInfo {
  needsPassword: boolean;
  pageCount: number;
  metadata: Record<string, string>;
  /** For image files opened as documents: the pixel width of the (first) image. */
  pixelWidth: number | null;
  firstPageWidth: number | null;
  /** The PDF was damaged (e.g. truncated) and mupdf rebuilt its cross-reference table. */
  repaired: boolean;
  /** mupdf's warnings while opening (deduplicated, at most 20). */
  logs: string[];
}

export interface RenderedPage {
  /** The page image, encoded as PAM (grey, uncompressed). */
  image: Uint8Array;
  width: number;
  height: number;
}

/** A scanned page's orientation from its text lines' shapes (see `text-orientation.mjs`). */
export interface PageOrientation {
  /** The way its text lines run; `unknown` when neither way clearly dominates. */
  axis: 'horizontal' | 'vertical' | 'unknown';
  /** Clockwise rotation (0, 90, 180, 270) that turns the text upright. */
  rotation: number;
  /** The evidence is strong enough to read the page this way up without trials. */
  confident: boolean;
  lines: number;
  up: number;
  down: number;
  /** Degrees to add to `rotation` when rendering so the lines come out level (0 when under 0.3°). */
  skew: number;
}

/** The document a call works on; bytes are sent to a worker only when it does not hold that document. */
export interface DocRef {
  key: string;
  mime: string;
  bytes: Uint8Array;
}

type Request =
  | { op: 'info' }
  | { op: 'extract'; pages: number[] }
  | { op: 'render'; page: number; dpi: number; rotate?: number }
  | { op: 'orientation'; page: number }
  | { op: 'close' };

interface Reply {
  id: number;
  ok?: boolean;
  result?: unknown;
  error?: string;
  /** Only in the start-up message (id 0): whether the engine loaded. */
  ready?: boolean;
  engine?: 'native' | 'wasm';
  version?: string | null;
  reason?: string | null;
}

/** A worker thread running `pdf-page.worker.mjs` (one mupdf instance, one open document at a time). */
class PdfWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  docKey: string | null = null;
  broken = false;
  /** Resolves when the worker's engine is loaded (rejects when a forced native engine is unavailable). */
  readonly ready: Promise<PdfEngineInfo>;

  /** Raised before the thread is terminated: the native engine stops the page it is in (see pdf-native.mjs). */
  private readonly abort = new Int32Array(new SharedArrayBuffer(32));

  constructor(engine: PdfEngine) {
    this.worker = new Worker(new URL('./pdf-page.worker.mjs', import.meta.url), {
      workerData: { engine, abort: this.abort.buffer },
      // extraction and layout make many short-lived objects per page: a larger young generation collects them
      // in fewer scavenges (measured ~5-10% less time per page; costs up to 64 MB more per worker)
      resourceLimits: { maxYoungGenerationSizeMb: 64 },
    });
    this.worker.unref();
    let started: { resolve: (i: PdfEngineInfo) => void; reject: (e: Error) => void } | null = null;
    this.ready = new Promise<PdfEngineInfo>((resolve, reject) => (started = { resolve, reject }));
    this.ready.catch(() => undefined); // observed by the pool; never an unhandled rejection here
    this.worker.on('message', (reply: Reply) => {
      if (reply.id === 0) {
        if (reply.ready) started?.resolve({ engine: reply.engine ?? 'wasm', version: reply.version ?? null, reason: reply.reason ?? null });
        else started?.reject(new Error(reply.error ?? 'pdf worker failed to start'));
        return;
      }
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.result);
      else p.reject(new Error(reply.error ?? 'pdf worker error'));
    });
    const fail = (e: Error): void => {
      this.broken = true;
      started?.reject(e);
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`pdf worker exited (${code})`)));
  }

  call<T>(doc: DocRef, req: Request): Promise<T> {
    if (this.broken) return Promise.reject(new Error('pdf worker is gone'));
    const id = this.nextId++;
    const send = this.docKey !== doc.key;
    // A failed open must not leave the worker believing it holds the document.
    this.docKey = null;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, {
        resolve: (v) => {
          this.docKey = doc.key;
          resolve(v as T);
        },
        reject,
      });
      this.worker.postMessage({ ...req, id, key: doc.key, mime: doc.mime, bytes: send ? doc.bytes : undefined });
    });
  }

  /** Fire-and-forget: the worker drops `key` after any request already queued for it. */
  forget(key: string): void {
    if (this.docKey !== key || this.broken) return;
    this.docKey = null;
    this.worker.postMessage({ op: 'close', id: 0, key });
  }

  async terminate(): Promise<void> {
    this.broken = true;
    // a native mupdf call cannot be interrupted by terminate(): ask it to stop
    Atomics.store(this.abort, 0, 1);
    await this.worker.terminate();
  }
}

/** The mupdf worker pool, sized to the machine's cores, created lazily and reused across documents. */
export class PdfWorkerPool {
  private readonly pool: ResourcePool<PdfWorker>;
  private readonly workers = new Set<PdfWorker>();

  private readonly engine: PdfEngine;
  private readonly log: Logger | undefined;
  private engineInfo: PdfEngineInfo | null = null;

  constructor(size = Math.max(1, availableParallelism()), options: PdfWorkerPoolOptions = {}) {
    this.engine = options.engine ?? 'auto';
    this.log = options.log;
    this.pool = new ResourcePool<PdfWorker>({
      size,
      create: async () => {
        const w = new PdfWorker(this.engine);
        this.workers.add(w);
        try {
          this.noteEngine(await w.ready);
        } catch (e) {
          this.workers.delete(w);
          await w.terminate();
          throw e;
        }
        return w;
      },
      destroy: (w) => {
        this.workers.delete(w);
        return w.terminate();
      },
      isBroken: (w) => w.broken,
    });
  }

  get size(): number {
    return this.pool.size;
  }

  /** The engine the workers use (starts one worker if none has started yet). */
  async engineInUse(): Promise<PdfEngineInfo> {
    if (!this.engineInfo) await this.pool.use(async () => undefined);
    return this.engineInfo as PdfEngineInfo;
  }

  private noteEngine(info: PdfEngineInfo): void {
    if (this.engineInfo) return;
    this.engineInfo = info;
    if (info.engine === 'native') this.log?.info({ engine: 'native', mupdf: info.version }, 'PDF text extraction: native mupdf');
    else this.log?.info({ engine: 'wasm', reason: info.reason }, 'PDF text extraction: mupdf WASM');
  }

  info(doc: DocRef, signal?: AbortSignal): Promise<DocInfo> {
    return this.pool.use((w) => w.call<DocInfo>(doc, { op: 'info' }), signal);
  }

  /** The pages' text layer, laid out (blocks in reading order, tables found) in the worker. */
  extract(doc: DocRef, pages: number[], signal?: AbortSignal): Promise<ExtractedPage[]> {
    return this.pool.use((w) => w.call<ExtractedPage[]>(doc, { op: 'extract', pages }), signal);
  }

  render(doc: DocRef, page: number, dpi: number, rotate: number, signal?: AbortSignal): Promise<RenderedPage> {
    return this.pool.use((w) => w.call<RenderedPage>(doc, { op: 'render', page, dpi, rotate }), signal);
  }

  /** Which way up a scanned page is, without OCR (`text-orientation.mjs`). */
  orientation(doc: DocRef, page: number, signal?: AbortSignal): Promise<PageOrientation> {
    return this.pool.use((w) => w.call<PageOrientation>(doc, { op: 'orientation', page }), signal);
  }

  /** Starts every worker (its mupdf engine loaded) before the first document. */
  warm(): Promise<void> {
    return this.pool.warm();
  }

  /** Frees a document's memory in every worker that holds it (call when its conversion is over). */
  forget(key: string): void {
    for (const w of this.workers) w.forget(key);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
