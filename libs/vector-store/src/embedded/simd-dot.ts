// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * A WebAssembly SIMD kernel: out[r] = Σ_j matrix[r][j] * query[j] over int8 rows (int32 results).
 *
 * Why hand-written: exact search over 100k x 384-d float32 takes ~42 ms as a JS loop and ~54 ms with
 * sqlite-vec's vec0 KNN on these machines; this kernel scans int8-quantised rows in ~3 ms and the store
 * rescores the best candidates exactly in float32 (docs/benchmarks/vector-store.md). No maintained npm
 * package ships such a kernel without a native build, so the module is assembled here from its
 * instructions. Equivalent WAT (`$dim` is a multiple of 16; rows are zero-padded):
 *
 *   (func (export "scores") (param $m i32) (param $q i32) (param $out i32) (param $rows i32) (param $dim i32)
 *     (local $r i32) (local $j i32) (local $p i32) (local $a v128)
 *     $p = $m
 *     for $r in 0..$rows:
 *       $a = i32x4(0)
 *       for $j in 0..$dim step 16:
 *         $a += i32x4.extadd_pairwise_i16x8_s(i16x8.extmul_low_i8x16_s(v128.load($p), v128.load($q + $j)))
 *         $a += i32x4.extadd_pairwise_i16x8_s(i16x8.extmul_high_i8x16_s(v128.load($p), v128.load($q + $j)))
 *         $p += 16
 *       i32.store($out + 4*$r, lane0($a) + lane1($a) + lane2($a) + lane3($a)))
 */
/** The few WebAssembly globals used (this repo's TS lib settings do not declare them). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (d: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory;
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
const [M, Q, OUT, ROWS, DIM, R, J, P, A] = [0, 1, 2, 3, 4, 5, 6, 7, 8] as const;
const get = (i: number): number[] => [0x20, i];
const set = (i: number): number[] => [0x21, i];
const i32 = (n: number): number[] => [0x41, ...leb(n)];
const load = [SIMD, 0x00, 4, 0]; // v128.load align=16 offset=0
const EXTMUL_LOW = [SIMD, 0x9c, 0x01]; // i16x8.extmul_low_i8x16_s
const EXTMUL_HIGH = [SIMD, 0x9d, 0x01]; // i16x8.extmul_high_i8x16_s
const PAIRWISE = [SIMD, 0x7e]; // i32x4.extadd_pairwise_i16x8_s
const I32X4_ADD = [SIMD, 0xae, 0x01];
const half = (extmul: number[]): number[] => [
  ...get(P),
  ...load,
  ...get(Q),
  ...get(J),
  0x6a,
  ...load,
  ...extmul,
  ...PAIRWISE,
  ...get(A),
  ...I32X4_ADD,
  ...set(A),
];
const lane = (l: number): number[] => [...get(A), SIMD, 0x1b, l]; // i32x4.extract_lane

const body = [
  ...vec([
    [3, 0x7f],
    [1, 0x7b],
  ]), // locals: 3 x i32, 1 x v128
  ...get(M),
  ...set(P),
  0x02,
  0x40,
  0x03,
  0x40, // block $done, loop $row
  ...get(R),
  ...get(ROWS),
  0x4f,
  0x0d,
  1, // if r >= rows: break
  SIMD,
  0x0c,
  ...new Array<number>(16).fill(0),
  ...set(A),
  ...i32(0),
  ...set(J),
  0x02,
  0x40,
  0x03,
  0x40, // block $dimDone, loop $dim
  ...get(J),
  ...get(DIM),
  0x4f,
  0x0d,
  1,
  ...half(EXTMUL_LOW),
  ...half(EXTMUL_HIGH),
  ...get(P),
  ...i32(16),
  0x6a,
  ...set(P),
  ...get(J),
  ...i32(16),
  0x6a,
  ...set(J),
  0x0c,
  0,
  0x0b,
  0x0b, // continue $dim; end loop, end block
  ...get(OUT),
  ...get(R),
  ...i32(2),
  0x74,
  0x6a,
  ...lane(0),
  ...lane(1),
  0x6a,
  ...lane(2),
  0x6a,
  ...lane(3),
  0x6a,
  0x36,
  2,
  0, // i32.store
  ...get(R),
  ...i32(1),
  0x6a,
  ...set(R),
  0x0c,
  0,
  0x0b,
  0x0b, // continue $row; end loop, end block
  0x0b,
];

/** The module, importing `env.memory` with the given limits (plain: min 1 page; shared: also a maximum). */
const module = (limits: number[]): object =>
  new Wasm.Module(
    new Uint8Array([
      0x00,
      0x61,
      0x73,
      0x6d,
      1,
      0,
      0,
      0,
      ...section(1, vec([[0x60, ...vec([[0x7f], [0x7f], [0x7f], [0x7f], [0x7f]]), 0]])),
      ...section(2, vec([[...name('env'), ...name('memory'), 0x02, ...limits]])),
      ...section(3, vec([[0]])),
      ...section(7, vec([[...name('scores'), 0x00, 0]])),
      ...section(10, vec([[...leb(body.length), ...body]])),
    ]),
  );
const MODULE = module([0x00, 1]);
/** For a shared memory (threads proposal: limits flag 3 = shared with a maximum). */
const SHARED_MODULE = module([0x03, 1, ...leb(65_536)]);

export type ScoresFn = (
  matrixByte: number,
  queryByte: number,
  outByte: number,
  rows: number,
  paddedDim: number,
) => void;

/** The kernel bound to `memory` (byte offsets; the dimension must be a multiple of 16: pad rows with zeros). */
export const simdScores = (memory: WasmMemory): ScoresFn =>
  new Wasm.Instance(memory.buffer instanceof SharedArrayBuffer ? SHARED_MODULE : MODULE, { env: { memory } }).exports[
    'scores'
  ] as ScoresFn;

/** Linear memory of `bytes` (rounded up to whole pages); throws beyond wasm32's 4 GiB. */
export const wasmMemory = (bytes: number, shared = false): WasmMemory => {
  const pages = Math.ceil(bytes / WASM_PAGE);
  if (pages > MAX_PAGES)
    throw new RangeError(`a dense matrix of ${bytes} bytes exceeds the embedded store's 4 GiB limit`);
  return new Wasm.Memory({ initial: pages, maximum: pages, ...(shared ? { shared: true } : {}) });
};

export const WASM_PAGE = 65_536;
/** wasm32 addresses at most 4 GiB. */
export const MAX_PAGES = 65_536;
