// SPDX-License-Identifier: AGPL-3.0-or-later
// Builds an ONNX model with exactly the all-MiniLM-L6-v2 architecture (BERT, 6 layers, 12 heads, hidden 384,
// FFN 1536, vocab 30522, 512 positions), the same input/output names as the Hugging Face export
// (input_ids, attention_mask, token_type_ids -> last_hidden_state), and seeded random weights.
// The real weights cannot be downloaded on these machines; this model has the same graph, tokenizer and cost,
// so the whole pipeline (and its speed) is exercised for real. Test and benchmark use only: onnx-proto is a dev
// dependency. Hand-written because no npm package builds ONNX graphs (onnx-proto only has the protobuf types).
import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import type * as OnnxProto from 'onnx-proto';

const require = createRequire(import.meta.url);
// onnx-proto is CommonJS (protobufjs static code); its types describe the `onnx` namespace.
const { onnx } = require('onnx-proto') as typeof OnnxProto;
type INodeProto = OnnxProto.onnx.INodeProto;
type ITensorProto = OnnxProto.onnx.ITensorProto;

export interface MiniLmShape {
  vocab: number;
  hidden: number;
  layers: number;
  heads: number;
  ffn: number;
  positions: number;
}
export const MINILM_SHAPE: MiniLmShape = { vocab: 30522, hidden: 384, layers: 6, heads: 12, ffn: 1536, positions: 512 };

const FLOAT = 1;
const INT8 = 3;
const INT64 = 7;

/** mulberry32: a tiny seeded PRNG so the same seed always gives the same weights (and the same fingerprint). */
const prng = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

class GraphBuilder {
  readonly nodes: INodeProto[] = [];
  readonly inits: ITensorProto[] = [];
  private n = 0;
  private readonly rand: () => number;
  constructor(
    seed: number,
    readonly quantize: boolean,
  ) {
    this.rand = prng(seed);
  }
  name(prefix: string): string {
    this.n += 1;
    return `${prefix}_${this.n}`;
  }
  op(opType: string, inputs: string[], attrs: Record<string, number | number[]> = {}, outputs = 1): string[] {
    const outs = Array.from({ length: outputs }, () => this.name(opType));
    const attribute = Object.entries(attrs).map(([name, v]) =>
      Array.isArray(v)
        ? { name, type: onnx.AttributeProto.AttributeType.INTS, ints: v }
        : Number.isInteger(v)
          ? { name, type: onnx.AttributeProto.AttributeType.INT, i: v }
          : { name, type: onnx.AttributeProto.AttributeType.FLOAT, f: v },
    );
    this.nodes.push({ opType, input: inputs, output: outs, name: this.name(`n_${opType}`), attribute });
    return outs;
  }
  one(opType: string, inputs: string[], attrs: Record<string, number | number[]> = {}): string {
    return this.op(opType, inputs, attrs)[0] as string;
  }
  tensor(dims: number[], dataType: number, bytes: Uint8Array): string {
    const name = this.name('w');
    this.inits.push({ name, dims, dataType, rawData: bytes });
    return name;
  }
  floats(dims: number[], fill: (i: number) => number): string {
    const size = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(size);
    for (let i = 0; i < size; i++) data[i] = fill(i);
    return this.tensor(dims, FLOAT, new Uint8Array(data.buffer));
  }
  random(dims: number[], std = 0.02): string {
    const a = std * Math.sqrt(3);
    return this.floats(dims, () => (this.rand() * 2 - 1) * a);
  }
  int64s(values: number[]): string {
    return this.tensor([values.length], INT64, new Uint8Array(new BigInt64Array(values.map(BigInt)).buffer));
  }
  scalar64(value: number): string {
    return this.tensor([], INT64, new Uint8Array(new BigInt64Array([BigInt(value)]).buffer));
  }
  scalarF(value: number): string {
    return this.tensor([], FLOAT, new Uint8Array(new Float32Array([value]).buffer));
  }
  /** x·W + b; with `quantize`, the dynamic int8 form onnxruntime's quantize_dynamic emits (MatMulInteger). */
  dense(x: string, inDim: number, outDim: number): string {
    if (!this.quantize)
      return this.one('Add', [this.one('MatMul', [x, this.random([inDim, outDim])]), this.random([outDim])]);
    const scale = (0.02 * Math.sqrt(3)) / 127;
    const q = new Int8Array(inDim * outDim);
    for (let i = 0; i < q.length; i++) q[i] = Math.round((this.rand() * 2 - 1) * 127);
    const w = this.tensor([inDim, outDim], INT8, new Uint8Array(q.buffer));
    const wZero = this.tensor([], INT8, new Uint8Array(1));
    const [xq, xScale, xZero] = this.op('DynamicQuantizeLinear', [x], {}, 3) as [string, string, string];
    const acc = this.one('MatMulInteger', [xq, w, xZero, wZero]);
    const f = this.one('Cast', [acc], { to: FLOAT });
    const s = this.one('Mul', [xScale, this.scalarF(scale)]);
    return this.one('Add', [this.one('Mul', [f, s]), this.random([outDim])]);
  }
  layerNorm(x: string, dim: number): string {
    return this.one('LayerNormalization', [x, this.floats([dim], () => 1), this.floats([dim], () => 0)], {
      axis: -1,
      epsilon: 1e-12,
    });
  }
}

