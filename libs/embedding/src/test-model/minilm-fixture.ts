// SPDX-License-Identifier: AGPL-3.0-or-later
// Test/benchmark helper: a MiniLM model directory (real tokenizer files + random-weights ONNX) in a temp dir.
import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256File } from '../model-files.js';
import { MINILM_MODEL_ID, MODEL_REGISTRY, type KnownModel } from '../model-registry.js';
import { tsWorker } from '@lectern/runtime';

/** Writes the random-weights model from a worker thread (see minilm-onnx.worker.ts). */
export const buildModelFile = (file: string, seed: number, quantize: boolean): Promise<void> =>
  new Promise((resolve, reject) => {
    const entry = new URL(`./minilm-onnx.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
    const worker = tsWorker(entry, { workerData: { file, seed, quantize } });
    worker.once('message', (m: { ok: boolean; error?: string }) => {
      void worker.terminate();
      if (m.ok) resolve();
      else reject(new Error(m.error));
    });
    worker.once('error', reject);
  });

export const TOKENIZER_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'vocab.txt'];

export interface MiniLmFixture {
  /** Directory in the hub layout: tokenizer files + onnx/model.onnx (+ onnx/model_quint8_avx2.onnx). */
  dir: string;
  fp32Sha256: string;
  int8Sha256?: string;
  /** MODEL_REGISTRY with these random weights pinned as MiniLM's published ones (for "verified" paths). */
  trustingRegistry: KnownModel[];
}

export const makeMiniLmFixture = async (
  tokenizerDir: string,
  options: { root?: string; int8?: boolean; seed?: number } = {},
): Promise<MiniLmFixture> => {
  const dir = options.root ?? (await mkdtemp(join(tmpdir(), 'lectern-minilm-')));
  await mkdir(join(dir, 'onnx'), { recursive: true });
  await Promise.all(TOKENIZER_FILES.map((f) => copyFile(join(tokenizerDir, f), join(dir, f))));
  await buildModelFile(join(dir, 'onnx', 'model.onnx'), options.seed ?? 1, false);
  const fp32Sha256 = await sha256File(join(dir, 'onnx', 'model.onnx'));
  let int8Sha256: string | undefined;
  if (options.int8) {
    await buildModelFile(join(dir, 'onnx', 'model_quint8_avx2.onnx'), options.seed ?? 1, true);
    int8Sha256 = await sha256File(join(dir, 'onnx', 'model_quint8_avx2.onnx'));
  }
  const trustingRegistry = MODEL_REGISTRY.map((m) =>
    m.id !== MINILM_MODEL_ID || !m.weights
      ? m
      : {
          ...m,
          weights: {
            fp32: [{ path: 'onnx/model.onnx', sha256: fp32Sha256, bytes: 1 }],
            int8: int8Sha256 ? [{ path: 'onnx/model_quint8_avx2.onnx', sha256: int8Sha256, bytes: 1 }] : [],
          },
        },
  );
  return { dir, fp32Sha256, ...(int8Sha256 ? { int8Sha256 } : {}), trustingRegistry };
};
