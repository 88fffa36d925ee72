// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledModelDir } from '../resolve-embedder.js';
import { UseTokenizer, type Vocabulary } from './use-tokenizer.js';

describe('UseTokenizer (SentencePiece unigram, USE lite vocabulary)', () => {
  const tokenizer = new UseTokenizer(
    JSON.parse(readFileSync(join(bundledModelDir(), 'vocab.json'), 'utf8')) as Vocabulary,
  );

  // Expected ids produced by the TensorFlow.js reference tokenizer on the same vocabulary.
  it.each([
    ['This is an example sentence', [180, 18, 58, 768, 2682]],
    ['a', [11]],
    ['  multiple   spaces  ', [30, 30, 2338, 30, 30, 1016, 7, 30, 30]],
    ['unknown ✈✈✈ chars', [6112, 30, 0, 3692, 7]],
  ])('encodes %j as the reference does', (text, ids) => {
    expect(tokenizer.encode(text)).toEqual(ids);
  });
});