/** Serialises a MiniLM-shaped model with random weights; `quantize` gives the int8 (dynamic) variant. */
export const buildMiniLmShapedOnnx = (
  options: { seed?: number; quantize?: boolean; shape?: MiniLmShape } = {},
): Uint8Array => {
  const s = options.shape ?? MINILM_SHAPE;
  const g = new GraphBuilder(options.seed ?? 1, options.quantize ?? false);
  const headDim = s.hidden / s.heads;
  // Embeddings: word + position + token type, then LayerNorm.
  const seqLen = g.one('Gather', [g.one('Shape', ['input_ids']), g.scalar64(1)], { axis: 0 });
  const positions = g.one('Range', [g.scalar64(0), seqLen, g.scalar64(1)]);
  const words = g.one('Gather', [g.random([s.vocab, s.hidden]), 'input_ids'], { axis: 0 });
  const pos = g.one('Gather', [g.random([s.positions, s.hidden]), positions], { axis: 0 });
  const types = g.one('Gather', [g.random([2, s.hidden]), 'token_type_ids'], { axis: 0 });
  let x = g.layerNorm(g.one('Add', [g.one('Add', [words, pos]), types]), s.hidden);
  // Extended attention mask: (1 - mask) * float32.min, shape [B, 1, 1, S].
  // attention_mask[:, None, None, :] exports as two Unsqueeze nodes (axes 1, then 2), then .to(float32).
  const mask4d = g.one('Unsqueeze', [g.one('Unsqueeze', ['attention_mask', g.int64s([1])]), g.int64s([2])]);
  const maskF = g.one('Cast', [mask4d], { to: FLOAT });
  const bias = g.one('Mul', [g.one('Sub', [g.scalarF(1), maskF]), g.scalarF(-3.4028234663852886e38)]);
  const splitShape = g.int64s([0, 0, s.heads, headDim]);
  const mergeShape = g.int64s([0, 0, s.hidden]);
  const heads = (t: string, perm: number[]): string =>
    g.one('Transpose', [g.one('Reshape', [t, splitShape])], { perm });
  for (let layer = 0; layer < s.layers; layer++) {
    const q = heads(g.dense(x, s.hidden, s.hidden), [0, 2, 1, 3]);
    const k = heads(g.dense(x, s.hidden, s.hidden), [0, 2, 3, 1]);
    const v = heads(g.dense(x, s.hidden, s.hidden), [0, 2, 1, 3]);
    const scores = g.one('Add', [g.one('Div', [g.one('MatMul', [q, k]), g.scalarF(Math.sqrt(headDim))]), bias]);
    const ctx = g.one('MatMul', [g.one('Softmax', [scores], { axis: -1 }), v]);
    const merged = g.one('Reshape', [g.one('Transpose', [ctx], { perm: [0, 2, 1, 3] }), mergeShape]);
    x = g.layerNorm(g.one('Add', [g.dense(merged, s.hidden, s.hidden), x]), s.hidden);
    const h = g.dense(x, s.hidden, s.ffn);
    // Exact (erf) GELU, as in BERT: 0.5 * h * (1 + erf(h / sqrt(2))).
    const gelu = g.one('Mul', [
      g.one('Mul', [h, g.scalarF(0.5)]),
      g.one('Add', [g.one('Erf', [g.one('Div', [h, g.scalarF(Math.SQRT2)])]), g.scalarF(1)]),
    ]);
    x = g.layerNorm(g.one('Add', [g.dense(gelu, s.ffn, s.hidden), x]), s.hidden);
  }
  g.nodes.push({ opType: 'Identity', input: [x], output: ['last_hidden_state'], name: 'output' });
  const dynamic = (...dims: string[]) => dims.map((dimParam) => ({ dimParam }));
  const io = (name: string, elemType: number, dims: { dimParam?: string; dimValue?: number }[]) => ({
    name,
    type: { tensorType: { elemType, shape: { dim: dims } } },
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'lectern-minilm-shaped-random',
    opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'minilm_shaped_random',
      node: g.nodes,
      initializer: g.inits,
      input: ['input_ids', 'attention_mask', 'token_type_ids'].map((n) =>
        io(n, INT64, dynamic('batch_size', 'sequence_length')),
      ),
      output: [io('last_hidden_state', FLOAT, [...dynamic('batch_size', 'sequence_length'), { dimValue: s.hidden }])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
};

/** Writes the model to `file` (about 90 MB fp32, 23 MB int8). */
export const writeMiniLmShapedOnnx = async (
  file: string,
  options: { seed?: number; quantize?: boolean } = {},
): Promise<void> => {
  await writeFile(file, buildMiniLmShapedOnnx(options));
};
