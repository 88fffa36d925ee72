// SPDX-License-Identifier: AGPL-3.0-or-later
import { fieldKind } from '../fields/field-kinds.js';
import type { SchemaField } from '../schema-fields.js';
import { candidatesIn } from './local-extractor.js';
import { stripQualifiers } from './value-cleanup.js';
import { withoutDocumentTitle } from './issuer-block.js';
import { labelAsValue } from './label-values.js';

// Issue 26, round 9: precision on layouts the rules did not foresee; each rule on text no bench document prints.
const field = (name: string, hint = ''): SchemaField => ({ path: [name], kind: 'scalar', hint });
const values = (name: string, content: string, others: string[] = []) => {
  const f = field(name);
  return candidatesIn(f, fieldKind(f), [], 'h1-c1', content, 0, undefined, [], undefined, new Map(), [
    f,
    ...others.map((o) => field(o)),
  ]).map((c) => c.value);
};

describe('a label under a label is not a value', () => {
  it("a schema field's own words on the line under a section label are that field's label", () => {
    const form = ['OWNER', 'Name', 'Joan Ferris', 'Phone', '0161 496 0733'].join('\n');
    expect(values('owner_name', form)).not.toContain('Name');
    // (a section label over a value stays a value)
    expect(values('owner_name', ['OWNER', 'Joan Ferris'].join('\n'))).toContain('Joan Ferris');
  });
  it("another field's words on that line are its label", () => {
    const form = ['BOAT', 'Mooring', 'Pontoon C 14'].join('\n');
    expect(values('boat', form, ['boat_mooring'])).not.toContain('Mooring');
  });
  it("a column of labels whose values follow in a block of their own gives no label's neighbour as a value", () => {
    const block = [
      'Weight',
      'Colour',
      'Housing material',
      'Mounting type',
      '',
      '2.4 kg',
      'Signal grey',
      'Die-cast zinc',
    ];
    expect(values('colour', block.join('\n'), ['unit_weight', 'mounting_type'])).not.toContain('Housing material');
  });
  it('the column of labels alone in its chunk (the values in the next) is refused too', () => {
    const block = ['Weight', 'Colour', 'Housing material', 'Mounting type', 'Cable gland'];
    expect(values('colour', block.join('\n'), ['unit_weight', 'mounting_type'])).not.toContain('Housing material');
    // (a form's label / value lines are not a column of labels)
    const form = ['Colour', 'Signal grey', 'Housing material', 'Zinc', 'Mounting type', 'DIN rail'];
    expect(values('housing_material', form.join('\n'), ['colour', 'mounting_type'])).toContain('Zinc');
  });
});

describe('a section label in capitals qualifies the labels under it', () => {
  it('"LANDLORD" / "Surname" / "…" is the landlord\'s surname; a label with none of the field\'s words is not', () => {
    const form = ['LANDLORD', 'Surname', 'Ekwueme-Hart', 'Telephone', '0113 496 0521'].join('\n');
    expect(values('landlord_surname', form)).toContain('Ekwueme-Hart');
    const boat = ['BOAT AND MOORING', 'Berth', 'C 14'].join('\n');
    expect(values('boat', boat)).not.toContain('C 14');
  });
});

describe("which of an amounts row's numbers: the header chooses", () => {
  const table = (header: string) =>
    [
      header,
      '| --- | --- | --- | --- |',
      '| 7 % | 118.20 | 8.27 | 126.47 |',
      '| Total | 211.05 | 23.61 | 234.66 |',
    ].join('\n');
  const first = (name: string, content: string) => {
    const f = field(name);
    return candidatesIn(f, fieldKind(f), [], 'h2-t1', content, 0, undefined, [], undefined, new Map(), [f]).map(
      (c) => c.value,
    )[0];
  };
  it('a total takes the gross column, not the net one first in the row', () => {
    expect(first('total', table('| Band | Net | Tax | Gross |'))).toBe('234.66');
    // (columns with no such headers: the first value, as before)
    expect(first('total', table('| Band | Q1 | Q2 | Q3 |'))).toBe('211.05');
  });
});

describe("the document's title is not part of the issuer's name", () => {
  it('a title in capitals at the end or the start is dropped', () => {
    expect(withoutDocumentTitle('Brannock Tiling Ltd PROFORMA INVOICE')).toBe('Brannock Tiling Ltd');
    expect(withoutDocumentTitle('STATEMENT Vellacott & Rudd LLP')).toBe('Vellacott & Rudd LLP');
    expect(withoutDocumentTitle('Gasthof Birkenwald FOLIO')).toBe('Gasthof Birkenwald');
  });
  it('a name in capitals, or one with no title noun, is kept', () => {
    expect(withoutDocumentTitle('NORTHERN RECEIPT CO')).toBe('NORTHERN RECEIPT CO');
    expect(withoutDocumentTitle('Halden Tax Advisers')).toBe('Halden Tax Advisers');
  });
});

describe('a line of an address is not a name', () => {
  const refused = (name: string, value: string, others: string[] = []) => {
    const f = field(name);
    return labelAsValue(f, fieldKind(f), value, [f, ...others.map((o) => field(o))]);
  };
  it('a postcode or a house number and street for a name field is refused', () => {
    expect(refused('guest_house', '9 • 6020 Innsbruck • Tyrol', ['guest_house_address'])).toBeUndefined();
    expect(refused('company_name', '9 • 6020 Innsbruck • Tyrol')).toMatch(/address/);
    expect(refused('landlord_name', '41 Quarry Lane, Hexham NE46 3RP')).toMatch(/address/);
    expect(refused('vendor', '31 Moorgate Road')).toMatch(/address/);
    expect(refused('company_name', 'Birchfield 3D Printing Ltd')).toBeUndefined();
    // (an address field keeps it)
    expect(refused('company_address', '41 Quarry Lane, Hexham NE46 3RP')).toBeUndefined();
  });
});

describe('a qualifier the field does not ask for is dropped', () => {
  const strip = (name: string, value: string, hint = '') => {
    const f = field(name, hint);
    return stripQualifiers(f, fieldKind(f), value);
  };
  it("an amount's period the field's name says is dropped and named", () => {
    expect(strip('nightly_rate', 'CHF 188.00 per night')).toEqual({ value: 'CHF 188.00', dropped: ['per night'] });
    expect(strip('hourly_fee', '$65 an hour')).toEqual({ value: '$65', dropped: ['an hour'] });
    // (a period the name does not say stays)
    expect(strip('deposit', '€30 per day').value).toBe('€30 per day');
  });
  it('"AC/DC" after a voltage is dropped; a lone AC or DC stays', () => {
    expect(strip('max_voltage', '250 V AC/DC')).toEqual({ value: '250 V', dropped: ['AC/DC'] });
    expect(strip('max_voltage', '250 V AC').value).toBe('250 V AC');
  });
});
