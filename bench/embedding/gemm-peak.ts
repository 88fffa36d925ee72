// SPDX-License-Identifier: AGPL-3.0-or-later
// The machine's matrix-multiply peak as onnxruntime reaches it: a graph with one fp32 MatMul, timed at the
// shapes a MiniLM layer uses. The best GFLOP/s is the ceiling the model's throughput is compared with.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import ort from 'onnxruntime-node';
import type * as OnnxProto from 'onnx-proto';

const { onnx } = createRequire(import.meta.url)('onnx-proto') as typeof OnnxProto;

const matmulModel = (k: number, n: number): Uint8Array => {
  const w = new Float32Array(k * n).map((_, i) => ((i * 2654435761) % 1000) / 1000 - 0.5);
  const io = (name: string, dims: ({ dimParam: string } | { dimValue: number })[]) => ({
    name,
    type: { tensorType: { elemType: 1, shape: { dim: dims } } },
  });
  return onnx.ModelProto.encode({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'gemm',
      node: [{ opType: 'MatMul', input: ['x', 'w'], output: ['y'] }],
      initializer: [{ name: 'w', dims: [k, n], dataType: 1, rawData: new Uint8Array(w.buffer) }],
      input: [io('x', [{ dimParam: 'm' }, { dimValue: k }])],
      output: [io('y', [{ dimParam: 'm' }, { dimValue: n }])],
    },
  }).finish();
};

export interface GemmResult {
  shape: string;
  gflops: number;
}

/**
 * Best-of-`repeats` GFLOP/s for [m,k]x[k,n] at each MiniLM shape, with `threads` intra-op threads. The machine's
 * peak is then max(this at all cores, one core x cores): the second assumes perfect scaling, so it errs high
 * (a conservative denominator for the efficiency ratio).
 */
export const measureGemmPeak = async (dir: string, threads: number, repeats = 20): Promise<GemmResult[]> => {
  // Rows (m): 256 (one 256-token text: what one ONNX call of the embedder gets by default, the fastest here),
  // 2048 and 8192 (8 and 32 such texts in one call). k x n: the layer's projections (QKV packed, output, FFN).
  const kn: [number, number][] = [
    [384, 384],
    [384, 1152],
    [384, 1536],
    [1536, 384],
  ];
  const shapes: [number, number, number][] = [
    ...[256, 2048].flatMap((m) => kn.map(([k, n]) => [m, k, n] as [number, number, number])),
    [8192, 384, 1536],
  ];
  const results: GemmResult[] = [];
  for (const [m, k, n] of shapes) {
    const file = join(dir, `gemm-${k}x${n}.onnx`);
    writeFileSync(file, matmulModel(k, n));
    const session = await ort.InferenceSession.create(file, { intraOpNumThreads: threads, interOpNumThreads: 1 });
    const x = new ort.Tensor('float32', new Float32Array(m * k).fill(0.5), [m, k]);
    await session.run({ x });
    let best = Infinity;
    for (let r = 0; r < repeats; r++) {
      const t0 = performance.now();
      await session.run({ x });
      best = Math.min(best, performance.now() - t0);
    }
    results.push({ shape: `[${m}x${k}]·[${k}x${n}]`, gflops: (2 * m * k * n) / (best / 1000) / 1e9 });
    await session.release();
  }
  return results;
};

// One one-thread session per worker thread (onnxruntime-node runs the sessions of one thread one at a time).
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.ort);
(async () => {
  const { file, m, k, runs } = workerData;
  const session = await ort.InferenceSession.create(file, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  const x = new ort.Tensor('float32', new Float32Array(m * k).fill(0.5), [m, k]);
  await session.run({ x });
  parentPort.postMessage('ready');
  parentPort.on('message', async (msg) => {
    if (msg === 'stop') { await session.release(); process.exit(0); }
    for (let i = 0; i < runs; i++) await session.run({ x });
    parentPort.postMessage('done');
  });
})();
`;

/**
 * GFLOP/s of `sessions` one-thread GEMM sessions running at the same time, each in its own worker thread
 * (as the embedder runs: one one-thread session per core), aggregated over the window in which all of them
 * run `runsPerWindow` back-to-back MatMuls: the machine's matrix-multiply peak with every core busy.
 * Best of `repeats` windows per shape.
 */
export const measureGemmConcurrent = async (
  dir: string,
  sessions: number,
  repeats = 5,
  runsPerWindow = 8,
): Promise<GemmResult[]> => {
  const kn: [number, number][] = [
    [384, 384],
    [384, 1152],
    [384, 1536],
    [1536, 384],
  ];
  const ortPath = createRequire(import.meta.url).resolve('onnxruntime-node');
  const results: GemmResult[] = [];
  for (const m of [256, 2048]) {
    for (const [k, n] of kn) {
      const file = join(dir, `gemm-${k}x${n}.onnx`);
      writeFileSync(file, matmulModel(k, n));
      const workers = Array.from(
        { length: sessions },
        () => new Worker(WORKER, { eval: true, workerData: { ort: ortPath, file, m, k, runs: runsPerWindow } }),
      );
      const next = (w: Worker): Promise<unknown> =>
        new Promise((resolve, reject) => {
          w.once('message', resolve);
          w.once('error', reject);
        });
      await Promise.all(workers.map(next));
      let best = Infinity;
      for (let r = 0; r < repeats; r++) {
        const done = workers.map(next);
        const t0 = performance.now();
        for (const w of workers) w.postMessage('go');
        await Promise.all(done);
        best = Math.min(best, performance.now() - t0);
      }
      await Promise.all(
        workers.map(
          (w) =>
            new Promise((resolve) => {
              w.once('exit', resolve);
              w.postMessage('stop');
            }),
        ),
      );
      results.push({
        shape: `[${m}x${k}]·[${k}x${n}] x${sessions}`,
        gflops: (sessions * runsPerWindow * 2 * m * k * n) / (best / 1000) / 1e9,
      });
    }
  }
  return results;
};
