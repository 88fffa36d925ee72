// SPDX-License-Identifier: AGPL-3.0-or-later
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedModelDir } from '@lectern/testing';
import type { EncoderBackend } from '../embedder.js';
import { makeMiniLmFixture, type MiniLmFixture } from '../test-model/minilm-fixture.js';
import { startOnnxBackend } from './minilm.backend.js';
import { loadWordPieceTokenizer, type WordPieceTokenizer } from './wordpiece-tokenizer.js';

describe('MiniLM WordPiece tokenizer and ONNX backend', () => {
  let tokenizer: WordPieceTokenizer;
  let fixture: MiniLmFixture;
  let backend: EncoderBackend;

  beforeAll(async () => {
    tokenizer = await loadWordPieceTokenizer(sharedModelDir());
    fixture = await makeMiniLmFixture(sharedModelDir());
    backend = await startOnnxBackend({
      modelPath: join(fixture.dir, 'onnx', 'model.onnx'),
      tokenizer,
      dimension: 384,
      maxTokens: 256,
      threads: 1,
      workers: 1,
      quantized: false,
    });
  });
  afterAll(async () => {
    await backend?.close();
    if (fixture) await rm(fixture.dir, { recursive: true, force: true });
  });

  it('tokenises the reference sentence to the published ids', () => {
    expect(tokenizer.encode('This is an example sentence')).toEqual([101, 2023, 2003, 2019, 2742, 6251, 102]);
  });

  it('truncates to 256 ids keeping [CLS] first and [SEP] last', () => {
    const ids = tokenizer.truncate(tokenizer.encode('word '.repeat(400)), 256);
    expect(ids).toHaveLength(256);
    expect(ids[0]).toBe(101);
    expect(ids[255]).toBe(102);
  });

  it('pools only real tokens: a row padded to 48 beside a longer row matches the unpadded row', async () => {
    const ids = tokenizer.encode('This is an example sentence');
    const longer = tokenizer.encode(
      'A much longer sentence, with many more word pieces than the first one has, to force padding.',
    );
    const alone = await backend.run([ids], ids.length);
    const padded = (await backend.run([longer, ids], 48)).subarray(384, 768);
    let diff = 0;
    for (let i = 0; i < 384; i++) diff = Math.max(diff, Math.abs((alone[i] as number) - (padded[i] as number)));
    expect(diff).toBeLessThan(1e-6);
    // And the longer row is a different vector (the comparison above is not between constants).
    expect(
      Math.abs((alone[0] as number) - ((await backend.run([longer], longer.length))[0] as number)),
    ).toBeGreaterThan(1e-4);
    expect(backend.padLength(7)).toBe(16);
    expect(backend.padLength(250)).toBe(256);
  });
});
