// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Statement } from 'better-sqlite3';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from '@lectern/runtime';
import { DenseIndex } from './dense-index.js';
import { deletedTable, vectorsTable, type Collection } from './embedded-schema.js';

const SLICE = 4096;

/**
 * This process's in-memory matrices, one per collection, kept equal to the SQLite rows:
 * - `warm` loads a matrix in slices of rows, yielding to the event loop between them (a 1M-point
 *   collection takes ~20 s to load: the server keeps answering meanwhile), and tags it with the version
 *   read before loading, so whatever changed during the load is replayed by the next catch-up;
 * - `at` (inside a read transaction) brings the matrix to the collection's version by reading only the
 *   vector rows written, and the rids deleted, after the version it holds (e.g. by another process);
 * - `afterWrite` applies this process's own committed write in place.
 */
export class DenseCache {
  private readonly held = new Map<number, DenseIndex>();
  private readonly loading = new Map<number, Promise<void>>();

  constructor(
    private readonly stmt: (sql: string) => Statement,
    private readonly log?: Logger,
  ) {}

  async warm(c: Collection): Promise<void> {
    if (this.held.has(c.cid)) return;
    let p = this.loading.get(c.cid);
    if (!p) {
      p = this.load(c).finally(() => this.loading.delete(c.cid));
      this.loading.set(c.cid, p);
    }
    await p;
  }

  private async load(c: Collection): Promise<void> {
    const row = this.stmt('SELECT version FROM vs_collections WHERE cid = ?').get(c.cid) as
      | { version: number }
      | undefined;
    if (!row) return;
    const vt = vectorsTable(c.cid);
    const n = (this.stmt(`SELECT count(*) AS n FROM ${vt}`).get() as { n: number }).n;
    const idx = new DenseIndex(c.fingerprint.dimension, row.version, Math.max(1024, n));
    const slice = this.stmt(`SELECT rid, vector FROM ${vt} WHERE rid > ? ORDER BY rid LIMIT ${SLICE}`);
    const started = Date.now();
    for (let after = 0, got = SLICE; got === SLICE; ) {
      got = this.apply(idx, slice, [after], (rid) => (after = rid));
      if (got === SLICE) await yieldToEventLoop();
    }
    const current = this.held.get(c.cid);
    if (!current || current.version < idx.version) this.held.set(c.cid, idx);
    this.log?.debug({ collection: c.name, points: idx.length, ms: Date.now() - started }, 'dense matrix loaded');
  }

  /** Reads [rid, vector] rows into `idx`; returns how many. */
  private apply(idx: DenseIndex, stmt: Statement, params: unknown[], seen?: (rid: number) => void): number {
    let count = 0;
    for (const [rid, b] of stmt.raw(true).iterate(...params) as IterableIterator<[number, Buffer]>) {
      const aligned = b.byteOffset % 4 === 0 ? b : Buffer.from(b); // a Float32Array view needs 4-byte alignment
      idx.set(rid, new Float32Array(aligned.buffer, aligned.byteOffset, idx.dimension));
      seen?.(rid);
      count++;
    }
    stmt.raw(false);
    return count;
  }

  /** The matrix at `c.version`; call inside the read transaction that read `c`. */
  at(c: Collection): DenseIndex {
    let idx = this.held.get(c.cid);
    if (!idx) {
      // Not warmed (or dropped meanwhile): load in one go, inside this snapshot.
      idx = new DenseIndex(c.fingerprint.dimension, c.version);
      this.apply(idx, this.stmt(`SELECT rid, vector FROM ${vectorsTable(c.cid)}`), []);
      this.held.set(c.cid, idx);
      return idx;
    }
    if (idx.version < c.version) {
      for (const rid of this.stmt(`SELECT rid FROM ${deletedTable(c.cid)} WHERE ver > ?`)
        .pluck()
        .iterate(idx.version) as IterableIterator<number>) {
        idx.remove(rid);
      }
      this.apply(idx, this.stmt(`SELECT rid, vector FROM ${vectorsTable(c.cid)} WHERE ver > ?`), [idx.version]);
      idx.version = c.version;
    }
    return idx;
  }

  /** After this process committed a write that moved `c` from `c.version` to `c.version + 1`. */
  afterWrite(c: Collection, upserted: { rid: number; vector: Float32Array }[], deleted: number[]): void {
    const idx = this.held.get(c.cid);
    if (!idx || idx.version !== c.version) return; // behind or ahead: the next `at` catches up
    for (const rid of deleted) idx.remove(rid);
    for (const u of upserted) idx.set(u.rid, u.vector);
    idx.version = c.version + 1;
  }

  drop(cid: number): void {
    this.held.delete(cid);
  }

  clear(): void {
    this.held.clear();
  }
}
