import { simdScores, wasmMemory, type ScoresFn } from './simd-dot.js';

/**
 * Exact cosine k-NN over one collection's vectors, held in WebAssembly memory and scanned by a SIMD kernel.
 *
 * Why not sqlite-vec: measured on these 2-core machines at 100k x 384-d, sqlite-vec's vec0 KNN takes 49 ms,
 * `vec_distance_cosine` over the rows 108 ms, a JS loop 34 ms and this SIMD scan 9 ms
 * (docs/benchmarks/vector-store.md). The matrix is a cache of the SQLite rows (the source of truth),
 * keyed by the collection's write version, so other processes' writes are seen on the next query.
 * Memory layout: [query | scores | rows], each row zero-padded to a multiple of 8 floats.
 */
export class DenseIndex {
  private readonly stride: number;
  private capacity = 0;
  private rids = new Float64Array(0);
  private norms = new Float32Array(0);
  private readonly slot = new Map<number, number>();
  private size = 0;
  private f32 = new Float32Array(0);
  private scores: ScoresFn = () => undefined;
  private outAt = 0;
  private rowsAt = 0;

  constructor(
    readonly dimension: number,
    public version: number,
    capacity = 1024,
  ) {
    this.stride = Math.ceil(dimension / 8) * 8;
    this.allocate(Math.max(capacity, 16));
  }

  get length(): number {
    return this.size;
  }

  /** (Re)allocates memory for `capacity` rows, keeping the rows held so far. */
  private allocate(capacity: number): void {
    const outAt = this.stride;
    const rowsAt = outAt + Math.ceil(capacity / 4) * 4;
    const memory = wasmMemory((rowsAt + capacity * this.stride) * 4);
    const f32 = new Float32Array(memory.buffer);
    f32.set(this.f32.subarray(this.rowsAt, this.rowsAt + this.size * this.stride), rowsAt);
    const rids = new Float64Array(capacity);
    rids.set(this.rids.subarray(0, this.size));
    const norms = new Float32Array(capacity);
    norms.set(this.norms.subarray(0, this.size));
    Object.assign(this, { capacity, outAt, rowsAt, f32, rids, norms, scores: simdScores(memory) });
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
    const at = this.rowsAt + i * this.stride;
    this.f32.set(v, at);
    let s = 0;
    for (let j = 0; j < v.length; j++) s += v[j]! * v[j]!;
    this.norms[i] = Math.sqrt(s);
  }

  remove(rid: number): void {
    const i = this.slot.get(rid);
    if (i === undefined) return;
    const last = --this.size;
    if (i !== last) {
      const lastRid = this.rids[last]!;
      this.rids[i] = lastRid;
      this.norms[i] = this.norms[last]!;
      this.f32.copyWithin(this.rowsAt + i * this.stride, this.rowsAt + last * this.stride, this.rowsAt + (last + 1) * this.stride);
      this.slot.set(lastRid, i);
    }
    this.f32.fill(0, this.rowsAt + last * this.stride, this.rowsAt + (last + 1) * this.stride);
    this.slot.delete(rid);
  }

  /**
   * The `k` most similar rows as [rid, cosine] pairs, best first (ties: lower rid first).
   * `allowed` restricts the result to those rids (a filter's result); undefined allows every row.
   */
  search(q: Float32Array, k: number, allowed?: readonly number[]): [number, number][] {
    const f = this.f32;
    f.fill(0, 0, this.stride);
    f.set(q, 0);
    let qn = 0;
    for (let j = 0; j < q.length; j++) qn += q[j]! * q[j]!;
    qn = Math.sqrt(qn) || 1;
    const top = new TopK(k);
    const offer = (i: number, dot: number): void => top.offer(this.rids[i]!, dot / ((this.norms[i]! || 1) * qn));
    if (allowed !== undefined && allowed.length * 8 < this.size) {
      // Selective filter: score only the allowed rows.
      for (const rid of allowed) {
        const i = this.slot.get(rid);
        if (i === undefined) continue;
        const at = this.rowsAt + i * this.stride;
        let s = 0;
        for (let j = 0; j < this.dimension; j++) s += f[at + j]! * f[j]!;
        offer(i, s);
      }
      return top.sorted();
    }
    this.scores(this.rowsAt * 4, 0, this.outAt * 4, this.size, this.stride);
    const out = this.outAt;
    if (allowed === undefined) {
      for (let i = 0; i < this.size; i++) offer(i, f[out + i]!);
    } else {
      const mask = new Uint8Array(this.size);
      for (const rid of allowed) {
        const i = this.slot.get(rid);
        if (i !== undefined) mask[i] = 1;
      }
      for (let i = 0; i < this.size; i++) if (mask[i]) offer(i, f[out + i]!);
    }
    return top.sorted();
  }
}

/** Bounded best-k list (k is small: a result page or a fusion candidate list). */
class TopK {
  private readonly items: [number, number][] = [];
  private floor = Number.NEGATIVE_INFINITY;
  constructor(private readonly k: number) {}

  offer(rid: number, score: number): void {
    if (this.items.length >= this.k && score < this.floor) return;
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const [r, s] = this.items[mid]!;
      if (s > score || (s === score && r < rid)) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= this.k) return;
    this.items.splice(lo, 0, [rid, score]);
    if (this.items.length > this.k) this.items.pop();
    if (this.items.length >= this.k) this.floor = this.items[this.items.length - 1]![1];
  }

  sorted(): [number, number][] {
    return this.items;
  }
}
