// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { z } from 'zod';
import type { EncoderBackend } from '../embedder.js';
import { writeNormalized } from '../vector-math.js';
import { modelFileError, parseSafetensors, tensorToFloat32, type SafetensorsDtype } from './safetensors.js';

/** model2vec's own cap: at most this many tokens of a text are averaged. */
export const MODEL2VEC_MAX_TOKENS = 512;

/** model2vec's config.json (the fields that change the vectors; the rest is kept but unused). */
export const Model2VecConfigSchema = z
  .object({
    model_type: z.string().optional(),
    hidden_dim: z.number().int().positive().optional(),
    /** L2-normalise the mean (model2vec's default when absent: no). */
    normalize: z.boolean().default(false),
  })
  .passthrough();
export type Model2VecConfig = z.infer<typeof Model2VecConfigSchema>;

/** Reads and checks config.json; errors name `label` (default: the file). */
export const readModel2VecConfig = async (path: string, label = path): Promise<Model2VecConfig> => {
  const file = label;
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (cause) {
    throw modelFileError(file, 'is not readable JSON', cause);
  }
  const parsed = Model2VecConfigSchema.safeParse(raw);
  if (!parsed.success)
    throw modelFileError(file, `is not a model2vec config (${parsed.error.issues[0]?.message ?? 'invalid'})`);
  if (parsed.data.model_type !== undefined && parsed.data.model_type !== 'model2vec') {
    throw modelFileError(file, `model_type is "${parsed.data.model_type}", expected "model2vec"`);
  }
  return parsed.data;
};

/** model2vec's tokenisation: the model's tokenizer without special tokens, `[UNK]` ids dropped (not truncated). */
export interface Model2VecTokenizer {
  encode(text: string): number[];
  /** Largest token id the tokenizer can produce (must be a row of the matrix). */
  readonly maxId: number;
}

/** Words a tokenizer's word cache holds before it starts again (~200 bytes of heap a word: ~4 MB when full). */
export const WORD_PIECE_CACHE_MAX = 20_000;

/** The parts of @huggingface/tokenizers' Tokenizer this file's fast path uses (its own fields, not typed by the package). */
interface TokenizerParts {
  normalizer: ((text: string) => string) | null;
  pre_tokenizer: ((text: string, options: { section_index: number }) => string[]) | null;
  model: ((words: string[]) => string[]) & {
    fuse_unk?: boolean;
    tokens_to_ids: Map<string, number>;
    unk_token_id?: number;
  };
  added_tokens: { content: string; normalized?: boolean }[];
  added_tokens_map: Map<string, { id: number }>;
  remove_space?: unknown;
  do_lowercase_and_remove_accent?: unknown;
}

/** BertNormalizer's options (tokenizer.json `normalizer`). */
interface BertNormalizerConfig {
  type: 'BertNormalizer';
  clean_text?: boolean;
  handle_chinese_chars?: boolean;
  strip_accents?: boolean | null;
  lowercase?: boolean;
}

