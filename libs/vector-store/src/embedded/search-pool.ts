// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { AppError, CommonErrorCodes } from '@lectern/contracts';
import { tsWorker, type Logger } from '@lectern/runtime';
import type { FusionDefaults } from '../fusion.js';
import type { Filter, Hit, HybridOptions } from '../vector-store.port.js';
import type { DenseQuery } from './embedded-reader.js';
import type {
  PoolMatrixMessage,
  SearchReply,
  SearchRequest,
  SearchWorkerData,
  WireError,
  WorkerMatrixMessage,
} from './search-pool.protocol.js';
import type { SharedMatrixHandle } from './shared-matrix.js';

/** `SEARCH_THREADS`' default: min(4, cores) on a machine with more than one core, else 0 (searches in-process). */
export const defaultSearchThreads = (cores = availableParallelism()): number => (cores > 1 ? Math.min(4, cores) : 0);

/** Searches in flight or waiting across the pool's workers by default; one more is refused (`overloaded`). */
export const SEARCH_QUEUE_DEFAULT = 256;

/** Each worker connection's SQLite page cache by default (KiB): reads go through the shared memory map. */
export const SEARCH_CACHE_KIB = 8192;
/**
 * Each worker connection's memory map of the database (bytes) by default: none. The pages a search touched through a
 * map stay resident and count in the service's RSS (30-90 MB of `RssFile` under load at 100k chunks); without one they
 * are read into the bounded page cache above and the kernel's file cache, which is not the service's memory
 * (docs/benchmarks/load.md, "Memory", round 2: peak 470 -> 406 MB alone, with the young generation below 354 MB).
 */
export const SEARCH_MMAP_BYTES = 0;
/**
 * Each worker's V8 young generation (MiB; Worker `resourceLimits.maxYoungGenerationSizeMb`). V8's default lets it grow
 * to 48 MiB per thread under load (three semi-spaces of 16); a search's garbage is small and short-lived, so a small
 * one costs more frequent, cheaper scavenges and no measurable CPU (same bench). 0: V8's default.
 */
export const SEARCH_YOUNG_GENERATION_MB = 8;
/** A worker idle this long hands its connection's spare cache memory back. */
export const SEARCH_IDLE_TRIM_MS = 30_000;
/**
 * A worker idle this long is stopped (the next search starts one again, ~30 ms on an idle machine, and the first
 * builds the matrix again: ~0.2 s at 100k chunks); with no worker left the pool lets go of its shared matrices:
 * after a burst of load the service's memory comes back down (docs/benchmarks/load.md, "Memory").
 */
export const SEARCH_IDLE_RELEASE_MS = 30_000;

export interface SearchPoolOptions {
  /** The embedded store's SQLite file (WAL); each worker opens it read-only. */
  file: string;
  prefix: string;
  fusion: FusionDefaults;
  /** Worker threads (≥ 1), started as searches need them. */
  threads: number;
  /** Searches in flight or waiting at once (default SEARCH_QUEUE_DEFAULT). */
  maxQueued?: number;
  log?: Logger;
  /** Each worker connection's SQLite page cache, KiB (default SEARCH_CACHE_KIB). */
  cacheKib?: number;
  /** Each worker connection's memory map, bytes (default SEARCH_MMAP_BYTES: none). */
  mmapBytes?: number;
  /** Each worker's V8 young generation, MiB (default SEARCH_YOUNG_GENERATION_MB; 0: V8's default). */
  youngGenerationMb?: number;
  /** Idle time before a worker releases its spare cache memory (default SEARCH_IDLE_TRIM_MS). */
  idleTrimMs?: number;
  /** Idle time before a worker is stopped (default SEARCH_IDLE_RELEASE_MS). */
  idleReleaseMs?: number;
  /** Tests: let `stall` hold a worker. */
  testHooks?: boolean;
}

type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never;
type Pending = { resolve: (hits: Hit[]) => void; reject: (e: Error) => void };

interface Lane {
  worker: Worker;
  /** Its scratch area in the shared matrices. */
  slot: number;
  pending: Map<number, Pending>;
  gone: boolean;
  /** Stops the worker once it has been idle for `idleReleaseMs`. */
  idle?: NodeJS.Timeout | undefined;
}

const fromWire = (e: WireError): Error =>
  e.code
    ? new AppError(e.code, e.message, {
        ...(e.httpStatus !== undefined ? { httpStatus: e.httpStatus } : {}),
        ...(e.details ? { details: e.details } : {}),
      })
    : new Error(e.message);

/**
 * The embedded store's searches on every core: up to `threads` worker threads (search.worker.ts), each with its own
 * read-only connection; a search goes to the worker with the fewest searches in flight. A collection's dense matrix
 * is built once, by the first worker that needs it, in shared memory, and handed to every worker (the pool keeps
 * the newest per collection and asks the others to wait while one builds it): memory does not grow with threads. Read-your-writes
 * holds without any message from the writer: a write has committed when it returns, and each search is one read
 * transaction begun after its request arrived, in which the worker's matrix catches up to the collection's version.
 * At most `maxQueued` searches are in flight or waiting (more: `overloaded`, 503, as the transports' admission
 * control answers). A worker that dies fails its searches with `dependency_unavailable` (503, retry) at once and is
 * replaced by the next search; `close` terminates them (searches still in flight: `shutting_down`).
 */
