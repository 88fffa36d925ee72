// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';

/** The model's own WordPiece tokenizer (tokenizer.json + tokenizer_config.json), via @huggingface/tokenizers. */
export interface WordPieceTokenizer {
  /** Ids with [CLS] ... [SEP], not truncated. */
  encode(text: string): number[];
  /** Keeps the first `max - 1` ids and the final [SEP]. */
  truncate(ids: number[], max: number): number[];
}

export const loadWordPieceTokenizer = async (dir: string): Promise<WordPieceTokenizer> => {
  const [json, config] = await Promise.all([
    readFile(join(dir, 'tokenizer.json'), 'utf8').then((s) => JSON.parse(s) as object),
    readFile(join(dir, 'tokenizer_config.json'), 'utf8').then((s) => JSON.parse(s) as object),
  ]);
  const tokenizer = new Tokenizer(json, config);
  return {
    encode: (text) => tokenizer.encode(text).ids,
    truncate: (ids, max) => (ids.length <= max ? ids : [...ids.slice(0, max - 1), ids[ids.length - 1] as number]),
  };
};
