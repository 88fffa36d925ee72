// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Database as Db } from 'better-sqlite3';
import type { Logger } from '@lectern/runtime';
import { DenseIndex, normOf, quantizeInto, roughCandidates, TopK, type DenseSearch } from './dense-index.js';
import { deletedTable, vectorsTable, type Collection } from './embedded-schema.js';
import type { Stmt } from './embedded-search.js';
import { simdScores, wasmMemory, type ScoresFn, type WasmMemory } from './simd-dot.js';

/**
 * One collection's matrix at one version, built once in shared memory and handed to every search worker (posted
 * through the pool: SharedArrayBuffers and a shared WebAssembly memory are shared, not copied). Never written
 * after it is built. `floats` holds rids (f64, ascending), norms, scales (f32) and the float32 rows; `memory` holds
 * one scratch area per worker slot (the query and the int8 scores a search writes) and then the int8 rows.
 */
export interface SharedMatrixHandle {
  cid: number;
  version: number;
  dimension: number;
  count: number;
  /** Worker slots with a scratch area each (the pool's thread count). */
  slots: number;
  floats: SharedArrayBuffer;
  memory: WasmMemory;
}

const pad16 = (n: number): number => Math.ceil(n / 16) * 16;
const strideOf = (dimension: number): number => pad16(dimension);
const scratchOf = (dimension: number, count: number): number => strideOf(dimension) + pad16(count * 4);

/** Builds a handle from rows given in ascending rid order (exactly `count` of them). */
export const buildShared = (
  at: { cid: number; version: number; dimension: number; slots: number },
  count: number,
  rows: Iterable<[number, Float32Array]>,
): SharedMatrixHandle => {
  const { dimension, slots } = at;
  const stride = strideOf(dimension);
  const floats = new SharedArrayBuffer(Math.max(16, count * (16 + 4 * dimension)));
  const memory = wasmMemory(slots * scratchOf(dimension, count) + count * stride, true);
  const h: SharedMatrixHandle = { ...at, count, floats, memory };
  const v = views(h);
  let i = 0;
  let last = -Infinity;
  for (const [rid, row] of rows) {
    if (i >= count || rid <= last) throw new Error('shared matrix rows must be exactly `count`, by ascending rid');
    last = rid;
    v.rids[i] = rid;
    v.rows.set(row, i * dimension);
    v.norms[i] = normOf(row);
    v.scales[i] = quantizeInto(v.i8, v.rowsAt + i * stride, row);
    i++;
  }
  if (i !== count) throw new Error(`shared matrix: ${i} rows given, ${count} expected`);
  return h;
};

const views = (h: SharedMatrixHandle) => {
  const n = h.count;
  return {
    rids: new Float64Array(h.floats, 0, n),
    norms: new Float32Array(h.floats, 8 * n, n),
    scales: new Float32Array(h.floats, 12 * n, n),
    rows: new Float32Array(h.floats, 16 * n, n * h.dimension),
    i8: new Int8Array(h.memory.buffer),
    i32: new Int32Array(h.memory.buffer),
    rowsAt: h.slots * scratchOf(h.dimension, n),
  };
};

/**
 * A read-only view of a shared matrix for one worker slot: the same scan as DenseIndex (int8 SIMD scan, exact
 * float32 rescoring of the best k + max(k, 64)), the scratch area of its own slot, rids found by binary search.
 */
export class SharedMatrix {
  readonly version: number;
  readonly count: number;
  private readonly dimension: number;
  private readonly stride: number;
  private readonly v: ReturnType<typeof views>;
  private readonly queryAt: number;
  private readonly outAt: number;
  private readonly scores: ScoresFn;

