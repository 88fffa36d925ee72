// SPDX-License-Identifier: AGPL-3.0-or-later
// Worker thread: one onnxruntime session for a BERT-style sentence encoder (MiniLM), mean pooling over the
// attention mask and L2 normalisation. onnxruntime-node's `run` is synchronous on the calling thread, so it
// lives here and never on the caller's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import ort from 'onnxruntime-node';
import { meanPoolNormalize } from '../vector-math.js';

interface RunRequest {
  id: number;
  /** Token ids, row-major [rows, padTo]; 0 = [PAD]. */
  ids: Int32Array;
  lengths: number[];
  padTo: number;
}

const { modelPath, threads } = workerData as { modelPath: string; threads: number };
const sessionReady = ort.InferenceSession.create(modelPath, {
  intraOpNumThreads: threads,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
});

const run = async ({ ids, lengths, padTo }: RunRequest): Promise<Float32Array> => {
  const session = await sessionReady;
  const rows = lengths.length;
  const inputIds = new BigInt64Array(rows * padTo);
  const mask = new BigInt64Array(rows * padTo);
  for (let r = 0; r < rows; r++) {
    const len = lengths[r] as number;
    for (let j = 0; j < len; j++) {
      inputIds[r * padTo + j] = BigInt(ids[r * padTo + j] as number);
      mask[r * padTo + j] = 1n;
    }
  }
  const dims = [rows, padTo];
  const feeds: Record<string, ort.Tensor> = {
    input_ids: new ort.Tensor('int64', inputIds, dims),
    attention_mask: new ort.Tensor('int64', mask, dims),
  };
  if (session.inputNames.includes('token_type_ids'))
    feeds['token_type_ids'] = new ort.Tensor('int64', new BigInt64Array(rows * padTo), dims);
  const out = await session.run(feeds);
  const hidden = (out['last_hidden_state'] ?? out[session.outputNames[0] as string]) as ort.Tensor;
  const dim = hidden.dims[2] as number;
  const result = meanPoolNormalize(hidden.data as Float32Array, lengths, padTo, dim);
  hidden.dispose();
  return result;
};

parentPort?.on('message', (req: RunRequest) => {
  run(req).then(
    (value) => parentPort?.postMessage({ id: req.id, ok: true, value }, [value.buffer as ArrayBuffer]),
    (err: unknown) =>
      parentPort?.postMessage({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
});
