// SPDX-License-Identifier: AGPL-3.0-or-later
export { DEFAULT_BATCH_SIZE, createEmbedder } from './embedder.js';
export { DEFAULT_ONNX_BATCH_TOKENS } from './onnx/minilm.backend.js';
export type { EmbedBatchOptions, Embedder, EmbeddingFingerprint, EmbeddingLogger, EncoderBackend } from './embedder.js';
export { assertSameModel, howToGet, modelUnavailableError, sameModel } from './errors.js';
export { revisionOf, sha256File } from './model-files.js';
export {
  BUNDLED_MODEL_ID,
  KnownModelSchema,
  MINILM_MODEL_ID,
  MODEL_REGISTRY,
  POTION_MODEL_ID,
  ModelFileSchema,
  findModel,
  pullCommand,
} from './model-registry.js';
export type { KnownModel, ModelFile } from './model-registry.js';
export { MODEL2VEC_MAX_TOKENS, Model2VecConfigSchema } from './model2vec/model2vec.backend.js';
export type { Model2VecConfig } from './model2vec/model2vec.backend.js';
export {
  MODEL_FILE_INVALID,
  SAFETENSORS_DTYPES,
  modelFileError,
  parseSafetensors,
  readSafetensors,
  tensorToFloat32,
} from './model2vec/safetensors.js';
export type { SafetensorsDtype, SafetensorsFile, TensorInfo } from './model2vec/safetensors.js';
export { pullModel } from './pull-model.js';
export type { PullModelOptions, PullProgress, PullResult, PulledFile } from './pull-model.js';
export {
  bundledModelDir,
  miniLmAvailable,
  modelAvailable,
  modelDirectory,
  resolveEmbedder,
  resolveEmbedderFor,
} from './resolve-embedder.js';
export type { ResolveEmbedderOptions } from './resolve-embedder.js';
export { dot } from './vector-math.js';
export { EmbedderPool } from './embedder-pool.js';
export type { EmbedderProvider } from './embedder-pool.js';
