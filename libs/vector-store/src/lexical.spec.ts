// SPDX-License-Identifier: AGPL-3.0-or-later
import { codeTokens, lexicalFields, secondPass, type KeywordCandidate } from './lexical.js';
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

describe('secondPass (the keyword side second scoring pass of both adapters)', () => {
  const cands: KeywordCandidate<string>[] = [
    { id: 'a-caption', score: 8, length: 40, documentId: 'A' },
    { id: 'b-para', score: 6, length: 700, documentId: 'B', phrase: 1 },
    { id: 'a-para', score: 5, length: 760, documentId: 'A' },
    { id: 'c-para', score: 4.8, length: 650, documentId: 'C', header: 'Bridge Study 2024', phrase: 0 },
    { id: 'b-pair', score: 1, length: 500, documentId: 'B', phrase: 3 },
  ];
  const ctx = { query: 'river bridge', meanLength: 500, idf: () => 2, limit: 4 };

  it('damps short chunks inside a document, adds the phrase and header credits, orders by the new score and cuts', () => {
    const out = secondPass(cands, { ...ctx, damping: 0.25, phraseWeight: 0.5, headerWeight: 0.25 });
    // A keeps its best score (8) on its paragraph; the caption takes A's second score (5). B's paragraph gains
    // 0.5 x its phrase score, C 0.25 x idf("bridg") for its header.
    // The pool's fifth candidate is cut before the phrase credit (as the first pass's pool is).
    expect(out).toEqual([
      { id: 'a-para', score: 8 },
      { id: 'b-para', score: 6.5 },
      { id: 'c-para', score: 5.3 },
      { id: 'a-caption', score: 5 },
    ]);
  });

  it('adds document evidence: the best score among the other candidates of the same document, times the weight', () => {
    // Round 10 (spec 004's query_hybrid): a lone chunk of another document (x, 10) no longer leads two chunks of a
    // document that matches in both (d1 9.8, d2 6); a candidate without a document gains nothing.
    const lone: KeywordCandidate<string>[] = [
      { id: 'x', score: 10, length: 500, documentId: 'X' },
      { id: 'd1', score: 9.8, length: 500, documentId: 'D' },
      { id: 'd2', score: 6, length: 500, documentId: 'D' },
      { id: 'n', score: 5, length: 500 },
    ];
    const off = { ...ctx, damping: 0, phraseWeight: 0, headerWeight: 0 };
    expect(secondPass(lone, off).map((r) => r.id)).toEqual(['x', 'd1', 'd2', 'n']);
    const out = secondPass(lone, { ...off, documentEvidence: 0.05 });
    expect(out.map((r) => r.id)).toEqual(['d1', 'x', 'd2', 'n']);
    expect(out[0]?.score).toBeCloseTo(9.8 + 0.05 * 6, 10);
    expect(out[2]?.score).toBeCloseTo(6 + 0.05 * 9.8, 10);
    expect(out[3]?.score).toBe(5);
    // Order = score.
    expect(out.map((r) => r.score)).toEqual([...out.map((r) => r.score)].sort((a, b) => b - a));
  });

  it('with a span, takes no evidence from a chunk within that many positions (an overlapping neighbour)', () => {
    // Round 11 (spec 000's overlapping chunks): d1 and its neighbour d2 repeat the same words; x's document matches
    // in two places far apart (x at 0, x9 at 9). With any other chunk counting, d1 leads on its neighbour's score;
    // with span 1 the neighbour is no evidence and x leads on its far chunk's.
    const near: KeywordCandidate<string>[] = [
      { id: 'd1', score: 10, length: 500, documentId: 'D', position: 4 },
      { id: 'x', score: 9.9, length: 500, documentId: 'X', position: 0 },
      { id: 'd2', score: 9, length: 500, documentId: 'D', position: 5 },
      { id: 'x9', score: 5, length: 500, documentId: 'X', position: 9 },
      { id: 'y', score: 4, length: 500, documentId: 'Y' },
    ];
    const off = { ...ctx, limit: 5, damping: 0, phraseWeight: 0, headerWeight: 0, documentEvidence: 0.05 };
    expect(secondPass(near, off).map((r) => r.id)).toEqual(['d1', 'x', 'd2', 'x9', 'y']);
    const out = secondPass(near, { ...off, documentEvidenceSpan: 1 });
    expect(out.map((r) => r.id)).toEqual(['x', 'd1', 'd2', 'x9', 'y']);
    expect(out[0]?.score).toBeCloseTo(9.9 + 0.05 * 5, 10);
    expect(out[1]?.score).toBe(10);
    expect(out[2]?.score).toBe(9);
    expect(out[3]?.score).toBeCloseTo(5 + 0.05 * 9.9, 10);
    // A candidate without a position is apart from every other chunk of its document.
    const unknown = near.map((c) => (c.id === 'd2' ? { ...c, position: undefined } : c));
    expect(secondPass(unknown, { ...off, documentEvidenceSpan: 1 })[0]).toEqual({ id: 'd1', score: 10 + 0.05 * 9 });
    expect(out.map((r) => r.score)).toEqual([...out.map((r) => r.score)].sort((a, b) => b - a));
  });

  it('leaves the candidates as they are with every step off', () => {
    expect(secondPass(cands, { ...ctx, damping: 0, phraseWeight: 0, headerWeight: 0 })).toEqual(
      cands.slice(0, 4).map(({ id, score }) => ({ id, score })),
    );
  });
});
