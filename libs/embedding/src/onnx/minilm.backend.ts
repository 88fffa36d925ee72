// SPDX-License-Identifier: AGPL-3.0-or-later
import type { EncoderBackend } from '../embedder.js';
import { WorkerPool } from '../worker-client.js';
import type { WordPieceTokenizer } from './wordpiece-tokenizer.js';

/** Padded lengths are multiples of this: rows of similar length share a batch, padding stays small. */
const PAD_BUCKET = 16;

export interface OnnxBackendOptions {
  modelPath: string;
  tokenizer: WordPieceTokenizer;
  dimension: number;
  maxTokens: number;
  threads: number;
  /** Worker threads, each with its own session (`threads` is split between them). */
  workers: number;
  /** Dynamic int8 models quantise activations per call, so every text runs alone (determinism). */
  quantized: boolean;
  /** Most tokens (rows x padded length) per inference call; see DEFAULT_ONNX_BATCH_TOKENS. */
  maxBatchTokens?: number | undefined;
}

/**
 * Tokens per ONNX call by default (rows x padded length; a longer row still runs, alone). The matrix multiplies
 * run fastest while a call's activations stay cache-sized: measured on the fp32 MiniLM graph (2 cores, two
 * single-threaded sessions, 256-token texts), 256 tokens per call gave 77% of the GEMM peak, 512 72%, 1024 69%
 * and 32 rows (8192 tokens) 61%; one-MatMul GEMMs at MiniLM's shapes lose ~25% from 256 to 8192 rows.
 * Per-call overhead stays negligible (a 256-token call is ~30 ms of work). See docs/benchmarks/embedding.md.
 */
export const DEFAULT_ONNX_BATCH_TOKENS = 256;

/** Tokenisation half, usable before the model is loaded (countTokens, truncation). */
export const onnxTokenizeOnly = (o: Pick<OnnxBackendOptions, 'tokenizer' | 'dimension' | 'maxTokens'>) => ({
  dimension: o.dimension,
  maxTokens: o.maxTokens,
  tokenize: (text: string) => o.tokenizer.encode(text),
  truncate: (ids: number[]) => o.tokenizer.truncate(ids, o.maxTokens),
});

/** Starts the inference worker (the ONNX session is created there, on first use). */
export const startOnnxBackend = async (o: OnnxBackendOptions): Promise<EncoderBackend> => {
  const workers = Math.max(1, Math.min(o.workers, o.threads));
  const pool = new WorkerPool(
    new URL(`./onnx-inference.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
    { modelPath: o.modelPath, threads: Math.max(1, Math.floor(o.threads / workers)) },
    workers,
  );
  return {
    parallelism: pool.size,
    maxBatchTokens: o.maxBatchTokens ?? DEFAULT_ONNX_BATCH_TOKENS,
    ...onnxTokenizeOnly(o),
    padLength: (length) =>
      o.quantized ? undefined : Math.min(Math.ceil(length / PAD_BUCKET) * PAD_BUCKET, o.maxTokens),
    run: async (rows, padTo) => {
      const ids = new Int32Array(rows.length * padTo);
      rows.forEach((r, i) => ids.set(r, i * padTo));
      return pool.call<Float32Array>({ ids, lengths: rows.map((r) => r.length), padTo }, [ids.buffer]);
    },
    close: () => pool.close(),
  };
};
