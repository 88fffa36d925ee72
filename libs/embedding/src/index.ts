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
  ModelFileSchema,
  findModel,
  pullCommand,
} from './model-registry.js';
export type { KnownModel, ModelFile } from './model-registry.js';
export { pullModel } from './pull-model.js';
export type { PullModelOptions, PullProgress, PullResult, PulledFile } from './pull-model.js';
export { bundledModelDir, miniLmAvailable, modelDirectory, resolveEmbedder, resolveEmbedderFor } from './resolve-embedder.js';
export type { ResolveEmbedderOptions } from './resolve-embedder.js';
export { dot } from './vector-math.js';
export { EmbedderPool } from './embedder-pool.js';
export type { EmbedderProvider } from './embedder-pool.js';
