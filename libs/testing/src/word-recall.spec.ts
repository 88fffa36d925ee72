import { wordRecall } from './word-recall.js';

describe('wordRecall', () => {
  it('counts reference words found, with multiplicity, ignoring case, punctuation and order', () => {
    expect(wordRecall('the THE cat', 'The cat sat on the mat.')).toBeCloseTo(3 / 6);
    expect(wordRecall('mat the on sat cat the', 'The cat sat on the mat.')).toBe(1);
    expect(wordRecall('', 'The cat')).toBe(0);
    expect(wordRecall('anything', '')).toBe(0);
  });
});
