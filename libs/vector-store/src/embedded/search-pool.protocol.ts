// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FusionDefaults } from '../fusion.js';
import type { Filter, Hit, HybridOptions } from '../vector-store.port.js';
import type { DenseQuery } from './embedded-reader.js';

/** What a search worker (search.worker.ts) is started with. */
export interface SearchWorkerData {
  /** The embedded store's SQLite file, opened read-only. */
  file: string;
  prefix: string;
  fusion: FusionDefaults;
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
