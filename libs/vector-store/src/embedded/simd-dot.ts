/**
 * A WebAssembly SIMD kernel: out[r] = dot(matrix[r], query) for every row of a row-major f32 matrix.
 *
 * Why hand-written: a JS loop over a Float32Array scans 100k x 384-d in ~34 ms and sqlite-vec's vec0 in
 * ~49 ms on these machines; this kernel (two f32x4 accumulators) takes ~9 ms, which is what makes the
 * embedded store meet its latency target (docs/benchmarks/vector-store.md). No maintained npm package ships
 * such a kernel without a native build, so the module is assembled here from its instructions. Equivalent WAT:
 *
 *   (func (export "scores") (param $m i32) (param $q i32) (param $out i32) (param $rows i32) (param $dim i32)
 *     (local $r i32) (local $j i32) (local $p i32) (local $a v128) (local $b v128)
 *     $p = $m
 *     for $r in 0..$rows:                       ;; $dim is a multiple of 8
 *       $a = $b = f32x4(0)
 *       for $j in 0..$dim step 8:
 *         $a += v128.load($p) * v128.load($q + 4*$j)
 *         $b += v128.load($p + 16) * v128.load($q + 4*$j + 16)
 *         $p += 32
 *       $a += $b
 *       f32.store($out + 4*$r, lane0($a) + lane1($a) + lane2($a) + lane3($a)))
 */
/** The few WebAssembly globals used (this repo's TS lib settings do not declare them). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (d: { initial: number; maximum?: number }) => WasmMemory;
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const vec = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
const name = (s: string): number[] => vec([...Buffer.from(s)].map((b) => [b]));
const section = (id: number, bytes: number[]): number[] => [id, ...leb(bytes.length), ...bytes];

const SIMD = 0xfd;
const [M, Q, OUT, ROWS, DIM, R, J, P, A, B] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
const get = (i: number): number[] => [0x20, i];
const set = (i: number): number[] => [0x21, i];
const i32 = (n: number): number[] => [0x41, ...leb(n)];
const zero = (local: number): number[] => [SIMD, 0x0c, ...new Array<number>(16).fill(0), ...set(local)];
const load = (offset: number): number[] => [SIMD, 0x00, 4, offset]; // v128.load align=16 offset
const F32X4_MUL = [SIMD, 0xe6, 0x01];
const F32X4_ADD = [SIMD, 0xe4, 0x01];
const lane = (l: number): number[] => [...get(A), SIMD, 0x1f, l]; // f32x4.extract_lane
const madd = (acc: number, offset: number): number[] => [
  ...get(acc), ...get(P), ...load(offset), ...get(Q), ...get(J), ...i32(2), 0x74, 0x6a, ...load(offset), ...F32X4_MUL, ...F32X4_ADD, ...set(acc),
];

const body = [
  ...vec([[3, 0x7f], [2, 0x7b]]), // locals: 3 x i32, 2 x v128
  ...get(M), ...set(P),
  0x02, 0x40, 0x03, 0x40, // block $done, loop $row
  ...get(R), ...get(ROWS), 0x4f, 0x0d, 1, // if r >= rows: break
  ...zero(A), ...zero(B), ...i32(0), ...set(J),
  0x02, 0x40, 0x03, 0x40, // block $dimDone, loop $dim
  ...get(J), ...get(DIM), 0x4f, 0x0d, 1,
  ...madd(A, 0), ...madd(B, 16),
  ...get(P), ...i32(32), 0x6a, ...set(P),
  ...get(J), ...i32(8), 0x6a, ...set(J),
  0x0c, 0, 0x0b, 0x0b, // continue $dim; end loop, end block
  ...get(A), ...get(B), ...F32X4_ADD, ...set(A),
  ...get(OUT), ...get(R), ...i32(2), 0x74, 0x6a,
  ...lane(0), ...lane(1), 0x92, ...lane(2), 0x92, ...lane(3), 0x92,
  0x38, 2, 0, // f32.store
  ...get(R), ...i32(1), 0x6a, ...set(R),
  0x0c, 0, 0x0b, 0x0b, // continue $row; end loop, end block
  0x0b,
];

const MODULE = new Wasm.Module(
  new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, vec([[0x60, ...vec([[0x7f], [0x7f], [0x7f], [0x7f], [0x7f]]), 0]])),
    ...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, 1]])),
    ...section(3, vec([[0]])),
    ...section(7, vec([[...name('scores'), 0x00, 0]])),
    ...section(10, vec([[...leb(body.length), ...body]])),
  ]),
);

export type ScoresFn = (matrixByte: number, queryByte: number, outByte: number, rows: number, dim: number) => void;

/** The kernel bound to `memory` (dimension must be a multiple of 8: pad rows with zeros). */
export const simdScores = (memory: WasmMemory): ScoresFn => new Wasm.Instance(MODULE, { env: { memory } }).exports['scores'] as ScoresFn;

/** Linear memory of `bytes` (rounded up to whole pages); throws beyond wasm32's 4 GiB. */
export const wasmMemory = (bytes: number): WasmMemory => {
  const pages = Math.ceil(bytes / WASM_PAGE);
  if (pages > MAX_PAGES) throw new RangeError(`a dense matrix of ${bytes} bytes exceeds the embedded store's 4 GiB limit`);
  return new Wasm.Memory({ initial: pages, maximum: pages });
};

export const WASM_PAGE = 65_536;
/** wasm32 addresses at most 4 GiB. */
export const MAX_PAGES = 65_536;
