// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, type EmbeddingFingerprint } from '@lectern/contracts';
import { QueryVectorCache } from './query-vector-cache.js';

export type { EmbeddingFingerprint };
/** What the embedding lib logs through (a pino logger fits). */
export interface EmbeddingLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface EmbedBatchOptions {
  /** Texts per inference call, at most (default 32); a backend with a token budget per call splits further. */
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
  /**
   * Stops the work at its next boundary: checked before each inference call is handed to the backend (its worker
   * lanes) and while texts are tokenised. An aborted signal rejects with its reason; calls already running finish.
   */
  signal?: AbortSignal;
}

/** A sentence encoder: unit-length vectors (cosine = dot product), identical input -> bit-identical output. */
export interface Embedder {
  readonly modelId: string;
  readonly dimension: number;
  /** Most tokens one text may have (special tokens included); longer texts are truncated with a warning. */
  readonly maxTokens: number;
  readonly fingerprint: EmbeddingFingerprint;
  embed(text: string): Promise<Float32Array>;
  embedBatch(texts: string[], options?: EmbedBatchOptions): Promise<Float32Array[]>;
  /**
   * Tokens the model sees for `text` before truncation (special tokens included), counted on a bounded prefix
   * (`maxTokens` x 32 characters): a longer text counts as its prefix does, which is more than the model uses.
   */
  countTokens(text: string): number;
  close(): Promise<void>;
}

/** The model-specific half of an embedder: tokenisation and one inference call on a batch of rows. */
export interface EncoderBackend {
  readonly dimension: number;
  readonly maxTokens: number;
  /** Model input ids for `text`, special tokens added, NOT truncated. */
  tokenize(text: string): number[];
  /** Cuts ids to `maxTokens`, keeping the model's special tokens where it has them. */
  truncate(ids: number[]): number[];
  /**
   * The length a row of `length` tokens is padded to. Rows with the same padded length share a batch, so the
   * work done for one text never depends on which other texts came with it (bit-identical vectors, NFR-004).
   * `undefined`: this model's result depends on the whole batch (e.g. dynamic int8 quantisation); run alone.
   */
  padLength(length: number): number | undefined;
  /** One inference call: `rows` token id lists padded to `padTo`; returns rows*dimension unit vectors. */
  run(rows: number[][], padTo: number): Promise<Float32Array>;
  /** How many `run` calls may be in flight at once (e.g. one per worker thread; default 1). */
  readonly parallelism?: number;
  /**
   * Most tokens (rows x padded length) one `run` call should get; a batch is split into calls of at most this
   * many tokens (at least one row each). Unset: `batchSize` rows per call.
   */
  readonly maxBatchTokens?: number;
  close(): Promise<void>;
}

export const DEFAULT_BATCH_SIZE = 32;

/**
 * Characters per model token kept before tokenising. Text averages 3-6 characters per token, so a prefix of
 * `maxTokens` x 32 characters holds everything the model can use, and a 5 MB string is never tokenised whole
 * (that took about 1 GB of memory per MB of text and aborted the process).
 */
export const MAX_CHARS_PER_TOKEN = 32;

/** The bounded prefix of `text` that is tokenised (whole code points: a surrogate pair is never split). */
export const tokenisablePrefix = (text: string, maxTokens: number): string => {
  const limit = maxTokens * MAX_CHARS_PER_TOKEN;
  if (text.length <= limit) return text;
  const cut = /[\uD800-\uDBFF]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return text.slice(0, cut);
};

const assertText = (text: unknown, where: string): string => {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new AppError('invalid_input', `${where}: text to embed must be a non-empty, non-whitespace string`);
  }
  return text;
};

/**
 * The shared half: validation, truncation with a warning, length-sorted batching (bucketed by padded length so
 * padding does not waste compute), progress, and lazy start of the backend on first use.
 */
