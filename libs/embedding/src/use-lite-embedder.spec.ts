// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from './embedder.js';
import { resolveEmbedder } from './resolve-embedder.js';
import { dot } from './vector-math.js';

const bits = (v: Float32Array): string => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');

// Pairs written for this test: each sentence and its paraphrase, on unrelated topics.
const PAIRS: [string, string][] = [
  ['A man is playing a guitar on stage.', 'Someone performs music with a guitar in front of an audience.'],
  [
    'The central bank raised interest rates again.',
    'Borrowing costs went up after another rate hike by the central bank.',
  ],
  ['How do I reset my password?', 'I forgot my password and need to change it.'],
  ['The cat is sleeping on the sofa.', 'A kitten naps on the couch.'],
  ['Heavy rain caused flooding in the city.', 'The town was flooded after a big storm.'],
  ['The patient was given antibiotics for the infection.', 'Doctors treated the infection with antibiotic drugs.'],
];

describe('Embedder universal-sentence-encoder-lite (bundled, TensorFlow.js wasm)', () => {
  let embedder: Embedder;
  let cacheDir: string;
  const warnings: Record<string, unknown>[] = [];
  const log = { info: () => undefined, warn: (obj: Record<string, unknown>) => warnings.push(obj) } as never;

  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'lectern-emb-'));
    embedder = await resolveEmbedder({ model: 'universal-sentence-encoder-lite', cacheDir, log });
  });
  afterAll(async () => {
    await embedder?.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('is the 512-d bundled model with a fingerprint pinned to the shipped weights', () => {
    expect(embedder.modelId).toBe('universal-sentence-encoder-lite');
    expect(embedder.dimension).toBe(512);
    expect(embedder.maxTokens).toBe(128);
    expect(embedder.fingerprint).toMatchObject({
      model_id: 'universal-sentence-encoder-lite',
      dimension: 512,
      normalized: true,
    });
    expect(embedder.fingerprint.revision).toMatch(/^sha256:[0-9a-f]{16}$/);
  });

  it('counts SentencePiece tokens as the reference tokenizer does', () => {
    // Ids from the TensorFlow.js reference tokenizer: ▁This ▁is ▁an ▁example ▁sentence.
    expect(embedder.countTokens('This is an example sentence')).toBe(5);
    expect(embedder.countTokens('word '.repeat(200))).toBeGreaterThan(128);
  });

  it('ranks each paraphrase above every unrelated sentence', async () => {
    const left = await embedder.embedBatch(PAIRS.map((p) => p[0]));
    const right = await embedder.embedBatch(PAIRS.map((p) => p[1]));
    left.forEach((q, i) => {
      const scores = right.map((r) => dot(q, r));
      const best = scores.indexOf(Math.max(...scores));
      expect({ sentence: PAIRS[i]?.[0], best: PAIRS[best]?.[1] }).toEqual({
        sentence: PAIRS[i]?.[0],
        best: PAIRS[i]?.[1],
      });
    });
  });

  it('returns unit vectors, bit-identical alone and in any batch', async () => {
    const text = 'Identical input must give identical output.';
    const alone = await embedder.embed(text);
    const batch = await embedder.embedBatch(
      ['Short.', text, 'A considerably longer sentence than the one we care about here.'],
      {
        batchSize: 2,
      },
    );
    expect(Math.sqrt(dot(alone, alone))).toBeCloseTo(1, 5);
    expect(bits(batch[1] as Float32Array)).toBe(bits(alone));
    expect(bits(await embedder.embed(text))).toBe(bits(alone));
    expect(bits(batch[0] as Float32Array)).not.toBe(bits(alone));
  });

  it('gives the same vectors with one worker thread as with one per core', async () => {
    const texts = PAIRS.flat();
    const single = await resolveEmbedder({ model: 'universal-sentence-encoder-lite', cacheDir, threads: 1 });
    try {
      const a = await single.embedBatch(texts, { batchSize: 1 });
      const b = await embedder.embedBatch(texts, { batchSize: 1 });
      expect(b.map(bits)).toEqual(a.map(bits));
    } finally {
      await single.close();
    }
  });

  it('truncates at 128 tokens with a warning', async () => {
    warnings.length = 0;
    const long = 'alpha beta gamma delta '.repeat(60);
    const v = await embedder.embed(long);
    expect(v.length).toBe(512);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ model: 'universal-sentence-encoder-lite', max_tokens: 128 });
  });

  it('rejects whitespace-only input', async () => {
    await expect(embedder.embed('   ')).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
