// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { KnownModel, ModelFile } from './model-registry.js';

/** sha256 of a file, streamed (hex). */
export const sha256File = (file: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });

/** The weights revision recorded in a fingerprint: pins the exact weights, so random test weights never match. */
export const revisionOf = (sha256: string): string => `sha256:${sha256.slice(0, 16)}`;

export interface LocatedWeights {
  /** Absolute path of the weights file. */
  file: string;
  sha256: string;
  /** True when the sha256 is one of the published values pinned in the registry. */
  verified: boolean;
}

/** Where an ONNX file of the wanted precision lies in `dir` (hub layout `onnx/…`, or flat). */
export const findWeightsFile = (model: KnownModel, dir: string, quantized: boolean): string | undefined => {
  const candidates = quantized ? (model.weights?.int8 ?? []) : (model.weights?.fp32 ?? []);
  const paths = [...new Set(candidates.flatMap((c) => [c.path, c.path.replace(/^onnx\//, '')]))];
  return paths.map((p) => join(dir, p)).find((p) => existsSync(p));
};

/** Finds and hashes the weights in `dir`; `undefined` when no file of that precision is there. */
export const locateWeights = async (
  model: KnownModel,
  dir: string,
  quantized: boolean,
): Promise<LocatedWeights | undefined> => {
  const file = findWeightsFile(model, dir, quantized);
  if (!file) return undefined;
  const sha256 = await sha256File(file);
  const pinned = [...(model.weights?.fp32 ?? []), ...(model.weights?.int8 ?? [])];
  return { file, sha256, verified: pinned.some((f) => f.sha256 === sha256) };
};

/** Tokenizer/config files (and, for Model2Vec, the matrix and config.json) missing from `dir`. */
export const missingFiles = (model: KnownModel, dir: string): string[] => {
  const statics = model.staticEmbeddings;
  const paths = [
    ...model.files.map((f) => f.path),
    ...(statics ? [statics.config, (statics.accepted[0] as ModelFile).path] : []),
  ];
  return paths.filter((p) => !existsSync(join(dir, p)));
};

/** Pinned files in `dir` whose sha256 differs from the registry's value (absent files are not listed). */
export const unpinnedFiles = async (model: KnownModel, dir: string): Promise<string[]> => {
  const differing: string[] = [];
  for (const f of model.files) {
    const file = join(dir, f.path);
    if (existsSync(file) && (await sha256File(file)) !== f.sha256) differing.push(f.path);
  }
  return differing;
};

/** The Model2Vec matrix file in `dir`, hashed; `verified` when its sha256 is one of the accepted values. */
export const locateStaticEmbeddings = async (model: KnownModel, dir: string): Promise<LocatedWeights | undefined> => {
  const accepted = model.staticEmbeddings?.accepted ?? [];
  const file = [...new Set(accepted.map((a) => join(dir, a.path)))].find((p) => existsSync(p));
  if (!file) return undefined;
  const sha256 = await sha256File(file);
  return { file, sha256, verified: accepted.some((a) => a.sha256 === sha256) };
};