export const createEmbedder = (meta: {
  modelId: string;
  fingerprint: EmbeddingFingerprint;
  tokenizeOnly: Pick<EncoderBackend, 'tokenize' | 'truncate' | 'maxTokens' | 'dimension'>;
  start: () => Promise<EncoderBackend>;
  log?: EmbeddingLogger | undefined;
}): Embedder => {
  let backend: Promise<EncoderBackend> | undefined;
  let closed = false;
  const tok = meta.tokenizeOnly;
  const queries = new QueryVectorCache(meta.fingerprint);
  const getBackend = (): Promise<EncoderBackend> => {
    if (closed) return Promise.reject(new AppError('model_unavailable', `embedder ${meta.modelId} is closed`));
    backend ??= meta.start();
    return backend;
  };

  // Said once per embedder: a warning per chunk flooded the log (and the CLI's output) on a long document.
  let truncationWarned = false;
  const prepare = (text: string, index: number): number[] => {
    const ids = tok.tokenize(tokenisablePrefix(text, tok.maxTokens));
    if (ids.length <= tok.maxTokens) return ids;
    if (!truncationWarned) {
      truncationWarned = true;
      meta.log?.warn(
        { model: meta.modelId, tokens: ids.length, max_tokens: tok.maxTokens, index },
        `text of ${ids.length} tokens truncated to ${tok.maxTokens} (${meta.modelId} limit); chunk long texts to the model's limit (further truncations by this model are not logged)`,
      );
    }
    return tok.truncate(ids);
  };

  const embedBatch = async (texts: string[], options: EmbedBatchOptions = {}): Promise<Float32Array[]> => {
    if (!Array.isArray(texts)) throw new AppError('invalid_input', 'embedBatch: texts must be an array of strings');
    texts.forEach((t, i) => assertText(t, `embedBatch[${i}]`));
    const batchSize = Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE);
    if (!(batchSize >= 1))
      throw new AppError(
        'invalid_input',
        `embedBatch: batchSize must be a number >= 1 (got ${String(options.batchSize)})`,
      );
    const { signal } = options;
    signal?.throwIfAborted();
    const engine = await getBackend();
    const rows = new Array<number[]>(texts.length);
    const out = new Array<Float32Array>(texts.length);
    const perCall = (padTo: number): number =>
      Math.max(1, Math.min(batchSize, Math.floor((engine.maxBatchTokens ?? Infinity) / padTo)));
    // Calls are planned while the texts are tokenised and handed to the backend's lanes as soon as they are
    // full, so inference starts before the last text is tokenised. Rows that pad to the same length share calls
    // (length-sorted batching: little padding); a row's vector depends only on its own padded length.
    const queue: { padTo: number; members: number[] }[] = [];
    const waiting: (() => void)[] = [];
    let planned = false;
    const enqueue = (padTo: number, members: number[]): void => {
      queue.push({ padTo, members });
      waiting.shift()?.();
    };
    let done = 0;
    options.onProgress?.(0, texts.length);
    const lane = async (): Promise<void> => {
      for (;;) {
        const step = queue.shift();
        if (!step) {
          if (planned) return;
          await new Promise<void>((resolve) => waiting.push(resolve));
          continue;
        }
        signal?.throwIfAborted();
        const flat = await engine.run(
          step.members.map((i) => rows[i] as number[]),
          step.padTo,
        );
        step.members.forEach((i, r) => {
          out[i] = flat.slice(r * engine.dimension, (r + 1) * engine.dimension);
        });
        done += step.members.length;
        options.onProgress?.(done, texts.length);
      }
    };
    const lanes = Promise.all(Array.from({ length: Math.max(1, engine.parallelism ?? 1) }, lane));
    lanes.catch(() => undefined); // awaited below; this only keeps an early failure from being reported unhandled
    const buckets = new Map<number, number[]>();
    try {
      for (const [i, text] of texts.entries()) {
        const ids = (rows[i] = prepare(text, i));
        const pad = engine.padLength(ids.length);
        if (pad === undefined) enqueue(ids.length, [i]);
        else {
          const bucket = buckets.get(pad) ?? [];
          bucket.push(i);
          buckets.set(pad, bucket);
          if (bucket.length >= perCall(pad)) {
            buckets.delete(pad);
            enqueue(pad, bucket);
          }
        }
        // Let waiting lanes hand their calls to the backend (its workers compute while tokenising goes on).
        if (i % 8 === 7) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          signal?.throwIfAborted();
        }
      }
      for (const [pad, members] of [...buckets.entries()].sort((a, b) => a[0] - b[0])) enqueue(pad, members);
    } finally {
      planned = true;
      for (const wake of waiting.splice(0)) wake();
    }
    await lanes;
    signal?.throwIfAborted();
    return out;
  };

  return {
    modelId: meta.modelId,
    dimension: tok.dimension,
    maxTokens: tok.maxTokens,
    fingerprint: meta.fingerprint,
    // One text (a query): the row embedBatch would make of it — the same ids, the same padded length, so the same
    // vector — without the batching plan's queue and lanes; recent queries come from the cache.
    embed: async (text: string) => {
      assertText(text, 'embed');
      const kept = closed ? undefined : queries.get(text);
      if (kept) return kept;
      const engine = await getBackend();
      const ids = prepare(text, 0);
      const flat = await engine.run([ids], engine.padLength(ids.length) ?? ids.length);
      const vector = flat.length === engine.dimension ? flat : flat.slice(0, engine.dimension);
      queries.set(text, vector);
      return vector;
    },
    embedBatch,
    countTokens: (text: string) => tok.tokenize(tokenisablePrefix(text, tok.maxTokens)).length,
    close: async () => {
      closed = true;
      queries.clear();
      const b = backend;
      backend = undefined;
      if (b) await (await b.catch(() => undefined))?.close();
    },
  };
};
