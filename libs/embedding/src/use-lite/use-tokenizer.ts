// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The Universal Sentence Encoder lite tokenizer: SentencePiece unigram segmentation (Viterbi over a trie of the
 * 8k-piece vocabulary shipped beside the weights). Ported from TensorFlow.js models
 * (universal-sentence-encoder/src/tokenizer, Copyright 2019 Google LLC, Apache-2.0) because the maintained package
 * that holds it pins TensorFlow.js 3 (peer-dependency conflict with tfjs 4) and @energetic-ai/embeddings does not
 * export it. Behaviour is kept identical, since the weights were trained with this segmentation.
 */
export type Vocabulary = [string, number][];

const SEPARATOR = '\u2581';
const RESERVED_SYMBOLS = 6;

interface TrieNode {
  children: Map<string, TrieNode>;
  end: boolean;
  /** [symbols, score, vocabulary index] */
  word: [string[], number, number];
}
const node = (symbols: string[]): TrieNode => ({ children: new Map(), end: false, word: [symbols, 0, 0] });

export class UseTokenizer {
  private readonly root = node([]);

  constructor(private readonly vocabulary: Vocabulary) {
    for (let i = RESERVED_SYMBOLS; i < vocabulary.length; i++) {
      const [piece, score] = vocabulary[i] as [string, number];
      let n = this.root;
      const symbols = [...piece];
      symbols.forEach((s, k) => {
        let child = n.children.get(s);
        if (!child) {
          child = node([...n.word[0], s]);
          n.children.set(s, child);
        }
        n = child;
        if (k === symbols.length - 1) {
          n.end = true;
          n.word[1] = score;
          n.word[2] = i;
        }
      });
    }
  }

  private prefixes(symbols: string[], from: number): [string[], number, number][] {
    const out: [string[], number, number][] = [];
    let n = this.root.children.get(symbols[from] as string);
    for (let i = from; i < symbols.length && n; i++) {
      if (n.end) out.push(n.word);
      n = n.children.get(symbols[i + 1] as string);
    }
    if (out.length === 0) out.push([[symbols[from] as string], 0, 0]);
    return out;
  }

  encode(input: string): number[] {
    const normalized = input.normalize('NFKC');
    const symbols = [...(normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized)];
    const lattice: Map<number, { len: number; score: number; index: number }[]>[] = symbols.map(() => new Map());
    lattice.push(new Map());
    const words = new Array<number>(symbols.length + 1).fill(0);
    const best = new Array<number>(symbols.length + 1).fill(0);
    for (let i = 0; i < symbols.length; i++) {
      for (const [key, score, index] of this.prefixes(symbols, i)) {
        const end = lattice[i + key.length] as Map<number, { len: number; score: number; index: number }[]>;
        const list = end.get(i) ?? [];
        list.push({ len: key.length, score, index });
        end.set(i, list);
      }
    }
    for (let endPos = 0; endPos <= symbols.length; endPos++) {
      // The original iterates start positions as object keys, i.e. in ascending numeric order.
      const starts = [...(lattice[endPos] as Map<number, unknown>).keys()].sort((a, b) => a - b);
      for (const start of starts) {
        for (const w of (lattice[endPos] as Map<number, { len: number; score: number; index: number }[]>).get(start) ??
          []) {
          const score = w.score + (best[endPos - w.len] as number);
          if (best[endPos] === 0 || score >= (best[endPos] as number)) {
            best[endPos] = score;
            words[endPos] = w.index;
          }
        }
      }
    }
    const results: number[] = [];
    for (let i = words.length - 1; i > 0; ) {
      const id = words[i] as number;
      results.push(id);
      // As in the original: the piece's UTF-16 length (equal to its symbol count outside astral planes).
      i -= (this.vocabulary[id] as [string, number])[0].length;
    }
    // Consecutive unknown pieces (id 0) collapse into one.
    const merged: number[] = [];
    let previousUnknown = false;
    for (const id of results) {
      if (!(previousUnknown && id === 0)) merged.push(id);
      previousUnknown = id === 0;
    }
    return merged.reverse();
  }
}