  constructor(
    readonly handle: SharedMatrixHandle,
    slot: number,
  ) {
    if (!Number.isInteger(slot) || slot < 0 || slot >= handle.slots) throw new RangeError(`no worker slot ${slot}`);
    this.version = handle.version;
    this.count = handle.count;
    this.dimension = handle.dimension;
    this.stride = strideOf(handle.dimension);
    this.v = views(handle);
    this.queryAt = slot * scratchOf(handle.dimension, handle.count);
    this.outAt = this.queryAt + this.stride;
    this.scores = simdScores(handle.memory);
  }

  /** The row of `rid`, or -1. */
  indexOf(rid: number): number {
    const r = this.v.rids;
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const x = r[mid]!;
      if (x === rid) return mid;
      if (x < rid) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Every row as [rid, vector] in ascending rid order (views into shared memory). */
  *entries(): IterableIterator<[number, Float32Array]> {
    for (let i = 0; i < this.count; i++) yield [this.v.rids[i]!, this.row(i)];
  }

  private row(i: number): Float32Array {
    return this.v.rows.subarray(i * this.dimension, (i + 1) * this.dimension);
  }

  cosine(i: number, q: Float32Array, qn: number): number {
    const rows = this.v.rows;
    const o = i * this.dimension;
    let s = 0;
    for (let j = 0; j < this.dimension; j++) s += rows[o + j]! * q[j]!;
    return s / (this.v.norms[i]! * qn);
  }

  /** As DenseIndex.search, leaving out the rids in `skip` (rows deleted or replaced since this version). */
  search(q: Float32Array, k: number, allowed: readonly number[] | undefined, skip: ReadonlySet<number>): TopK {
    const { rids, scales, norms, i8, i32, rowsAt } = this.v;
    const qn = normOf(q);
    const top = new TopK(k);
    const candidates = k + Math.max(k, 64);
    const live = (i: number): boolean => skip.size === 0 || !skip.has(rids[i]!);
    const slots =
      allowed === undefined
        ? undefined
        : allowed.flatMap((rid) => {
            const i = this.indexOf(rid);
            return i >= 0 && live(i) ? [i] : [];
          });
    const exactCount = slots === undefined ? this.count : slots.length;
    if (exactCount <= candidates || (slots !== undefined && slots.length * 8 < this.count)) {
      if (slots === undefined) {
        for (let i = 0; i < this.count; i++) if (live(i)) top.offer(rids[i]!, this.cosine(i, q, qn));
      } else for (const i of slots) top.offer(rids[i]!, this.cosine(i, q, qn));
      return top;
    }
    i8.fill(0, this.queryAt, this.queryAt + this.stride);
    quantizeInto(i8, this.queryAt, q);
    this.scores(rowsAt, this.queryAt, this.outAt, this.count, this.stride);
    const dead = skip.size === 0 ? undefined : (i: number): boolean => skip.has(rids[i]!);
    const rough = roughCandidates(i32, this.outAt / 4, scales, norms, this.count, candidates, slots, dead);
    for (const [i] of rough.sorted()) top.offer(rids[i]!, this.cosine(i, q, qn));
    return top;
  }
}

/**
 * A worker's matrix of one collection: the shared matrix at `base.version`, plus this worker's own small DenseIndex
 * of the rows written since (`overlay`) and the set of the shared rids deleted or replaced since (`removed`).
 */
class Layered implements DenseSearch {
  constructor(
    readonly base: SharedMatrix,
    readonly overlay: DenseIndex,
    readonly removed: Set<number>,
    public version: number,
  ) {}

  /** A merge into a new shared matrix was asked of the pool. */
  compacting = false;

  get changes(): number {
    return this.overlay.length + this.removed.size;
  }

  search(q: Float32Array, k: number, allowed?: readonly number[]): [number, number][] {
    const top = this.base.search(q, k, allowed, this.removed);
    if (this.overlay.length === 0) return top.sorted();
    for (const [rid, s] of this.overlay.search(q, k, allowed)) top.offer(rid, s);
    return top.sorted();
  }

