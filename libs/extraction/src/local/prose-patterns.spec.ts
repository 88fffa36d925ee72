// SPDX-License-Identifier: AGPL-3.0-or-later
import { fieldKind } from '../fields/field-kinds.js';
import type { SchemaField } from '../schema-fields.js';
import { proseCandidates, sectionCandidates } from './prose-patterns.js';

const field = (name: string, kind: SchemaField['kind'] = 'scalar'): SchemaField => ({
  path: [name],
  kind,
  hint: kind === 'list' ? [] : '',
});
const values = (f: SchemaField, section: string) =>
  sectionCandidates(f, fieldKind(f), section, 'h3', 0).map((c) => c.value);

// Issue 26, generalisation: a contract's clause headed by the field's name holds its value in a sentence.
describe('values under a heading that names the field', () => {
  it('takes the one date, length of time or "laws of" of the section, with the heading in its evidence', () => {
    const f = field('effective_date');
    const found = sectionCandidates(
      f,
      fieldKind(f),
      '# 2. Commencement\n\nThe engagement begins on 2025-04-01.',
      'h3',
      0,
    );
    expect(found.map((c) => [c.value, c.snippet])).toEqual([
      ['2025-04-01', '2. Commencement\n\nThe engagement begins on 2025-04-01.'],
    ]);
    expect(
      values(field('governing_law'), '# Governing law\n\nThis agreement is subject to the laws of Scotland.'),
    ).toEqual(['Scotland']);
    expect(values(field('term'), '# Term\n\nThe licence lasts thirty-six (36) months.')).toEqual([
      'thirty-six (36) months',
    ]);
  });

  it('takes nothing when the section holds two different values of the kind, or its heading names another field', () => {
    expect(values(field('effective_date'), '# Commencement\n\nSigned 1 May 2025; services begin 1 June 2025.')).toEqual(
      [],
    );
    expect(values(field('effective_date'), '# Payment\n\nInvoices are due on 2025-04-01.')).toEqual([]);
  });

  it('reads numbered party lines, and a term sheet line under its label', () => {
    const parties = field('parties', 'list');
    expect(
      values(
        parties,
        '# 1. Parties\n\n(1) Saffron Retail Group plc (the "Company"); and\n\n(2) Nordic Tools Oy (the "Consultant").',
      ),
    ).toEqual([['Saffron Retail Group plc', 'Nordic Tools Oy']]);
    expect(values(parties, '# Parties\n\nRedwood Analytics Ltd and Orchard Health Trust')).toEqual([
      ['Redwood Analytics Ltd', 'Orchard Health Trust'],
    ]);
    expect(values(field('governing_law'), '# Governing Law\n\nNorthern Ireland')).toEqual(['Northern Ireland']);
  });
});

describe('prose phrases', () => {
  it('reads parties from a sentence the PDF broke after "between"', () => {
    const f = field('contracting_parties', 'list');
    const section =
      '# AGREEMENT\n\nTHIS AGREEMENT is entered into by and between\n\nAltamira Software Ltd (the "Principal") and Pinecrest Media Inc. (the "Distributor").';
    expect(proseCandidates(f, fieldKind(f), section, 'h1', 0).map((c) => c.value)).toEqual([
      ['Altamira Software Ltd', 'Pinecrest Media Inc'],
    ]);
  });
});

// Issue 26, round 3: plain-language contract terms
describe('plain-language contract phrases', () => {
  const prose = (name: string, text: string) => {
    const f = field(name);
    return proseCandidates(f, fieldKind(f), `# Our agreement\n\n${text}`, 'h1', 0).map((c) => c.value);
  };
  it('reads "It starts on … and continues for …" and "The laws of X govern this agreement"', () => {
    const line = 'It starts on 1 March 2026 and continues for 3 years.';
    expect(prose('start_date', line)).toEqual(['1 March 2026']);
    expect(prose('duration', line)).toEqual(['3 years']);
    expect(prose('governing_law', 'The laws of Ireland govern this agreement.')).toEqual(['Ireland']);
    expect(prose('term', 'The engagement begins on 2025-04-01 and lasts twelve (12) months.')).toEqual([
      'twelve (12) months',
    ]);
  });
  it("takes no length of time that is not the agreement's, no law that is not said to govern", () => {
    expect(prose('term', 'The battery lasts 3 years under normal use.')).toEqual([]);
    expect(prose('governing_law', 'The laws of physics are not negotiable.')).toEqual([]);
  });
});

// Issue 26, round 4: a recital the PDF broke over lines, with each party described after its name
describe('recitals broken over lines', () => {
  const recital = [
    'This Supply Agreement (the "Agreement") is made as of the 3rd of',
    '',
    'June 2026 (the "Effective Date") by and between Halden Marine Oy, a Finnish',
    '',
    'limited company ("Halden"), and Brightwater Pumps Ltd, a company registered in',
    '',
    'Scotland ("Brightwater").',
  ].join('\n');
  const prose = (f: SchemaField) => proseCandidates(f, fieldKind(f), recital, 'h1', 0);

  it('reads the date over the line break ("the 3rd of" / "June 2026") and the parties past their descriptions', () => {
    expect(prose(field('effective_date')).map((c) => c.value)).toEqual(['3rd of June 2026']);
    expect(prose(field('parties', 'list')).map((c) => c.value)).toEqual([
      ['Halden Marine Oy', 'Brightwater Pumps Ltd'],
    ]);
  });

  it('does not read across a full stop', () => {
    const two = 'The Agreement is made as of the 3rd of.\n\nJune 2026 is when it was signed.';
    const f = field('effective_date');
    expect(proseCandidates(f, fieldKind(f), two, 'h1', 0)).toEqual([]);
  });
});
