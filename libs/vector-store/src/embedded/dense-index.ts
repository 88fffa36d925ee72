// SPDX-License-Identifier: AGPL-3.0-or-later
import { simdScores, wasmMemory, type ScoresFn } from './simd-dot.js';

/** What a search asks of a collection's matrix (a DenseIndex, or a search worker's shared matrix plus its own rows). */
export interface DenseSearch {
  /** The `k` most similar rows as [rid, cosine], best first (ties: lower rid first); `allowed` restricts the rids. */
  search(q: Float32Array, k: number, allowed?: readonly number[]): [number, number][];
  /** Exact cosine of `q` with each given row (rids without a vector are left out). */
  similarity(q: Float32Array, rids: readonly number[]): Map<number, number>;
}

/** Writes `v` into `i8` as int8 at byte `at` (symmetric, scale = max|v| / 127) and returns the scale. */
export const quantizeInto = (i8: Int8Array, at: number, v: Float32Array): number => {
  let max = 0;
  for (let j = 0; j < v.length; j++) max = Math.max(max, Math.abs(v[j]!));
  const scale = max / 127 || 1;
  for (let j = 0; j < v.length; j++) i8[at + j] = Math.round(v[j]! / scale);
  return scale;
};

/** The norm of `v` (1 for a zero vector). */
export const normOf = (v: Float32Array): number => {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j]! * v[j]!;
  return Math.sqrt(s) || 1;
};

/**
 * Cosine k-NN over one collection's vectors, held in memory.
 *
 * A search scans int8-quantised rows with a WebAssembly SIMD kernel (one scale per row), keeps the best
 * k + max(k, 64) candidates and rescores them exactly in float32; collections no larger than that are
 * scored exactly. Measured at 100k x 384-d on these machines: sqlite-vec's vec0 KNN 54 ms, a JS float
 * loop 42 ms, this scan ~3 ms, with the same top 10 as exact search (docs/benchmarks/vector-store.md).
 * The matrix is a cache of the SQLite rows (the source of truth), tagged with the collection's write version.
 */
export class DenseIndex implements DenseSearch {
  /** Row length in the int8 matrix: the dimension rounded up to 16 bytes. */
  private readonly stride: number;
  private capacity = 0;
  private size = 0;
  private rids = new Float64Array(0);
  private norms = new Float32Array(0);
  private scales = new Float32Array(0);
  private rows = new Float32Array(0);
  private readonly slot = new Map<number, number>();
  private i8 = new Int8Array(0);
  private i32 = new Int32Array(0);
  private scores: ScoresFn = () => undefined;
  private outAt = 0;
  private rowsAt = 0;

  constructor(
    readonly dimension: number,
    public version: number,
    capacity = 1024,
  ) {
    this.stride = Math.ceil(dimension / 16) * 16;
    this.allocate(Math.max(capacity, 16));
  }

  get length(): number {
    return this.size;
  }

  /** (Re)allocates room for `capacity` rows, keeping the rows held so far. WASM memory: [query | scores | rows]. */
  private allocate(capacity: number): void {
    const outAt = this.stride;
    const rowsAt = outAt + capacity * 4;
    const memory = wasmMemory(rowsAt + capacity * this.stride);
    const i8 = new Int8Array(memory.buffer);
    i8.set(this.i8.subarray(this.rowsAt, this.rowsAt + this.size * this.stride), rowsAt);
    const grow = <T extends Float32Array | Float64Array>(old: T, make: (n: number) => T, per = 1): T => {
      const next = make(capacity * per);
      next.set(old.subarray(0, this.size * per) as never);
      return next;
    };
    this.rids = grow(this.rids, (n) => new Float64Array(n));
    this.norms = grow(this.norms, (n) => new Float32Array(n));
    this.scales = grow(this.scales, (n) => new Float32Array(n));
    this.rows = grow(this.rows, (n) => new Float32Array(n), this.dimension);
    Object.assign(this, {
      capacity,
      outAt,
      rowsAt,
      i8,
      i32: new Int32Array(memory.buffer),
      scores: simdScores(memory),
    });
  }

  /** Writes `v` as int8 at byte `at` (symmetric, scale = max|v| / 127) and returns the scale. */
  private quantize(v: Float32Array, at: number): number {
    return quantizeInto(this.i8, at, v);
  }

  /** Inserts or replaces the vector of `rid`. */
  set(rid: number, v: Float32Array): void {
    let i = this.slot.get(rid);
    if (i === undefined) {
      if (this.size === this.capacity) this.allocate(this.capacity * 2);
      i = this.size++;
      this.slot.set(rid, i);
      this.rids[i] = rid;
    }
    this.rows.set(v, i * this.dimension);
    this.norms[i] = normOf(v);
    this.scales[i] = this.quantize(v, this.rowsAt + i * this.stride);
  }

  has(rid: number): boolean {
    return this.slot.has(rid);
  }

  /** Every row as [rid, vector] (views into this matrix: copy before it changes). */
  *entries(): IterableIterator<[number, Float32Array]> {
    for (let i = 0; i < this.size; i++)
      yield [this.rids[i]!, this.rows.subarray(i * this.dimension, (i + 1) * this.dimension)];
  }

  remove(rid: number): void {
    const i = this.slot.get(rid);
    if (i === undefined) return;
    const last = --this.size;
    if (i !== last) {
      const lastRid = this.rids[last]!;
      this.rids[i] = lastRid;
      this.norms[i] = this.norms[last]!;
      this.scales[i] = this.scales[last]!;
      this.rows.copyWithin(i * this.dimension, last * this.dimension, (last + 1) * this.dimension);
      this.i8.copyWithin(
        this.rowsAt + i * this.stride,
        this.rowsAt + last * this.stride,
        this.rowsAt + (last + 1) * this.stride,
      );
      this.slot.set(lastRid, i);
    }
    this.slot.delete(rid);
  }