  similarity(q: Float32Array, rids: readonly number[]): Map<number, number> {
    const out = this.overlay.similarity(q, rids);
    const qn = normOf(q);
    for (const rid of rids) {
      if (out.has(rid) || this.removed.has(rid)) continue;
      const i = this.base.indexOf(rid);
      if (i >= 0) out.set(rid, this.base.cosine(i, q, qn));
    }
    return out;
  }

  /** Every live row in ascending rid order (for a merge into a new shared matrix). */
  *entries(): IterableIterator<[number, Float32Array]> {
    const mine = [...this.overlay.entries()].sort((a, b) => a[0] - b[0]);
    let m = 0;
    for (const [rid, row] of this.base.entries()) {
      while (m < mine.length && mine[m]![0] < rid) yield mine[m++]!;
      if (!this.removed.has(rid)) yield [rid, row];
    }
    while (m < mine.length) yield mine[m++]!;
  }
}

/** The worker's link to the pool (search-pool.ts), which hands one shared matrix per collection to every worker. */
export interface MatrixBroker {
  /** The pool's current matrix of `cid`; 'build' when this worker is to build it; null: none (build in the search). */
  acquire(cid: number): Promise<SharedMatrixHandle | 'build' | null>;
  /** A matrix this worker built (the pool hands it to the other workers). */
  publish(h: SharedMatrixHandle): void;
  /** This worker was to build `cid`'s matrix and could not. */
  failed(cid: number): void;
  /** May this worker merge its changes into a new matrix of `cid`? (One worker at a time builds a collection's.) */
  claim(cid: number): Promise<boolean>;
}

/** Rows written since the shared matrix beyond which a worker builds a new one: max(4096, 1/8 of its rows). */
export const compactAfter = (count: number): number => Math.max(4096, Math.floor(count / 8));

/**
 * A search worker's matrices (the shared counterpart of DenseCache): `warm` takes the pool's shared matrix of a
 * collection, or builds it (one worker builds, the others wait for it); `at`, inside the search's read transaction,
 * brings this worker's view to the collection's version by reading only the rows written and the rids deleted
 * after it (read-your-writes, as DenseCache.at), into the worker's own overlay; past `compactAfter` changes the
 * worker merges them into a new shared matrix and hands it to the others.
 */
export class SharedDenseCache {
  private readonly held = new Map<number, Layered>();
  private readonly loading = new Map<number, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly stmt: Stmt,
    private readonly broker: MatrixBroker,
    private readonly slot: number,
    private readonly slots: number,
    private readonly log?: Logger,
  ) {}

  /** Takes a matrix the pool handed over, when it is newer than the shared one this worker reads. */
  adopt(h: SharedMatrixHandle): void {
    const cur = this.held.get(h.cid);
    if (cur && cur.base.version >= h.version) return;
    this.held.set(
      h.cid,
      new Layered(new SharedMatrix(h, this.slot), new DenseIndex(h.dimension, h.version, 16), new Set(), h.version),
    );
  }

  drop(cid: number): void {
    this.held.delete(cid);
  }

  async warm(c: Collection): Promise<void> {
    if (this.held.has(c.cid)) return;
    let p = this.loading.get(c.cid);
    if (!p) {
      p = this.fetch(c).finally(() => this.loading.delete(c.cid));
      this.loading.set(c.cid, p);
    }
    await p;
  }

  private async fetch(c: Collection): Promise<void> {
    const got = await this.broker.acquire(c.cid);
    if (got === null) return; // `at` builds it inside the search's snapshot
    if (got !== 'build') return this.adopt(got);
    let h: SharedMatrixHandle | null = null;
    try {
      h = this.db.transaction(() => this.build(c.cid, c.fingerprint.dimension)).deferred();
    } finally {
      if (h) this.publish(h);
      else this.broker.failed(c.cid);
    }
  }

