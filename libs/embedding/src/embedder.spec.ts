// SPDX-License-Identifier: AGPL-3.0-or-later
import { createEmbedder, type EncoderBackend } from './embedder.js';

/** A backend that records the calls it gets: the batching plan is the unit under test, not the model. */
const recordingBackend = (maxBatchTokens?: number) => {
  const calls: { rows: number; padTo: number; tokenizedBefore: number }[] = [];
  let tokenized = 0;
  /** The calls in a canonical order (lanes may issue them in any order). */
  const sorted = () =>
    [...calls].map(({ rows, padTo }) => ({ rows, padTo })).sort((a, b) => a.padTo - b.padTo || b.rows - a.rows);
  const backend: EncoderBackend = {
    dimension: 2,
    maxTokens: 256,
    ...(maxBatchTokens === undefined ? {} : { maxBatchTokens }),
    // One "token" per character, padded to multiples of 16 like the ONNX backend.
    tokenize: (text) => {
      tokenized += 1;
      return Array.from(text, (c) => c.charCodeAt(0));
    },
    truncate: (ids) => ids.slice(0, 256),
    padLength: (length) => Math.ceil(length / 16) * 16,
    run: async (rows, padTo) => {
      calls.push({ rows: rows.length, padTo, tokenizedBefore: tokenized });
      return new Float32Array(rows.flatMap((r) => [r.length, 1]));
    },
    close: async () => undefined,
  };
  const embedder = createEmbedder({
    modelId: 'recording',
    fingerprint: { model_id: 'recording', revision: 'sha256:0', dimension: 2, normalized: true },
    tokenizeOnly: backend,
    start: async () => backend,
  });
  return { embedder, calls, sorted };
};

describe('Embedder batching plan (createEmbedder)', () => {
  it('splits a batch into calls of at most maxBatchTokens tokens, each row still in its own length bucket', async () => {
    const { embedder, sorted } = recordingBackend(256);
    const texts = [
      ...Array.from({ length: 5 }, () => 'x'.repeat(100)),
      ...Array.from({ length: 20 }, () => 'y'.repeat(10)),
    ];
    const out = await embedder.embedBatch(texts, { batchSize: 32 });
    // 10-char rows pad to 16: 16 rows per call; 100-char rows pad to 112: 2 rows per call.
    expect(sorted()).toEqual([
      { rows: 16, padTo: 16 },
      { rows: 4, padTo: 16 },
      { rows: 2, padTo: 112 },
      { rows: 2, padTo: 112 },
      { rows: 1, padTo: 112 },
    ]);
    expect(out.map((v) => v[0])).toEqual(texts.map((t) => t.length));
  });

  it('gives a row longer than the budget a call of its own, and keeps batchSize as the upper bound', async () => {
    const { embedder, sorted } = recordingBackend(64);
    await embedder.embedBatch(['z'.repeat(200), 'w'.repeat(3), 'v'.repeat(3), 'u'.repeat(3)], { batchSize: 2 });
    expect(sorted()).toEqual([
      { rows: 2, padTo: 16 },
      { rows: 1, padTo: 16 },
      { rows: 1, padTo: 208 },
    ]);
  });

  it('without a token budget, runs batchSize rows per call', async () => {
    const { embedder, sorted } = recordingBackend();
    await embedder.embedBatch(Array.from({ length: 40 }, () => 'q'.repeat(200)));
    expect(sorted().map((c) => c.rows)).toEqual([32, 8]);
  });

  it('starts inference before the last text is tokenised, and still returns every vector in input order', async () => {
    const { embedder, calls } = recordingBackend(256);
    const texts = Array.from({ length: 64 }, (_, i) => 'r'.repeat(200 + (i % 3)));
    const out = await embedder.embedBatch(texts);
    expect(out.map((v) => v[0])).toEqual(texts.map((t) => t.length));
    expect(calls).toHaveLength(64);
    expect(calls[0]?.tokenizedBefore).toBeLessThan(64);
  });

  it('rejects a batchSize that is not a number >= 1', async () => {
    const { embedder } = recordingBackend();
    await expect(embedder.embedBatch(['a'], { batchSize: Number.NaN })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(embedder.embedBatch(['a'], { batchSize: 0 })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});

describe('Embedder cancellation (EmbedBatchOptions.signal)', () => {
  it('stops after the batch in flight when the signal aborts midway, and rejects with its reason', async () => {
    const { embedder, calls } = recordingBackend();
    const controller = new AbortController();
    const reason = new Error('deadline reached');
    const texts = Array.from({ length: 64 }, (_, i) => `text number ${i}`);
    const embedding = embedder.embedBatch(texts, {
      batchSize: 4,
      // The first finished call aborts: 16 calls were planned, the rest must never reach the backend.
      onProgress: (done) => {
        if (done > 0) controller.abort(reason);
      },
      signal: controller.signal,
    });
    await expect(embedding).rejects.toBe(reason);
    expect(calls).toHaveLength(1);
  });

  it('does not start on an aborted signal', async () => {
    const { embedder, calls } = recordingBackend();
    const reason = new Error('client left');
    await expect(embedder.embedBatch(['a', 'b'], { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(calls).toHaveLength(0);
  });
});
