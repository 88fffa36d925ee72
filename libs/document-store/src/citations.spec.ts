// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appErrorCode } from '@lectern/testing';
import {
  citationMeta,
  doisIn,
  mainTitle,
  matchCitation,
  normaliseDoi,
  normaliseTitle,
  readCslJson,
  titleSimilarity,
  type CslItem,
} from './citations.js';

const TITLES = [
  'Digestive enzymes at low pH',
  'Protected cycle lanes in dense cities',
  'Flood risk management on the river plain',
  'Air quality near urban ring roads',
  'The ecology of chalk grassland',
  'Heritage significance of parish churches',
  'Affordable housing delivery in market towns',
  'Sustainable drainage systems: a design guide',
  'Biodiversity net gain in practice',
  'Noise from wind turbines and its assessment',
  'Daylight and sunlight in residential layouts',
  'Transport assessments for new settlements',
  'Green belt review methodology',
  'Retail impact tests for town centres',
  'Employment land demand forecasting',
  'Coastal change management areas',
  'Minerals safeguarding and extraction',
  'Contaminated land remediation standards',
  'Design codes for suburban intensification',
  'Open space standards and playing pitches',
];

const items: CslItem[] = TITLES.map((title, i) => ({
  id: `ref${i}`,
  ...(i % 2 === 0 ? { 'citation-key': `key${i}` } : {}),
  title,
  author: [{ family: `Author${i}`, given: 'A.' }],
  issued: { 'date-parts': [[2000 + i]] },
  ...(i < 10 ? { DOI: `10.5555/test.${i}` } : {}),
}));

const evidence = (over: Partial<Parameters<typeof matchCitation>[1]>) => ({
  metadata: {},
  title: null,
  firstPages: '',
  headings: [],
  filename: 'x.pdf',
  ...over,
});

