// SPDX-License-Identifier: AGPL-3.0-or-later
// Worker thread: Universal Sentence Encoder lite on the official TensorFlow.js stack (tfjs-core + tfjs-converter)
// with the WebAssembly backend, loading the graph and weights from disk (no network). TensorFlow.js computes on
// the calling thread, so it lives here, never on the caller's event loop.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { writeNormalized } from '../vector-math.js';

interface RunRequest {
  id: number;
  ids: Int32Array;
  lengths: number[];
  padTo: number;
}

const { modelDir, dimension } = workerData as { modelDir: string; dimension: number };

const load = async (): Promise<GraphModel> => {
  const require = createRequire(import.meta.url);
  setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`);
  await tf.setBackend('wasm');
  await tf.ready();
  const manifest = JSON.parse(await readFile(join(modelDir, 'model.json'), 'utf8')) as {
    modelTopology: object;
    weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
  };
  const shards = await Promise.all(
    manifest.weightsManifest.flatMap((g) => g.paths.map((p) => readFile(join(modelDir, p)))),
  );
  const data = Buffer.concat(shards);
  return loadGraphModel(
    tf.io.fromMemory({
      modelTopology: manifest.modelTopology,
      weightSpecs: manifest.weightsManifest.flatMap((g) => g.weights),
      weightData: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer,
    }),
  );
};
const modelReady = load();

/** The graph takes a sparse [rows, tokens] matrix of piece ids; rows here are unpadded (padTo = own length). */
const run = async ({ ids, lengths, padTo }: RunRequest): Promise<Float32Array> => {
  const model = await modelReady;
  const idx: number[] = [];
  const vals: number[] = [];
  lengths.forEach((len, r) => {
    for (let j = 0; j < len; j++) {
      idx.push(r, j);
      vals.push(ids[r * padTo + j] as number);
    }
  });
  const indices = tf.tensor2d(idx, [vals.length, 2], 'int32');
  const values = tf.tensor1d(vals, 'int32');
  try {
    const out = (await model.executeAsync({ indices, values })) as tf.Tensor;
    const raw = (await out.data()) as Float32Array;
    out.dispose();
    const result = new Float32Array(lengths.length * dimension);
    for (let r = 0; r < lengths.length; r++)
      writeNormalized(raw.subarray(r * dimension, (r + 1) * dimension), result, r * dimension);
    return result;
  } finally {
    indices.dispose();
    values.dispose();
  }
};

parentPort?.on('message', (req: RunRequest) => {
  run(req).then(
    (value) => parentPort?.postMessage({ id: req.id, ok: true, value }, [value.buffer as ArrayBuffer]),
    (err: unknown) =>
      parentPort?.postMessage({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
});
