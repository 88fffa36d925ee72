// SPDX-License-Identifier: AGPL-3.0-or-later
// The plain tier's generated test model (libs/testing test-model-files.mjs) is served by the real Model2Vec loader under
// potion-base-2M's registry entry: these checks fail if the registry's shape or the loader's checks change under it.
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_MODEL_DIMENSION, TEST_MODEL_ID, testModelDir, testModelEnv, withTestModel } from '@lectern/testing';
import { POTION_MODEL_ID, findModel } from './model-registry.js';
import { resolveEmbedder } from './resolve-embedder.js';
import type { Embedder } from './embedder.js';

const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((s, v, i) => s + v * (b[i] as number), 0);

describe('the generated test model (plain tier)', () => {
  let cacheDir: string;
  let embedder: Embedder;
  const warnings: string[] = [];
  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'lectern-test-model-'));
    const env = testModelEnv();
    embedder = await resolveEmbedder({
      model: env.EMBEDDING_MODEL,
      modelDir: env.EMBEDDING_MODEL_DIR,
      cacheDir,
      log: { info: () => undefined, warn: (_fields: unknown, msg: string) => warnings.push(msg) },
    });
  });
  afterAll(async () => {
    await embedder?.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('has the shape of the registry entry it is served under', () => {
    const potion = findModel(POTION_MODEL_ID);
    expect(TEST_MODEL_ID).toBe(POTION_MODEL_ID);
    expect(potion?.dimension).toBe(TEST_MODEL_DIMENSION);
    expect(embedder.modelId).toBe(POTION_MODEL_ID);
    expect(embedder.dimension).toBe(TEST_MODEL_DIMENSION);
  });

  it('is not taken for the published model: a warning, and a fingerprint revision of its own', () => {
    expect(warnings.join('\n')).toMatch(/not the accepted potion-base-2M files/);
    expect(embedder.fingerprint).toMatchObject({ model_id: POTION_MODEL_ID, dimension: 64, normalized: true });
    expect(embedder.fingerprint.revision).toMatch(/^sha256:[0-9a-f]{16}$/);
  });

  it('gives normalised vectors, the same for the same text, closer for texts sharing words', async () => {
    const [a, b, c, again] = await embedder.embedBatch([
      'The planning officer reviewed the transport assessment for the new school.',
      'A transport assessment for the school was reviewed by the planning officer.',
      'Quarterly revenue of the brewery grew with exports to Norway.',
      'The planning officer reviewed the transport assessment for the new school.',
    ]);
    for (const v of [a, b, c]) expect(cosine(v!, v!)).toBeCloseTo(1, 5);
    expect([...again!]).toEqual([...a!]);
    expect(cosine(a!, b!)).toBeGreaterThan(cosine(a!, c!) + 0.2);
  });

  it('tokenises ordinary text without unknown pieces (every printable ASCII character is in the vocabulary)', () => {
    expect(embedder.countTokens('Ref. 24/01234/FUL — £1,250; e-mail: x@y.org')).toBeGreaterThan(10);
  });

  it('is generated once: the same directory, and the same files, on every call', () => {
    const dir = testModelDir();
    expect(testModelDir()).toBe(dir);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ model_type: 'model2vec', hidden_dim: TEST_MODEL_DIMENSION, normalize: true });
  });
});

describe('withTestModel (a whole spec file on the test model)', () => {
  const before = process.env['EMBEDDING_MODEL'];
  withTestModel();
  it('sets EMBEDDING_MODEL and EMBEDDING_MODEL_DIR for the services the file starts', () => {
    expect(process.env['EMBEDDING_MODEL']).toBe(TEST_MODEL_ID);
    expect(process.env['EMBEDDING_MODEL_DIR']).toBe(testModelDir());
    expect(before).not.toBe(TEST_MODEL_ID);
  });
});