describe('CSL-JSON citation matching (FR-006/FR-007, SC-002)', () => {
  it('matches by DOI first (from metadata or the first pages), even when the title says otherwise', () => {
    const m = matchCitation(
      items,
      evidence({ title: TITLES[5], firstPages: 'Journal of Tests. https://doi.org/10.5555/TEST.3.' }),
      0.85,
    );
    expect(m).toMatchObject({
      matched: true,
      by: 'doi',
      citation: { citekey: 'ref3', year: 2003, doi: '10.5555/test.3' },
    });
    const meta = matchCitation(items, evidence({ metadata: { doi: 'doi:10.5555/test.4' } }), 0.85);
    expect(meta).toMatchObject({ matched: true, by: 'doi', citation: { citekey: 'key4' } });
  });

  it('falls back to the normalised title with the fuzzy threshold', () => {
    const m = matchCitation(
      items,
      evidence({ headings: ['SUSTAINABLE DRAINAGE SYSTEMS - A Design Guide (2nd ed.)'] }),
      0.8,
    );
    expect(m).toMatchObject({ matched: true, by: 'title', citation: { citekey: 'ref7' } });
    const strict = matchCitation(
      items,
      evidence({ headings: ['SUSTAINABLE DRAINAGE SYSTEMS - A Design Guide (2nd ed.)'] }),
      0.99,
    );
    expect(strict.matched).toBe(false);
  });

  it('matches >= 95% of documents that have an entry, from titles as converters find them', () => {
    // Each document shows its title the way real PDFs do: in upper case, with a subtitle, from the file name, printed on page 1.
    const docs = TITLES.map((t, i) =>
      i % 4 === 0
        ? evidence({ title: t.toUpperCase() })
        : i % 4 === 1
          ? evidence({ headings: [`${t}: interim report`] })
          : i % 4 === 2
            ? evidence({ filename: `${t.replace(/[^A-Za-z ]/g, '').replace(/ /g, '_')}.pdf` })
            : evidence({ firstPages: `Council report 12. ${t}. Prepared for the planning committee.` }),
    );
    const matched = docs.map((d, i) => {
      const m = matchCitation(items, d, 0.85);
      return m.matched && m.item.id === `ref${i}`;
    });
    expect(matched.filter(Boolean).length / docs.length).toBeGreaterThanOrEqual(0.95);
  });

  it('normalises accents, letters NFKD keeps, ligatures, dashes, quotes, & and non-Latin scripts', () => {
    expect(normaliseTitle('Ærø Bridge Study — “Øresund” & Łódź’s ﬁeld trials')).toBe(
      'aero bridge study oresund and lodz s field trials',
    );
    expect(normaliseTitle('Straße – Ελληνικά: Привет')).toBe('strasse ελληνικα привет');
    expect(mainTitle('Householder Design Guide (SPD) – Adoption: Cabinet Report')).toBe('householder design guide spd');
    expect(mainTitle('An Introduction to R: Notes on R')).toBe('an introduction to r');
    expect(mainTitle('Green belt review methodology')).toBeNull();
  });

  it('matches an entry whose title has a subtitle the document does not show, and accented or punctuated variants', () => {
    const refs: CslItem[] = [
      { id: 'sub', title: 'Trees in Towns: A Guide to Urban Forestry Practice' },
      { id: 'acc', title: 'Réseaux cyclables à Montréal & Québec' },
      { id: 'hyp', title: 'Post-Examination Decision Statement for the Willenhall Plan' },
      { id: 'other', title: 'Trees in hedgerows and field margins' },
    ];
    const by = (over: Partial<Parameters<typeof matchCitation>[1]>) => {
      const m = matchCitation(refs, evidence(over), 0.85);
      return m.matched ? m.item.id : null;
    };
    // The miss: the entry carries "Main: Subtitle", the document's title is the main title alone.
    expect(by({ title: 'Trees in Towns', filename: 'trees.pdf' })).toBe('sub');
    expect(by({ title: 'Trees', filename: 'trees.pdf' })).toBeNull();
    expect(by({ headings: ['Trees in Towns Guide'], firstPages: 'TREES IN TOWNS GUIDE\nUrban forestry' })).toBe('sub');
    expect(by({ firstPages: 'Council report\n\nTREES IN TOWNS\n\nA guide to urban\nforestry practice, 2019' })).toBe(
      'sub',
    );
    expect(by({ title: 'Reseaux cyclables a Montreal and Quebec' })).toBe('acc');
    expect(by({ firstPages: 'WILLENHALL PLAN\nPOST- EXAMINATION DECISION STATEMENT FOR THE WILLENHALL PLAN' })).toBe(
      'hyp',
    );
  });

  it('prefers the entry a document is over a shorter one it names in its text', () => {
    const refs: CslItem[] = [
      { id: 'spd', title: 'Hot Food Takeaway Supplementary Planning Document' },
      { id: 'report', title: 'Draft Hot Food Takeaway Supplementary Planning Document: Cabinet Member Report' },
    ];
    const page =
      'Cabinet Member Report\nTitle: Draft Hot Food Takeaway Supplementary Planning Document\nThis SPD provides guidance.';
    const m = matchCitation(refs, evidence({ firstPages: page }), 0.85);
    expect(m.matched && m.item.id).toBe('report');
    const plain = matchCitation(
      refs,
      evidence({ firstPages: 'Hot Food Takeaway Supplementary Planning Document\nAdopted 2019' }),
      0.85,
    );
    expect(plain.matched && plain.item.id).toBe('spd');
  });

  it('leaves an unmatched document unmatched with an actionable hint naming the closest candidates', () => {
    const m = matchCitation(
      items,
      evidence({ title: 'Minutes of the parish meeting', firstPages: 'see 10.9999/none.1' }),
      0.85,
    );
    expect(m.matched).toBe(false);
    if (!m.matched) {
      expect(m.hint).toMatch(/DOI 10\.9999\/none\.1 \(no entry has it\)/);
      expect(m.hint).toMatch(/Closest: /);
      expect(m.hint).toMatch(/lower the fuzzy threshold/);
      expect(m.closest).toHaveLength(3);
    }
  });

  it('stores citekey, title, authors, year, DOI, URL, tags and collections', () => {
    expect(
      citationMeta({
        id: 'x',
        'citation-key': 'smith2020',
        title: 'T',
        author: [{ family: 'Smith', given: 'Ann' }, { literal: 'WHO' }],
        issued: { 'date-parts': [['2020', 3]] },
        DOI: 'https://doi.org/10.1/ABC',
        URL: 'https://example.org/t',
        keyword: 'a, b; a',
        collections: ['Thesis'],
      }),
    ).toEqual({
      citekey: 'smith2020',
      title: 'T',
      authors: ['Smith, Ann', 'WHO'],
      year: 2020,
      doi: '10.1/abc',
      url: 'https://example.org/t',
      tags: ['a', 'b'],
      collections: ['Thesis'],
    });
    expect(normaliseDoi('doi: 10.1000/XYZ.')).toBe('10.1000/xyz');
    expect(doisIn('x 10.1000/a1 and (10.2000/b2)')).toEqual(['10.1000/a1', '10.2000/b2']);
    expect(titleSimilarity('Flood Risk!', 'flood risk')).toBe(1);
    expect(titleSimilarity('abc', 'xyz')).toBe(0);
  });

  it('reads a CSL-JSON export, skipping non-items; an unreadable file is a typed error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-csl-'));
    try {
      writeFileSync(join(dir, 'refs.json'), JSON.stringify([{ id: 1, title: 'A' }, { title: 'no id' }, 'junk']));
      const read = await readCslJson(join(dir, 'refs.json'));
      expect(read.items.map((i) => i.id)).toEqual(['1']);
      expect(read.skipped).toBe(2);
      writeFileSync(join(dir, 'bad.json'), '{not json');
      expect(await appErrorCode(readCslJson(join(dir, 'bad.json')))).toBe('references_unreadable');
      expect(await appErrorCode(readCslJson(join(dir, 'missing.json')))).toBe('references_unreadable');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
