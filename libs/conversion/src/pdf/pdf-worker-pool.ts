// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { tsWorker, type Logger } from '@lectern/runtime/core';
import { ResourcePool } from '../util/resource-pool.js';
import type { PdfPageEngine } from './pdf-page.engine.js';
import type {
  DocInfo,
  ExtractedPage,
  PageDrawings,
  PageOrientation,
  PdfEngine,
  PdfEngineInfo,
  PdfOp,
  PdfOpResults,
  PdfRequest,
  PdfWorkerData,
  PdfWorkerMessage,
  RenderedPage,
} from './pdf-page.protocol.js';

export type {
  DocInfo,
  ExtractedPage,
  PageDrawings,
  PageOrientation,
  PdfEngine,
  PdfEngineInfo,
  RenderedPage,
} from './pdf-page.protocol.js';

export interface PdfWorkerPoolOptions {
  engine?: PdfEngine;
  /** Told once which engine the workers use. */
  log?: Logger;
  /**
   * One of the pool's engines runs on the calling thread (`InlinePdfWorker`), the others in worker threads
   * started only when a document needs more than one lane (`lanes`). For one-shot processes (`lectern
   * convert`): a short PDF is converted without the ~30 ms and ~60 MB a worker thread costs to start. Its
   * limits: a timeout is seen between batches of pages, not inside one (at most 16 pages run at once).
   */
  inline?: boolean;
}

/** Pages a document may have for the inline engine alone to extract it (more: worker threads join in). */
export const INLINE_MAX_PAGES = 32;

/**
 * Pages a document may have to be extracted by one worker thread (more: spread over all of them). A second worker
 * opens the document again (its fonts and cross-reference table parsed twice, in every conversion) and, in a fresh
 * process, starts and warms up its JIT: CPU that only a long document wins back in wall time. Measured (issue 28,
 * docs/benchmarks/conversion.md), the same process converting with one worker and with two, warm: 38% more CPU for
 * two on a 99-page report, 12% on a 113-page manual, 8% on a 311-page one; in a fresh process a 14-page paper's
 * first conversion ~0.06-0.1 CPU-s more. Past 128 pages (~0.3 s of one core at the corpus's ~2.5 ms a page in the
 * worker) halving the extraction's wall time is taken to be worth it.
 */
export const SINGLE_LANE_MAX_PAGES = 128;

/** The document a call works on; bytes are sent to a worker only when it does not hold that document. */
export interface DocRef {
  key: string;
  mime: string;
  bytes: Uint8Array;
}

/** What the pool holds: an engine in a worker thread, or the inline one. */
interface PdfLane {
  docKey: string | null;
  broken: boolean;
  readonly inline: boolean;
  readonly ready: Promise<PdfEngineInfo>;
  call<O extends PdfOp>(doc: DocRef, req: O): Promise<PdfOpResults[O['op']]>;
  forget(key: string): void;
  terminate(): Promise<void>;
}