  private cosine(i: number, q: Float32Array, qn: number): number {
    const o = i * this.dimension;
    let s = 0;
    for (let j = 0; j < this.dimension; j++) s += this.rows[o + j]! * q[j]!;
    return s / (this.norms[i]! * qn);
  }

  /** Exact cosine of `q` with each given row (rids without a vector are left out). */
  similarity(q: Float32Array, rids: readonly number[]): Map<number, number> {
    let qn = 0;
    for (let j = 0; j < q.length; j++) qn += q[j]! * q[j]!;
    qn = Math.sqrt(qn) || 1;
    const out = new Map<number, number>();
    for (const rid of rids) {
      const i = this.slot.get(rid);
      if (i !== undefined) out.set(rid, this.cosine(i, q, qn));
    }
    return out;
  }

  /**
   * The `k` most similar rows as [rid, cosine] pairs, best first (ties: lower rid first).
   * `allowed` restricts the result to those rids (a filter's result); undefined allows every row.
   */
  search(q: Float32Array, k: number, allowed?: readonly number[]): [number, number][] {
    let qn = 0;
    for (let j = 0; j < q.length; j++) qn += q[j]! * q[j]!;
    qn = Math.sqrt(qn) || 1;
    const top = new TopK(k);
    const candidates = k + Math.max(k, 64);
    const slots =
      allowed === undefined
        ? undefined
        : allowed.flatMap((rid) => (this.slot.has(rid) ? [this.slot.get(rid) as number] : []));
    const exactCount = slots === undefined ? this.size : slots.length;
    if (exactCount <= candidates || (slots !== undefined && slots.length * 8 < this.size)) {
      // Few rows to score (small collection or selective filter): exact float32 scores only.
      if (slots === undefined) for (let i = 0; i < this.size; i++) top.offer(this.rids[i]!, this.cosine(i, q, qn));
      else for (const i of slots) top.offer(this.rids[i]!, this.cosine(i, q, qn));
      return top.sorted();
    }
    this.i8.fill(0, 0, this.stride);
    this.quantize(q, 0);
    this.scores(this.rowsAt, 0, this.outAt, this.size, this.stride);
    const rough = roughCandidates(this.i32, this.outAt / 4, this.scales, this.norms, this.size, candidates, slots);
    for (const [i] of rough.sorted()) top.offer(this.rids[i]!, this.cosine(i, q, qn));
    return top.sorted();
  }
}

/**
 * The best `candidates` rows by their int8 scan score (`i32[out + i] * scales[i] / norms[i]`) as a TopK of row
 * indices: the rows 0..count-1 (but those `skip` rejects) or the given `slots`. The same selection as offering every
 * row to the TopK, row by row in ascending order: once it is full, a row whose score is not above the worst kept
 * (the heap's root) is refused by `offer` (a tie loses to the root's smaller index), so the loop refuses it without
 * the call; ~10k rows are mostly such rows (docs/benchmarks/document-store.md, "call cost, round 4").
 */
export const roughCandidates = (
  i32: Int32Array,
  out: number,
  scales: Float32Array,
  norms: Float32Array,
  count: number,
  candidates: number,
  slots?: readonly number[],
  skip?: (i: number) => boolean,
): TopK => {
  const rough = new TopK(candidates);
  if (slots !== undefined) {
    for (const i of slots) rough.offer(i, (i32[out + i]! * scales[i]!) / norms[i]!);
    return rough;
  }
  let floor = -Infinity;
  for (let i = 0; i < count; i++) {
    const s = (i32[out + i]! * scales[i]!) / norms[i]!;
    if (s <= floor || (skip !== undefined && skip(i))) continue;
    rough.offer(i, s);
    if (rough.full) floor = rough.worst;
  }
  return rough;
};

/**
 * Bounded best-k selection of [key, score]: a min-heap on (score, then larger key), O(log k) per offer.
 * `sorted()` gives best first, ties by smaller key.
 */
export class TopK {
  private readonly keys: Float64Array;
  private readonly vals: Float64Array;
  private n = 0;
  constructor(private readonly k: number) {
    this.keys = new Float64Array(k);
    this.vals = new Float64Array(k);
  }

  /** a is worse than b: lower score, or equal score and larger key. */
  private worse(a: number, b: number): boolean {
    const va = this.vals[a]!;
    const vb = this.vals[b]!;
    return va < vb || (va === vb && this.keys[a]! > this.keys[b]!);
  }

  private swap(a: number, b: number): void {
    const k = this.keys[a]!;
    const v = this.vals[a]!;
    this.keys[a] = this.keys[b]!;
    this.vals[a] = this.vals[b]!;
    this.keys[b] = k;
    this.vals[b] = v;
  }

  /** Holds k entries: an offer must beat `worst` to get in. */
  get full(): boolean {
    return this.n === this.k && this.k > 0;
  }

  /** The lowest score kept (the heap's root); only meaningful once `full`. */
  get worst(): number {
    return this.vals[0]!;
  }

  offer(key: number, score: number): void {
    if (this.k === 0) return;
    if (this.n < this.k) {
      let i = this.n++;
      this.keys[i] = key;
      this.vals[i] = score;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    const rootScore = this.vals[0]!;
    if (score < rootScore || (score === rootScore && key > this.keys[0]!)) return;
    this.keys[0] = key;
    this.vals[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.n && this.worse(l, m)) m = l;
      if (r < this.n && this.worse(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }

  sorted(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < this.n; i++) out.push([this.keys[i]!, this.vals[i]!]);
    return out.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  }
}
