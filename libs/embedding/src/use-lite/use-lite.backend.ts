// SPDX-License-Identifier: AGPL-3.0-or-later
import type { EncoderBackend } from '../embedder.js';
import { WorkerPool } from '../worker-client.js';
import type { UseTokenizer } from './use-tokenizer.js';

export const USE_LITE_DIMENSION = 512;
/** The graph clips inputs at 128 pieces (ClipToMaxLength); we truncate first, so it is visible and logged. */
export const USE_LITE_MAX_TOKENS = 128;

export const useTokenizeOnly = (tokenizer: UseTokenizer) => ({
  dimension: USE_LITE_DIMENSION,
  maxTokens: USE_LITE_MAX_TOKENS,
  tokenize: (text: string) => tokenizer.encode(text),
  truncate: (ids: number[]) => ids.slice(0, USE_LITE_MAX_TOKENS),
});

/**
 * TensorFlow.js' wasm backend computes on one thread, so the model runs in `workers` worker threads (default:
 * one per core) and batches are spread over them; each batch's result does not depend on which worker ran it.
 */
export const startUseLiteBackend = async (o: {
  modelDir: string;
  tokenizer: UseTokenizer;
  workers: number;
}): Promise<EncoderBackend> => {
  const file = new URL(`./use-inference.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  const pool = new WorkerPool(file, { modelDir: o.modelDir, dimension: USE_LITE_DIMENSION }, o.workers);
  return {
    parallelism: pool.size,
    ...useTokenizeOnly(o.tokenizer),
    // The graph pads each batch to its longest row and padding shifts results in the last bits (measured),
    // so only rows of equal length share a batch: no padding at all.
    padLength: (length) => length,
    run: async (rows, padTo) => {
      const ids = new Int32Array(rows.length * padTo);
      rows.forEach((r, i) => ids.set(r, i * padTo));
      return pool.call<Float32Array>({ ids, lengths: rows.map((r) => r.length), padTo }, [ids.buffer]);
    },
    close: () => pool.close(),
  };
};
