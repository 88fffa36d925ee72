/**
 * Exact cosine k-NN over an in-memory matrix of one collection's vectors.
 *
 * Why hand-written instead of sqlite-vec: measured on these 2-core machines at 100k x 384-d,
 * a JS scan over a Float32Array is 34 ms, sqlite-vec's vec0 KNN 49 ms and `vec_distance_cosine` over the
 * rows 108 ms (docs/benchmarks/vector-store.md). The matrix is a cache of the SQLite rows (the source of
 * truth), keyed by the collection's write version, so other processes' writes are seen on the next query.
 */
export class DenseIndex {
  private rids: Float64Array;
  private matrix: Float32Array;
  private norms: Float32Array;
  private readonly slot = new Map<number, number>();
  private size = 0;

  constructor(
    readonly dimension: number,
    public version: number,
    capacity = 1024,
  ) {
    this.rids = new Float64Array(capacity);
    this.matrix = new Float32Array(capacity * dimension);
    this.norms = new Float32Array(capacity);
  }

  get length(): number {
    return this.size;
  }

  private grow(min: number): void {
    let cap = this.rids.length;
    while (cap < min) cap *= 2;
    if (cap === this.rids.length) return;
    const rids = new Float64Array(cap);
    rids.set(this.rids.subarray(0, this.size));
    const matrix = new Float32Array(cap * this.dimension);
    matrix.set(this.matrix.subarray(0, this.size * this.dimension));
    const norms = new Float32Array(cap);
    norms.set(this.norms.subarray(0, this.size));
    this.rids = rids;
    this.matrix = matrix;
    this.norms = norms;
  }

  /** Inserts or replaces the vector of `rid`. */
  set(rid: number, v: Float32Array): void {
    let i = this.slot.get(rid);
    if (i === undefined) {
      this.grow(this.size + 1);
      i = this.size++;
      this.slot.set(rid, i);
      this.rids[i] = rid;
    }
    this.matrix.set(v, i * this.dimension);
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
      this.matrix.copyWithin(i * this.dimension, last * this.dimension, (last + 1) * this.dimension);
      this.slot.set(lastRid, i);
    }
    this.slot.delete(rid);
  }

  /**
   * The `k` most similar rows as [rid, cosine] pairs, best first (ties: lower rid first).
   * `allowed` restricts the scan to those rids (a filter's result); undefined scans everything.
   */
  search(q: Float32Array, k: number, allowed?: Iterable<number>): [number, number][] {
    const d = this.dimension;
    let qn = 0;
    for (let j = 0; j < d; j++) qn += q[j]! * q[j]!;
    qn = Math.sqrt(qn) || 1;
    const top = new TopK(k);
    const m = this.matrix;
    const score = (i: number): void => {
      const o = i * d;
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      let j = 0;
      for (; j + 3 < d; j += 4) {
        s0 += m[o + j]! * q[j]!;
        s1 += m[o + j + 1]! * q[j + 1]!;
        s2 += m[o + j + 2]! * q[j + 2]!;
        s3 += m[o + j + 3]! * q[j + 3]!;
      }
      for (; j < d; j++) s0 += m[o + j]! * q[j]!;
      const n = this.norms[i]! || 1;
      top.offer(this.rids[i]!, (s0 + s1 + s2 + s3) / (n * qn));
    };
    if (allowed === undefined) {
      for (let i = 0; i < this.size; i++) score(i);
    } else {
      for (const rid of allowed) {
        const i = this.slot.get(rid);
        if (i !== undefined) score(i);
      }
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
    if (this.items.length >= this.k && score <= this.floor) return;
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const [r, s] = this.items[mid]!;
      if (s > score || (s === score && r < rid)) lo = mid + 1;
      else hi = mid;
    }
    this.items.splice(lo, 0, [rid, score]);
    if (this.items.length > this.k) this.items.pop();
    if (this.items.length >= this.k) this.floor = this.items[this.items.length - 1]![1];
  }

  sorted(): [number, number][] {
    return this.items;
  }
}