export class SearchPool {
  private readonly lanes: Lane[] = [];
  private readonly maxQueued: number;
  private inFlight = 0;
  private nextId = 1;
  private closed = false;
  /** The newest shared matrix per collection id. */
  private readonly matrices = new Map<number, SharedMatrixHandle>();
  /** Collections whose matrix a worker is building, and the workers waiting for it. */
  private readonly building = new Map<number, { builder: Lane; waiters: Lane[] }>();
  private built = 0;

  constructor(private readonly opts: SearchPoolOptions) {
    if (!Number.isInteger(opts.threads) || opts.threads < 1) throw new RangeError('a search pool needs ≥ 1 thread');
    this.maxQueued = opts.maxQueued ?? SEARCH_QUEUE_DEFAULT;
  }

  /** The live worker threads (tests). */
  get workers(): readonly Worker[] {
    return this.lanes.map((l) => l.worker);
  }

  /** Shared matrices handed to the pool since it started (one per collection version built; tests). */
  get matricesBuilt(): number {
    return this.built;
  }

  /** A dropped collection: its shared matrix is let go here and in every worker. */
  drop(cid: number): void {
    this.matrices.delete(cid);
    for (const l of this.lanes) this.tell(l, { kind: 'drop', cid });
  }

  /** Searches in flight or waiting. */
  get queued(): number {
    return this.inFlight;
  }

  searchDense(name: string, vector: Float32Array | number[], opts: DenseQuery): Promise<Hit[]> {
    return this.call({ op: 'dense', name, vector, opts });
  }

  searchKeyword(name: string, text: string, opts: { filter?: Filter; limit: number }): Promise<Hit[]> {
    return this.call({ op: 'keyword', name, text, opts });
  }

  searchHybrid(
    name: string,
    q: { vector: Float32Array | number[]; text: string },
    opts: HybridOptions,
  ): Promise<Hit[]> {
    return this.call({ op: 'hybrid', name, vector: q.vector, text: q.text, opts });
  }

  /** Tests (`testHooks`): holds one worker's thread for `ms` (counts as a search in flight). */
  stall(ms: number): Promise<Hit[]> {
    return this.call({ op: 'stall', ms });
  }

  private call(req: Distribute<SearchRequest>): Promise<Hit[]> {
    if (this.closed)
      return Promise.reject(
        new AppError(CommonErrorCodes.shuttingDown, 'The vector store is closing.', { httpStatus: 503 }),
      );
    if (this.inFlight >= this.maxQueued)
      return Promise.reject(
        new AppError('overloaded', `The server is busy (${this.inFlight} searches waiting); retry later.`, {
          httpStatus: 503,
        }),
      );
    let lane: Lane;
    try {
      lane = this.pick();
    } catch (e) {
      this.opts.log?.warn({ err: e }, 'search worker could not start');
      return Promise.reject(this.unavailable());
    }
    const id = this.nextId++;
    this.inFlight += 1;
    clearTimeout(lane.idle);
    if (lane.pending.size === 0) lane.worker.ref(); // a search in flight keeps the process alive
    return new Promise<Hit[]>((resolve, reject) => {
      lane.pending.set(id, { resolve, reject });
      // a structured clone: a Float32Array vector is copied, not transferred (the caller keeps it)
      lane.worker.postMessage({ ...req, id } as SearchRequest);
    });
  }