  /** Builds `cid`'s matrix from its rows in the current snapshot (null: the collection is gone). */
  private build(cid: number, dimension: number, known?: number): SharedMatrixHandle | null {
    const version =
      known ?? (this.stmt('SELECT version FROM vs_collections WHERE cid = ?').pluck().get(cid) as number | undefined);
    if (version === undefined) return null;
    const vt = vectorsTable(cid);
    const count = this.stmt(`SELECT count(*) FROM ${vt}`).pluck().get() as number;
    const started = Date.now();
    const rows = this.stmt(`SELECT rid, vector FROM ${vt} ORDER BY rid`);
    const h = buildShared({ cid, version, dimension, slots: this.slots }, count, this.iterate(rows, [], dimension));
    this.log?.debug({ cid, points: count, ms: Date.now() - started }, 'shared dense matrix built');
    return h;
  }

  private *iterate(
    stmt: ReturnType<Stmt>,
    params: unknown[],
    dimension: number,
  ): IterableIterator<[number, Float32Array]> {
    try {
      for (const [rid, b] of stmt.raw(true).iterate(...params) as IterableIterator<[number, Buffer]>) {
        const aligned = b.byteOffset % 4 === 0 ? b : Buffer.from(b); // a Float32Array view needs 4-byte alignment
        yield [rid, new Float32Array(aligned.buffer, aligned.byteOffset, dimension)];
      }
    } finally {
      stmt.raw(false);
    }
  }

  private publish(h: SharedMatrixHandle): Layered {
    this.adopt(h);
    this.broker.publish(h);
    return this.held.get(h.cid)!;
  }

  /** The matrix at `c.version`; call inside the read transaction that read `c`. */
  at(c: Collection): DenseSearch {
    const l = this.held.get(c.cid);
    if (!l) {
      // Not warmed (created or re-created meanwhile, or no matrix from the pool): build it in this snapshot.
      return this.publish(this.build(c.cid, c.fingerprint.dimension, c.version)!);
    }
    if (l.version < c.version) {
      const { base, overlay, removed } = l;
      for (const rid of this.stmt(`SELECT rid FROM ${deletedTable(c.cid)} WHERE ver > ?`)
        .pluck()
        .iterate(l.version) as IterableIterator<number>) {
        overlay.remove(rid);
        if (base.indexOf(rid) >= 0) removed.add(rid);
      }
      const rows = this.stmt(`SELECT rid, vector FROM ${vectorsTable(c.cid)} WHERE ver > ?`);
      for (const [rid, v] of this.iterate(rows, [l.version], c.fingerprint.dimension)) {
        overlay.set(rid, v);
        if (base.indexOf(rid) >= 0) removed.add(rid);
      }
      l.version = c.version;
      if (l.changes > compactAfter(base.count) && !l.compacting) {
        l.compacting = true;
        void this.compact(c.cid, c.fingerprint.dimension);
      }
    }
    return l;
  }

  /**
   * After the search (the pool lets one worker at a time build a collection's matrix): merges this worker's view
   * (shared rows minus `removed`, plus its overlay; all at `version`, in memory, no re-read) into a new shared
   * matrix, which the other workers take in place of their own overlays.
   */
  private async compact(cid: number, dimension: number): Promise<void> {
    const granted = await this.broker.claim(cid);
    const l = this.held.get(cid);
    if (!granted) {
      if (l) l.compacting = false; // another worker builds one: ask again after the next catch-up if still needed
      return;
    }
    if (!l || l.changes <= compactAfter(l.base.count)) return this.broker.failed(cid);
    let h: SharedMatrixHandle | null = null;
    try {
      const live = [...l.entries()];
      h = buildShared({ cid, version: l.version, dimension, slots: this.slots }, live.length, live);
    } catch (e) {
      this.log?.warn({ err: e, cid }, 'shared dense matrix: merge failed');
    } finally {
      if (h) this.publish(h);
      else this.broker.failed(cid);
    }
  }

  clear(): void {
    this.held.clear();
  }
}
