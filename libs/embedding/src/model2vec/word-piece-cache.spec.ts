// SPDX-License-Identifier: AGPL-3.0-or-later
// The WordPiece fast path (wordPieceFastPath, bertNormalize) must give the ids the library's own tokenizer gives, and
// must actually cache words: checked on a small real WordPiece tokenizer.json (libs/testing's writer) and, for the
// normaliser, on generated text of every character class against the library's own BertNormalizer.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { wordPieceTokenizerJson } from '@lectern/testing';
import { bertNormalize, loadModel2VecTokenizer, wordPieceFastPath, WORD_PIECE_CACHE_MAX } from './model2vec.backend.js';

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
  'the [CLS] cat [SEP]',
  '[MASK]',
  'the [cls] cat [UNK] dog',
  'ﬁne ｔｈｅ Ⅻ ǅ İstanbul ß',
  'a\u0000b\uFFFDc\u200Bd\u00ADe\u000Bf\u001Fg\u0085h\uFEFFi\u2028j\u3000k',
  'emoji 😀 the\uD800cat \uDC00 \u{F0000}x',
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
    const model = (tokenizer as unknown as { model: { _call: (w: string[]) => string[] } }).model;
    const original = model._call.bind(model);
    const asked: string[] = [];
    model._call = (words: string[]) => {
      asked.push(...words);
      return original(words);
    };
    const fast = wordPieceFastPath(tokenizer, JSON.parse(json) as object);
    if (!fast) throw new Error('no fast path for a BERT WordPiece tokenizer');
    const ids = (t: string) => fast(t);
    expect(ids('the cat the cats')).toEqual(plain.encode('the cat the cats', { add_special_tokens: false }).ids);
    expect(ids('cats the hypertension')).toEqual(
      plain.encode('cats the hypertension', { add_special_tokens: false }).ids,
    );
    expect(asked).toEqual(['the', 'cat', 'cats', 'hypertension']);
    expect(ids('the [CLS]')).toBeUndefined(); // an added token: the library's path

    asked.length = 0;
    const many = Array.from({ length: WORD_PIECE_CACHE_MAX + 10 }, (_, i) => `w${i}`).join(' ');
    fast(many);
    expect(asked).toHaveLength(WORD_PIECE_CACHE_MAX + 10);
    asked.length = 0;
    ids('the'); // evicted when the cache started again: split once more
    expect(asked).toEqual(['the']);
  });

  it("normalises as the library's BertNormalizer, for every option, on text of every character class", () => {
    // code points from every class clean_text, the CJK split, lowercasing and accent stripping treat apart
    const pool = [
      ...'aZ09 .,-[]#\t\n\r\u000B\u000C\u001C\u0085\u00A0\u1680\u2000\u2028\u2029\u202F\u3000\uFEFF',
      ...'\u0000\uFFFD\u00AD\u200B\u200D\u2060\uE000\uF8FF\u0301\u0308éÉçÅǅǈﬁİıßẞΣς',
      ...'中文字\u3400\u4DBF\u9FFF\uF900\uFAFF\u3040\uAC00',
      '\uD800',
      '\uDFFF',
      '😀',
      '\u{20000}',
      '\u{F0000}',
      '\u{E0001}',
    ];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const texts = Array.from({ length: 3000 }, () =>
      Array.from({ length: 1 + next(24) }, () => pool[next(pool.length)]).join(''),
    );
    for (const options of [
      { clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
      { clean_text: true, handle_chinese_chars: true, strip_accents: false, lowercase: true },
      { clean_text: false, handle_chinese_chars: false, strip_accents: true, lowercase: false },
      { clean_text: true, handle_chinese_chars: false, strip_accents: null, lowercase: false },
    ]) {
      const cfg = { type: 'BertNormalizer' as const, ...options };
      const lib = (
        new Tokenizer({ ...(JSON.parse(json) as object), normalizer: cfg }, {}) as unknown as {
          normalizer: (t: string) => string;
        }
      ).normalizer;
      for (const text of texts) expect([text, bertNormalize(cfg, text)]).toEqual([text, lib(text)]);
    }
    const cached = loadModel2VecTokenizer(dir);
    return cached.then((tk) => {
      for (const text of texts) expect([text, tk.encode(text)]).toEqual([text, plainIds(text)]);
    });
  });
});