  /** An idle worker, else a new one while fewer than `threads` run, else the least busy. */
  private pick(): Lane {
    const idle = this.lanes.find((l) => l.pending.size === 0);
    if (idle) return idle;
    if (this.lanes.length < this.opts.threads) return this.start();
    return this.lanes.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  private start(): Lane {
    const used = new Set(this.lanes.map((l) => l.slot));
    let slot = 0;
    while (used.has(slot)) slot++;
    const workerData: SearchWorkerData = {
      file: this.opts.file,
      prefix: this.opts.prefix,
      fusion: this.opts.fusion,
      slot,
      slots: this.opts.threads,
      cacheKib: this.opts.cacheKib ?? SEARCH_CACHE_KIB,
      mmapBytes: this.opts.mmapBytes ?? SEARCH_MMAP_BYTES,
      idleTrimMs: this.opts.idleTrimMs ?? SEARCH_IDLE_TRIM_MS,
      testHooks: this.opts.testHooks === true,
    };
    const young = this.opts.youngGenerationMb ?? SEARCH_YOUNG_GENERATION_MB;
    const worker = tsWorker(new URL('./search.worker.ts', import.meta.url), {
      workerData,
      ...(young > 0 ? { resourceLimits: { maxYoungGenerationSizeMb: young } } : {}),
    });
    worker.unref();
    const lane: Lane = { worker, slot, pending: new Map(), gone: false };
    this.lanes.push(lane);
    worker.on('message', (reply: SearchReply | WorkerMatrixMessage) => {
      if ('kind' in reply) return this.onMatrix(lane, reply);
      const p = lane.pending.get(reply.id);
      if (!p) return;
      this.settle(lane, reply.id);
      if (reply.ok) p.resolve(reply.hits);
      else p.reject(fromWire(reply.error));
    });
    const fail = (why: string): void => {
      if (lane.gone) return;
      lane.gone = true;
      const at = this.lanes.indexOf(lane);
      if (at >= 0) this.lanes.splice(at, 1);
      if (!this.closed) this.opts.log?.warn({ why, searches: lane.pending.size }, 'search worker stopped: replaced');
      for (const [cid, b] of this.building) if (b.builder === lane) this.unbuilt(cid);
      for (const b of this.building.values()) b.waiters = b.waiters.filter((w) => w !== lane);
      const error = this.closed
        ? new AppError(CommonErrorCodes.shuttingDown, 'The vector store is closing.', { httpStatus: 503 })
        : this.unavailable();
      for (const [id, p] of [...lane.pending]) {
        this.settle(lane, id);
        p.reject(error);
      }
    };
    worker.on('error', (e) => fail(e.message));
    worker.on('exit', (code) => fail(`exited (${code})`));
    return lane;
  }

  private tell(lane: Lane, m: PoolMatrixMessage): void {
    if (!lane.gone) lane.worker.postMessage(m);
  }

  /** One worker builds a collection's matrix; the others wait for it, then all share it. */
  private onMatrix(lane: Lane, m: WorkerMatrixMessage): void {
    if (m.kind === 'acquire') {
      const have = this.matrices.get(m.cid);
      const b = this.building.get(m.cid);
      if (have) this.tell(lane, { kind: 'matrix', cid: m.cid, handle: have });
      else if (b) b.waiters.push(lane);
      else {
        this.building.set(m.cid, { builder: lane, waiters: [] });
        this.tell(lane, { kind: 'matrix', cid: m.cid, handle: 'build' });
      }
    } else if (m.kind === 'publish') {
      const h = m.handle;
      this.built += 1;
      const cur = this.matrices.get(h.cid);
      if (!cur || cur.version < h.version) {
        this.matrices.set(h.cid, h);
        for (const l of this.lanes) if (l !== lane) this.tell(l, { kind: 'matrix', cid: h.cid, handle: h });
      }
      const b = this.building.get(h.cid);
      if (b?.builder === lane) {
        this.building.delete(h.cid);
        const latest = this.matrices.get(h.cid) ?? null;
        if (latest !== h) for (const w of b.waiters) this.tell(w, { kind: 'matrix', cid: h.cid, handle: latest });
      }
    } else if (m.kind === 'claim') {
      const granted = !this.building.has(m.cid);
      if (granted) this.building.set(m.cid, { builder: lane, waiters: [] });
      this.tell(lane, { kind: 'claimed', cid: m.cid, granted });
    } else this.unbuilt(m.cid);
  }

  /** The builder failed or stopped: the waiters build it in their searches. */
  private unbuilt(cid: number): void {
    const b = this.building.get(cid);
    this.building.delete(cid);
    for (const w of b?.waiters ?? []) this.tell(w, { kind: 'matrix', cid, handle: null });
  }

  private settle(lane: Lane, id: number): void {
    if (!lane.pending.delete(id)) return;
    this.inFlight -= 1;
    if (lane.pending.size === 0 && !lane.gone) {
      lane.worker.unref();
      clearTimeout(lane.idle);
      lane.idle = setTimeout(() => this.retire(lane), this.opts.idleReleaseMs ?? SEARCH_IDLE_RELEASE_MS);
      lane.idle.unref();
    }
  }

  /** Stops a worker left idle; the last one takes the shared matrices with it (the next search builds again). */
  private retire(lane: Lane): void {
    if (lane.gone || lane.pending.size > 0 || this.closed) return;
    lane.gone = true;
    this.lanes.splice(this.lanes.indexOf(lane), 1);
    for (const [cid, b] of this.building) if (b.builder === lane) this.unbuilt(cid);
    for (const b of this.building.values()) b.waiters = b.waiters.filter((w) => w !== lane);
    if (this.lanes.length === 0) this.matrices.clear();
    this.opts.log?.debug({ workers: this.lanes.length }, 'idle search worker stopped');
    void lane.worker.terminate();
  }

  /** The worker's own reason is logged, not told to the client. */
  private unavailable(): AppError {
    return new AppError(CommonErrorCodes.dependencyUnavailable, 'A search worker stopped; retry the search.', {
      httpStatus: 503,
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.matrices.clear();
    this.building.clear();
    const lanes = this.lanes.splice(0);
    for (const l of lanes) clearTimeout(l.idle);
    await Promise.all(lanes.map((l) => l.worker.terminate()));
  }
}
