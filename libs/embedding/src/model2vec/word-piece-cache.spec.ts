// SPDX-License-Identifier: AGPL-3.0-or-later
// The per-word WordPiece cache (memoiseWordPiece) must give the ids the library's own tokenizer gives, and must
// actually cache: both checked on a small real WordPiece tokenizer.json (libs/testing's writer).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { wordPieceTokenizerJson } from '@lectern/testing';
import { loadModel2VecTokenizer, memoiseWordPiece, WORD_PIECE_CACHE_MAX } from './model2vec.backend.js';

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const PIECES = ['a', 'b', 'c', 'd', 'e', 'h', 'i', 'l', 'n', 'o', 'p', 'r', 's', 't', 'y', '.', ',', '-', '1', '2'];
const VOCAB = [
  ...SPECIALS,
  ...PIECES,
  ...PIECES.map((p) => `##${p}`),
  'the',
  'hyper',
  '##tension',
  'tension',
  'cat',
  '##s',
  'dog',
  'plan',
  '##ning',
  'cafe',
  '中',
];
const json = wordPieceTokenizerJson(VOCAB, SPECIALS.length);
const plain = new Tokenizer(JSON.parse(json) as object, {});
const plainIds = (text: string): number[] => {
  const unk = plain.token_to_id('[UNK]');
  return (plain.encode(text, { add_special_tokens: false }).ids as number[]).filter((id) => id !== unk);
};

// Repeated words, words split into pieces, unknown words ([UNK] dropped), accents, CJK, punctuation, case, a word past
// max_input_chars_per_word, whitespace of every kind, and the same word in different texts.
const TEXTS = [
  'the cat',
  'The CATS, the dogs.',
  'hypertension hypertension hyper-tension',
  'planning planning plan planning',
  'Café cafe CAFÉ',
  '中文 中 the中cat',
  'xyzzy quux the',
  `${'a'.repeat(101)} the ${'a'.repeat(100)}`,
  'tab\tand\nnewline  the\u00a0cat',
  '12 1-2 21.12, hypertensions',
  '',
  '   ',
  'the cat the cat the cat',
];

describe('WordPiece per-word cache (model2vec tokenizer)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lectern-wordpiece-'));
    await writeFile(join(dir, 'tokenizer.json'), json);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('gives the ids of the library tokenizer, text after text, in any order', async () => {
    const cached = await loadModel2VecTokenizer(dir);
    for (const round of [TEXTS, [...TEXTS].reverse(), TEXTS])
      for (const text of round) expect([text, cached.encode(text)]).toEqual([text, plainIds(text)]);
  });

  it('splits each distinct word once, and starts again when full', () => {
    const tokenizer = new Tokenizer(JSON.parse(json) as object, {});
    const model = (tokenizer as unknown as { model: { encode: (w: string[]) => string[] } }).model;
    const original = model.encode.bind(model);
    const asked: string[] = [];
    model.encode = (words: string[]) => {
      asked.push(...words);
      return original(words);
    };
    memoiseWordPiece(tokenizer);
    const ids = (t: string) => tokenizer.encode(t, { add_special_tokens: false }).ids as number[];
    expect(ids('the cat the cats')).toEqual(plain.encode('the cat the cats', { add_special_tokens: false }).ids);
    expect(ids('cats the hypertension')).toEqual(
      plain.encode('cats the hypertension', { add_special_tokens: false }).ids,
    );
    expect(asked).toEqual(['the', 'cat', 'cats', 'hypertension']);

    asked.length = 0;
    const many = Array.from({ length: WORD_PIECE_CACHE_MAX + 10 }, (_, i) => `w${i}`).join(' ');
    tokenizer.encode(many, { add_special_tokens: false });
    expect(asked).toHaveLength(WORD_PIECE_CACHE_MAX + 10);
    asked.length = 0;
    ids('the'); // evicted when the cache started again: split once more
    expect(asked).toEqual(['the']);
  });
});