// BertNormalizer's clean_text, one code point at a time: NUL, U+FFFD and control characters (Cc, Cf, Co, Cs) except
// tab, newline and carriage return are dropped, then every remaining whitespace character becomes a space.
const BERT_DROPPED = /[\0\uFFFD]|(?![\t\n\r])[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu;
// tokenize_chinese_chars tests each UTF-16 unit against is_chinese_char's ranges: only the BMP ones can match a unit.
const BERT_CJK = /[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]/g;

/**
 * BertNormalizer.normalize of @huggingface/tokenizers 0.2, with its per-character loops (a regular expression test per
 * character) done as whole-string replacements: the same string out (checked against the library's normalizer on
 * generated text of every character class and on corpus text: word-piece-cache.spec.ts).
 */
export const bertNormalize = (cfg: BertNormalizerConfig, text: string): string => {
  let t = text;
  if (cfg.clean_text) t = t.replace(BERT_DROPPED, '').replace(/\s/g, ' ');
  if (cfg.handle_chinese_chars) t = t.replace(BERT_CJK, ' $& ');
  const strip = (x: string): string => x.normalize('NFD').replace(/\p{Mn}/gu, '');
  if (cfg.lowercase) {
    t = t.toLowerCase();
    if (cfg.strip_accents !== false) t = strip(t);
  } else if (cfg.strip_accents) t = strip(t);
  return t;
};

/**
 * The library's encode (no special tokens) for a BERT-style WordPiece tokenizer, cheaper and with the same ids: the
 * text normalised by `bertNormalize`, split into words by the library's own pre-tokenizer, and each word's ids
 * remembered (WordPiece splits every word on its own, trying each shorter prefix: O(length²) substrings built and
 * looked up, and the library keeps no cache). Texts holding an added token (`[CLS]`, ...) take the library's path, as
 * do tokenizers of any other shape (undefined returned). SciFact chunks: 0.32 -> ~0.07 ms of CPU each
 * (docs/benchmarks/load.md, round 10).
 */
export const wordPieceFastPath = (
  tokenizer: Tokenizer,
  json: { normalizer?: unknown; pre_tokenizer?: unknown; model?: { type?: string } },
): ((text: string) => number[] | undefined) | undefined => {
  const t = tokenizer as unknown as TokenizerParts;
  const norm = json.normalizer as BertNormalizerConfig | null | undefined;
  const pre = json.pre_tokenizer as { type?: string } | null | undefined;
  if (
    json.model?.type !== 'WordPiece' ||
    norm?.type !== 'BertNormalizer' ||
    pre?.type !== 'BertPreTokenizer' ||
    typeof t.model !== 'function' ||
    typeof t.pre_tokenizer !== 'function' ||
    typeof t.normalizer !== 'function' ||
    t.model.fuse_unk === true ||
    Boolean(t.remove_space) ||
    Boolean(t.do_lowercase_and_remove_accent)
  )
    return undefined;
  const { model, pre_tokenizer: split } = t;
  const raw = t.added_tokens.map((a) => a.content);
  const normalised = t.added_tokens.filter((a) => a.normalized).map((a) => bertNormalize(norm, a.content));
  const idOf = (piece: string): number | undefined =>
    t.added_tokens_map.get(piece)?.id ?? model.tokens_to_ids.get(piece) ?? model.unk_token_id;
  let cache = new Map<string, (number | undefined)[]>();
  return (text) => {
    if (raw.some((a) => text.includes(a))) return undefined;
    const normal = bertNormalize(norm, text);
    if (normalised.some((a) => normal.includes(a))) return undefined;
    const out: number[] = [];
    if (normal.length === 0) return out;
    for (const word of split(normal, { section_index: 0 })) {
      let ids = cache.get(word);
      if (ids === undefined) {
        ids = model([word]).map(idOf);
        if (cache.size >= WORD_PIECE_CACHE_MAX) cache = new Map();
        cache.set(word, ids);
      }
      for (const id of ids) out.push(id as number);
    }
    return out;
  };
};

export const loadModel2VecTokenizer = async (dir: string): Promise<Model2VecTokenizer> => {
  const file = join(dir, 'tokenizer.json');
  let json: {
    normalizer?: unknown;
    pre_tokenizer?: unknown;
    model?: { type?: string; unk_token?: string; vocab?: Record<string, number> };
    added_tokens?: { id: number }[];
  };
  try {
    json = JSON.parse(await readFile(file, 'utf8')) as typeof json;
  } catch (cause) {
    throw modelFileError(file, 'is not readable JSON', cause);
  }
  const tokenizer = new Tokenizer(json, {});
  const fast = wordPieceFastPath(tokenizer, json);
  const unk = json.model?.unk_token === undefined ? undefined : tokenizer.token_to_id(json.model.unk_token);
  const ids = [...Object.values(json.model?.vocab ?? {}), ...(json.added_tokens ?? []).map((t) => t.id)];
  const maxId = ids.reduce((m, i) => Math.max(m, i), -1);
  return {
    maxId,
    encode: (text) => {
      const out: number[] = fast?.(text) ?? tokenizer.encode(text, { add_special_tokens: false }).ids;
      return unk === undefined ? out : out.filter((id: number) => id !== unk);
    },
  };
};

export interface StaticEmbeddingsSpec {
  tensor: string;
  rows: number;
  dimension: number;
  dtypes: readonly SafetensorsDtype[];
}

/** Tensors of model2vec's vocabulary-quantised format, whose rows are not one per token: not supported here. */
const UNSUPPORTED_TENSORS = ['mapping', 'weights'];

/**
 * The embedding matrix from safetensors bytes, as float32 rows, after checking the tensor's name, dtype and shape
 * (MODEL_FILE_INVALID names the file and the mismatch).
 */
export const staticEmbeddingsFrom = (bytes: Buffer, file: string, spec: StaticEmbeddingsSpec): Float32Array => {
  const st = parseSafetensors(bytes, file);
  const extra = UNSUPPORTED_TENSORS.filter((t) => st.tensors.has(t));
  if (extra.length > 0)
    throw modelFileError(file, `has ${extra.join(' and ')} tensors (vocabulary-quantised model2vec): not supported`);
  const info = st.tensors.get(spec.tensor);
  if (!info)
    throw modelFileError(
      file,
      `has no tensor "${spec.tensor}" (tensors: ${[...st.tensors.keys()].join(', ') || 'none'})`,
    );
  if (!(spec.dtypes as readonly string[]).includes(info.dtype)) {
    throw modelFileError(file, `tensor "${spec.tensor}" is ${info.dtype}; expected one of ${spec.dtypes.join(', ')}`);
  }
  const [rows, cols] = info.shape;
  if (info.shape.length !== 2 || rows !== spec.rows || cols !== spec.dimension) {
    throw modelFileError(
      file,
      `tensor "${spec.tensor}" has shape [${info.shape.join(', ')}], expected [${spec.rows}, ${spec.dimension}]`,
    );
  }
  return tensorToFloat32(st, spec.tensor);
};

/**
 * Mean of each row's token vectors, L2-normalised when `normalize`; a row with no tokens left (all `[UNK]`)
 * is the zero vector, as in model2vec. Sums in float64 in token order: a row's result depends only on its ids.
 */
export const poolStaticEmbeddings = (
  matrix: Float32Array,
  rows: number[][],
  dim: number,
  normalize: boolean,
): Float32Array => {
  const out = new Float32Array(rows.length * dim);
  const acc = new Float64Array(dim);
  for (const [r, ids] of rows.entries()) {
    acc.fill(0);
    for (const id of ids) {
      const base = id * dim;
      for (let d = 0; d < dim; d++) acc[d] = (acc[d] as number) + (matrix[base + d] as number);
    }
    if (ids.length === 0) continue;
    for (let d = 0; d < dim; d++) acc[d] = (acc[d] as number) / ids.length;
    if (normalize) writeNormalized(acc, out, r * dim);
    else out.set(acc, r * dim);
  }
  return out;
};

/** Tokenisation half, usable before the model is loaded (countTokens, truncation). */
export const model2vecTokenizeOnly = (tokenizer: Model2VecTokenizer, dimension: number) => ({
  dimension,
  maxTokens: MODEL2VEC_MAX_TOKENS,
  tokenize: (text: string) => tokenizer.encode(text),
  truncate: (ids: number[]) => ids.slice(0, MODEL2VEC_MAX_TOKENS),
});

/**
 * The backend runs on the caller's thread: a call is a few table look-ups and additions per token (32 texts of
 * 200 tokens: ~0.4 M additions, well under a millisecond), and createEmbedder yields to the event loop between
 * calls. A worker would only add a copy of every batch each way (measured in bench/embedding/throughput.bench.ts).
 */
export const model2vecBackend = (o: {
  tokenizer: Model2VecTokenizer;
  matrix: Float32Array;
  dimension: number;
  normalize: boolean;
}): EncoderBackend => ({
  ...model2vecTokenizeOnly(o.tokenizer, o.dimension),
  // No padding, and no row's result depends on another: every row shares one bucket of `batchSize` rows.
  padLength: () => MODEL2VEC_MAX_TOKENS,
  run: (rows) => Promise.resolve(poolStaticEmbeddings(o.matrix, rows, o.dimension, o.normalize)),
  close: () => Promise.resolve(),
});
