// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FusionDefaults } from '../fusion.js';
import type { Filter, Hit, HybridOptions } from '../vector-store.port.js';
import type { DenseQuery } from './embedded-reader.js';
import type { SharedMatrixHandle } from './shared-matrix.js';

/** What a search worker (search.worker.ts) is started with. */
export interface SearchWorkerData {
  /** The embedded store's SQLite file, opened read-only. */
  file: string;
  prefix: string;
  fusion: FusionDefaults;
  /** This worker's scratch slot in shared matrices (0 ≤ slot < slots). */
  slot: number;
  /** The pool's thread count: scratch areas in each shared matrix. */
  slots: number;
  /** SQLite page cache per worker connection, KiB. */
  cacheKib: number;
  /** The worker connection's memory map of the file, bytes (0: reads through its page cache). */
  mmapBytes: number;
  /** Idle time after which the worker hands its connection's spare cache memory back (SQLite shrink_memory). */
  idleTrimMs: number;
  /** Honour `stall` requests (tests only: hold the thread to kill it mid-query or fill the queue). */
  testHooks: boolean;
}

export type SearchRequest = { id: number } & (
  | { op: 'dense'; name: string; vector: Float32Array | number[]; opts: DenseQuery }
  | { op: 'keyword'; name: string; text: string; opts: { filter?: Filter; limit: number } }
  | { op: 'hybrid'; name: string; vector: Float32Array | number[]; text: string; opts: HybridOptions }
  | { op: 'stall'; ms: number }
);

/** An error as it crosses the thread boundary: an AppError keeps its code, status and details. */
export interface WireError {
  code?: string;
  message: string;
  httpStatus?: number;
  details?: string[];
}

export type SearchReply = { id: number } & ({ ok: true; hits: Hit[] } | { ok: false; error: WireError });

/**
 * Matrix sharing, worker → pool: ask for a collection's matrix, hand over one built, give up building it, or ask to
 * build a newer one (merging the writes since).
 */
export type WorkerMatrixMessage =
  | { kind: 'acquire'; cid: number }
  | { kind: 'publish'; handle: SharedMatrixHandle }
  | { kind: 'failed'; cid: number }
  | { kind: 'claim'; cid: number };

/** Pool → worker: the current matrix (or 'build': this worker builds it; null: none), a dropped collection, a claim's answer. */
export type PoolMatrixMessage =
  | { kind: 'matrix'; cid: number; handle: SharedMatrixHandle | 'build' | null }
  | { kind: 'drop'; cid: number }
  | { kind: 'claimed'; cid: number; granted: boolean };
