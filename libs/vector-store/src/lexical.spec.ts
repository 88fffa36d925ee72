// SPDX-License-Identifier: AGPL-3.0-or-later
import { codeTokens, lexicalFields } from './lexical.js';
import { ftsQuery } from './embedded/sql-filter.js';

describe('codeTokens', () => {
  it('joins the parts of codes, number ranges and labelled numbers into one token each', () => {
    expect(codeTokens('Fit the MR-J5-60G4 drive; plan period 2021–2041 (see Para 11, Table 3.1).')).toEqual([
      'mrj560g4',
      '20212041',
      '31',
      'period2021',
      'para11',
      'table31',
    ]);
  });
  it('ignores hyphenated words without digits and numbers after stopwords', () => {
    expect(codeTokens('A well-being policy adopted in 2021 for the area')).toEqual([]);
  });
  it('keeps a single-token code (H2) as it is: the text field already holds it', () => {
    expect(codeTokens('Use class H2')).toEqual([]);
  });
});

describe('lexicalFields', () => {
  it('takes the title from the first present title key and the section from the section path', () => {
    expect(
      lexicalFields(
        { source_title: 'Manual for Streets', section_path: ['Chapter 6', 'Street users'], section_heading: 'x' },
        'Widths of 2.0 m',
      ),
    ).toEqual({ title: 'Manual for Streets', section: 'Chapter 6 / Street users', codes: '20 chapter6' });
  });
  it('falls back to the citation title, then to the file name, and to the heading for the section', () => {
    expect(lexicalFields({ citation: { title: 'Local Plan' }, source_file: 'a.pdf' }, '').title).toBe('Local Plan');
    expect(lexicalFields({ source_file: 'cherwell_local-plan.pdf', section_heading: 'Policy SLE 4' }, '')).toEqual({
      title: 'cherwell local plan',
      section: 'Policy SLE 4',
      codes: 'sle4',
    });
    expect(lexicalFields({}, 'plain')).toEqual({ title: '', section: '', codes: '' });
  });
});

describe('ftsQuery', () => {
  it('ORs the content words and the code tokens, each quoted', () => {
    expect(ftsQuery('What does Para 11 say about MR-J5-60G4?')).toBe(
      '"does" OR "para" OR "11" OR "say" OR "mr" OR "j5" OR "60g4" OR "mrj560g4" OR "para11"',
    );
    expect(ftsQuery(' ?! ')).toBeNull();
  });
});
