// SPDX-License-Identifier: AGPL-3.0-or-later
import { queryPhrases, queryTerms } from './query-terms.js';

describe('queryTerms', () => {
  it('keeps content words, lowercased and de-duplicated, in order', () => {
    expect(queryTerms('What is the effect of Vitamin-D on bone density? vitamin')).toEqual([
      'effect',
      'vitamin',
      'd',
      'bone',
      'density',
    ]);
  });
  it('falls back to the stopwords when the query has nothing else, and caps the count', () => {
    expect(queryTerms('The and OF the')).toEqual(['the', 'and', 'of']);
    expect(queryTerms('a1 b2 c3 d4', 2)).toEqual(['a1', 'b2']);
    expect(queryTerms(' ?! ')).toEqual([]);
  });
});

describe('queryPhrases', () => {
  it('pairs adjacent content words, not across stopwords or punctuation, de-duplicated and capped', () => {
    expect(queryPhrases('What is the Air Quality SPD threshold for open space? air quality')).toEqual([
      ['air', 'quality'],
      ['quality', 'spd'],
      ['spd', 'threshold'],
      ['open', 'space'],
    ]);
    expect(queryPhrases('open, space; the of')).toEqual([]);
    expect(queryPhrases('a1 b2 c3 d4', 2)).toEqual([
      ['a1', 'b2'],
      ['b2', 'c3'],
    ]);
  });
});
