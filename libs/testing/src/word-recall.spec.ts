// SPDX-License-Identifier: AGPL-3.0-or-later
import { wordPairRecall, wordRecall } from './word-recall.js';

describe('wordRecall', () => {
  it('counts reference words found, with multiplicity, ignoring case, punctuation and order', () => {
    expect(wordRecall('the THE cat', 'The cat sat on the mat.')).toBeCloseTo(3 / 6);
    expect(wordRecall('mat the on sat cat the', 'The cat sat on the mat.')).toBe(1);
    expect(wordRecall('', 'The cat')).toBe(0);
    expect(wordRecall('anything', '')).toBe(0);
  });
});

describe('wordPairRecall', () => {
  it('counts adjacent reference word pairs found adjacent, so reading order counts', () => {
    expect(wordPairRecall('The cat sat on the mat.', 'the cat sat on the mat')).toBe(1);
    // the same words in another order: full word recall, few pairs
    expect(wordPairRecall('mat the on sat cat the', 'The cat sat on the mat.')).toBe(0);
    // two columns read across: "a b | c d" over "e f | g h" becomes "a b e f c d g h" instead of "a b c d e f g h"
    expect(wordPairRecall('a b e f\nc d g h', 'a b c d e f g h')).toBeCloseTo(4 / 7);
    expect(wordPairRecall('the the', 'the the the')).toBeCloseTo(1 / 2);
    expect(wordPairRecall('anything here', 'one')).toBe(0);
  });
});