/** A worker thread running `pdf-page.worker.ts` (one mupdf instance, one open document at a time). */
class PdfWorker implements PdfLane {
  readonly inline = false;
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve: (v: PdfOpResults[PdfOp['op']]) => void; reject: (e: Error) => void }
  >();
  private nextId = 1;
  docKey: string | null = null;
  broken = false;
  /** Resolves when the worker's engine is loaded (rejects when a forced native engine is unavailable). */
  readonly ready: Promise<PdfEngineInfo>;

  /** Raised before the thread is terminated: the native engine stops the page it is in (see pdf-native.ts). */
  private readonly abort = new Int32Array(new SharedArrayBuffer(32));

  constructor(engine: PdfEngine) {
    const workerData: PdfWorkerData = { engine, abort: this.abort.buffer };
    this.worker = tsWorker(new URL('./pdf-page.worker.ts', import.meta.url), {
      workerData,
      // extraction and layout make many short-lived objects per page: a larger young generation collects them
      // in fewer scavenges (measured ~5-10% less time per page; costs up to 64 MB more per worker)
      resourceLimits: { maxYoungGenerationSizeMb: 64 },
    });
    this.worker.unref();
    let started: { resolve: (i: PdfEngineInfo) => void; reject: (e: Error) => void } | null = null;
    this.ready = new Promise<PdfEngineInfo>((resolve, reject) => (started = { resolve, reject }));
    this.ready.catch(() => undefined); // observed by the pool; never an unhandled rejection here
    this.worker.on('message', (reply: PdfWorkerMessage) => {
      if (reply.id === 0) {
        // the start-up message (a `close`, sent with id 0, is answered under it too: ignored)
        if ('ready' in reply) {
          if (reply.ready) started?.resolve({ engine: reply.engine, version: reply.version, reason: reply.reason });
          else started?.reject(new Error(reply.error));
        }
        return;
      }
      if (!('ok' in reply)) return;
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.result);
      else p.reject(new Error(reply.error));
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

  call<O extends PdfOp>(doc: DocRef, req: O): Promise<PdfOpResults[O['op']]> {
    if (this.broken) return Promise.reject(new Error('pdf worker is gone'));
    const id = this.nextId++;
    const send = this.docKey !== doc.key;
    // A failed open must not leave the worker believing it holds the document.
    this.docKey = null;
    return new Promise<PdfOpResults[O['op']]>((resolve, reject) => {
      this.pending.set(id, {
        resolve: (v) => {
          this.docKey = doc.key;
          // the worker answers each operation with its own result type (pdf-page.worker.ts)
          resolve(v as PdfOpResults[O['op']]);
        },
        reject,
      });
      const msg: PdfRequest<O> = { ...req, id, key: doc.key, mime: doc.mime, bytes: send ? doc.bytes : undefined };
      this.worker.postMessage(msg);
    });
  }

  /** Fire-and-forget: the worker drops `key` after any request already queued for it. */
  forget(key: string): void {
    if (this.docKey !== key || this.broken) return;
    this.docKey = null;
    const msg: PdfRequest<{ op: 'close' }> = { op: 'close', id: 0, key };
    this.worker.postMessage(msg);
  }

  async terminate(): Promise<void> {
    this.broken = true;
    // a native mupdf call cannot be interrupted by terminate(): ask it to stop
    Atomics.store(this.abort, 0, 1);
    await this.worker.terminate();
  }
}

/**
 * The engine of `pdf-page.engine.ts` on the calling thread: same requests and answers as a worker thread,
 * without the message passing (the document's bytes are not copied either). A trapped WASM instance cannot be
 * replaced on this thread (the module is loaded once per thread), so after one the pool uses worker threads only.
 */
class InlinePdfWorker implements PdfLane {
  readonly inline = true;
  docKey: string | null = null;
  broken = false;
  readonly ready: Promise<PdfEngineInfo>;
  private readonly engine: Promise<PdfPageEngine>;
  private readonly abort = new Int32Array(new SharedArrayBuffer(32));
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  static poisoned = false;

  constructor(engine: PdfEngine) {
    this.engine = import('./pdf-page.engine.js').then((m) => m.createPdfPageEngine(engine, this.abort));
    this.ready = this.engine.then(({ start }) => {
      if (!start.ready) throw new Error(start.error);
      return { engine: start.engine, version: start.version, reason: start.reason };
    });
    this.ready.catch(() => undefined); // observed by the pool
  }

  call<O extends PdfOp>(doc: DocRef, req: O): Promise<PdfOpResults[O['op']]> {
    if (this.broken) return Promise.reject(new Error('pdf engine is gone'));
    const send = this.docKey !== doc.key;
    this.docKey = null;
    const msg: PdfRequest<O> = {
      ...req,
      id: this.nextId++,
      key: doc.key,
      mime: doc.mime,
      bytes: send ? doc.bytes : undefined,
    };
    const done = this.queue.then(async () => {
      // back to the event loop before each request: a deadline (a timer) is seen between batches, not only at the end
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.broken) throw new Error('pdf engine is gone');
      const { reply, fatal } = await (await this.engine).handle(msg);
      if (fatal) {
        this.broken = true;
        InlinePdfWorker.poisoned = true;
      }
      if (!reply.ok) throw new Error(reply.error);
      this.docKey = doc.key;
      // the engine answers each operation with its own result type (pdf-page.engine.ts)
      return reply.result as PdfOpResults[O['op']];
    });
    this.queue = done.catch(() => undefined);
    return done;
  }

  forget(key: string): void {
    if (this.docKey !== key || this.broken) return;
    void this.closeDocument(key);
  }

  async terminate(): Promise<void> {
    this.broken = true;
    Atomics.store(this.abort, 0, 1);
    if (this.docKey) await this.closeDocument(this.docKey);
  }

  /** Closes the open document `key` once no request before it is left (queued like one). */
  private closeDocument(key: string): Promise<unknown> {
    const msg: PdfRequest<{ op: 'close' }> = { op: 'close', id: 0, key };
    this.docKey = null;
    this.queue = this.queue.then(async () => (await this.engine).handle(msg)).catch(() => undefined);
    return this.queue;
  }
}

