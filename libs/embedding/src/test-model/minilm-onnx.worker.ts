// SPDX-License-Identifier: AGPL-3.0-or-later
// Builds the random-weights model in a plain Node thread: inside jest's VM realm protobufjs takes a slow path
// for typed arrays (about 50x slower), so the fixture is built here.
import { parentPort, workerData } from 'node:worker_threads';
import { writeMiniLmShapedOnnx } from './minilm-onnx.builder.js';

const { file, seed, quantize } = workerData as { file: string; seed: number; quantize: boolean };
writeMiniLmShapedOnnx(file, { seed, quantize }).then(
  () => parentPort?.postMessage({ id: 0, ok: true }),
  (err: unknown) => parentPort?.postMessage({ id: 0, ok: false, error: String(err) }),
);