/** The mupdf worker pool, sized to the machine's cores, created lazily and reused across documents. */
export class PdfWorkerPool {
  private readonly pool: ResourcePool<PdfLane>;
  private readonly workers = new Set<PdfLane>();
  private readonly inline: boolean;

  private readonly engine: PdfEngine;
  private readonly log: Logger | undefined;
  private engineInfo: PdfEngineInfo | null = null;

  constructor(size = Math.max(1, availableParallelism()), options: PdfWorkerPoolOptions = {}) {
    this.engine = options.engine ?? 'auto';
    this.log = options.log;
    this.inline = options.inline === true;
    this.pool = new ResourcePool<PdfLane>({
      size,
      create: async () => {
        const inlineFree = this.inline && !InlinePdfWorker.poisoned && ![...this.workers].some((w) => w.inline);
        const w: PdfLane = inlineFree ? new InlinePdfWorker(this.engine) : new PdfWorker(this.engine);
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

  /** Worker threads running now (the inline engine is not one). */
  get threads(): number {
    return [...this.workers].filter((w) => !w.inline).length;
  }

  /** How many engines a document of `pages` pages is spread over: 1 when the inline engine or one worker serves it. */
  lanes(pages: number): number {
    return pages <= (this.inline ? INLINE_MAX_PAGES : SINGLE_LANE_MAX_PAGES) ? 1 : this.pool.size;
  }

  /** The engine the workers use (starts one worker if none has started yet). */
  async engineInUse(): Promise<PdfEngineInfo> {
    if (!this.engineInfo) await this.pool.use(async () => undefined);
    return this.engineInfo as PdfEngineInfo;
  }

  private noteEngine(info: PdfEngineInfo): void {
    if (this.engineInfo) return;
    this.engineInfo = info;
    if (info.engine === 'native')
      this.log?.info({ engine: 'native', mupdf: info.version }, 'PDF text extraction: native mupdf');
    else this.log?.info({ engine: 'wasm', reason: info.reason }, 'PDF text extraction: mupdf WASM');
  }

  info(doc: DocRef, signal?: AbortSignal): Promise<DocInfo> {
    return this.pool.use((w) => w.call(doc, { op: 'info' }), signal);
  }

  /** The pages' text layer, laid out (blocks in reading order, tables found) in the worker. */
  extract(doc: DocRef, pages: number[], signal?: AbortSignal): Promise<ExtractedPage[]> {
    return this.pool.use((w) => w.call(doc, { op: 'extract', pages }), signal);
  }

  render(doc: DocRef, page: number, dpi: number, rotate: number, signal?: AbortSignal): Promise<RenderedPage> {
    return this.pool.use((w) => w.call(doc, { op: 'render', page, dpi, rotate }), signal);
  }

  /** Vector drawing counts of pages (for the OCR decision on pages without text). */
  drawings(doc: DocRef, pages: number[], signal?: AbortSignal): Promise<PageDrawings[]> {
    return this.pool.use((w) => w.call(doc, { op: 'drawings', pages }), signal);
  }

  /** Which way up a scanned page is, without OCR (`text-orientation.ts`). */
  orientation(doc: DocRef, page: number, signal?: AbortSignal): Promise<PageOrientation> {
    return this.pool.use((w) => w.call(doc, { op: 'orientation', page }), signal);
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
