// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePdf, pdfTextAt } from '@lectern/testing';
import { fieldKind } from '../fields/field-kinds.js';
import { LABEL_MATCH, labelScore } from '../fields/field-words.js';
import type { SchemaField } from '../schema-fields.js';
import { candidatesIn } from './local-extractor.js';
import { layoutPairs, readPageSpans } from './page-layout.js';
import { valueExtent } from './value-extent.js';

// Issue 26, round 14: recall on born-digital documents (variant 18's nulls); each rule on text no bench document prints.
const field = (name: string, hint = ''): SchemaField => ({ path: [name], kind: 'scalar', hint });

describe('round 14: a party by the name its kind of contract gives it', () => {
  it('a lease’s owner and hirer are its lessor and lessee; a tenancy’s occupiers its tenants', async () => {
    const pdf = makePdf([
      {
        content: [
          pdfTextAt(72, 700, 'Owner'),
          pdfTextAt(200, 700, 'Gallowfield Plant Hire Ltd'),
          pdfTextAt(72, 680, 'Hirer'),
          pdfTextAt(200, 680, 'Tobermory Joinery Ltd'),
          pdfTextAt(72, 660, 'Occupier'),
          pdfTextAt(200, 660, 'Rosalind Achterberg'),
        ].join('\n'),
      },
    ]);
    const fields = [field('lessor'), field('lessee'), field('tenant'), field('contractor')];
    const pairs = layoutPairs(await readPageSpans(pdf), fields).map((p) => [p.label.text, p.value.text]);
    expect(pairs).toEqual(
      expect.arrayContaining([
        ['Owner', 'Gallowfield Plant Hire Ltd'],
        ['Hirer', 'Tobermory Joinery Ltd'],
        ['Occupier', 'Rosalind Achterberg'],
      ]),
    );
    // (each label is its field's, and not another party's)
    expect(labelScore(field('lessor'), 'Owner', true)).toBeGreaterThanOrEqual(LABEL_MATCH);
    expect(labelScore(field('lessee'), 'Hirer', true)).toBeGreaterThanOrEqual(LABEL_MATCH);
    expect(labelScore(field('tenant'), 'Occupier', true)).toBeGreaterThanOrEqual(LABEL_MATCH);
    expect(labelScore(field('contractor'), 'Consultant', true)).toBeGreaterThanOrEqual(LABEL_MATCH);
    expect(labelScore(field('lessor'), 'Hirer', true)).toBeLessThan(LABEL_MATCH);
    expect(labelScore(field('lessee'), 'Owner', true)).toBeLessThan(LABEL_MATCH);
  });
});

describe('round 14: a name without the business it trades as', () => {
  it('cuts ", trading as …" and "t/a …" after a party’s name', () => {
    const f = field('contractor');
    expect(valueExtent(f, fieldKind(f), 'Ilse Brandvold, trading as Brandvold Joinery').value).toBe('Ilse Brandvold');
    expect(valueExtent(f, fieldKind(f), 'Ilse Brandvold t/a Brandvold Joinery').value).toBe('Ilse Brandvold');
    // (a field that asks for the name as printed keeps it whole)
    const printed = field('contractor', 'as printed');
    expect(valueExtent(printed, fieldKind(printed), 'Ilse Brandvold, trading as Brandvold Joinery').value).toBe(
      'Ilse Brandvold, trading as Brandvold Joinery',
    );
  });
});

const values = (name: string, content: string) => {
  const f = field(name);
  return candidatesIn(f, fieldKind(f), [], 'h1-t1', content, 0, undefined, [], undefined, new Map(), [f]).map(
    (c) => c.value,
  );
};

describe('round 14: an amount’s row with a count before the amount', () => {
  it('reads the cell with a currency, not the bare number before it', () => {
    const rows = [
      '| Task | Hours | Rate | Amount |',
      '| --- | --- | --- | --- |',
      '| Total fitting | 3.5 |  | €262.50 |',
    ];
    expect(values('fitting_total', rows.join('\n'))).toEqual(['€262.50']);
  });
});

describe('round 14: an identifier’s label naming another thing’s identifier', () => {
  it('"Chassis No." or "Order No." is not an invoice’s number; "Inv. No." and "No." are', () => {
    const invoice = field('invoice_number');
    expect(labelScore(invoice, 'Chassis No.', true)).toBe(0);
    expect(labelScore(invoice, 'Order No.', true)).toBe(0);
    expect(labelScore(invoice, 'Inv. No.', true)).toBeGreaterThanOrEqual(LABEL_MATCH);
    expect(labelScore(invoice, 'No.', true)).toBeGreaterThanOrEqual(LABEL_MATCH);
    const rows = ['| Chassis No. | WDB9634 |', '| --- | --- |', '| Invoice No. | 77-2291 |'].join('\n');
    expect(values('invoice_number', rows)).toEqual(['77-2291']);
  });
});

describe('round 14: a supply’s, an input’s or an adjustment’s quantity stated as an interval', () => {
  it('is read as a range; a field naming one point of it still refuses one', () => {
    const rows = [
      '| Characteristic | Value |',
      '| --- | --- |',
      '| Supply voltage | 2.7 to 3.6 V |',
      '| Input frequency | 45 to 65 Hz |',
      '| Rated voltage | 2.7 to 3.6 V |',
    ].join('\n');
    expect(values('supply_voltage', rows)).toContain('2.7 to 3.6 V');
    expect(values('input_frequency', rows)).toContain('45 to 65 Hz');
    expect(values('rated_voltage', rows)).toEqual([]);
  });
});

describe('round 14: a receipt’s shipping or tip is an amount', () => {
  it('takes the amount, not the name under a "Shipping to" heading', () => {
    const text = ['Shipping to', 'Tomasz Wierzbicki', '7 Larch Court, Duluth, MN 55802', '', 'Shipping $6.40'].join(
      '\n',
    );
    expect(values('shipping', text)).not.toContain('Tomasz Wierzbicki');
    expect(fieldKind(field('shipping')).kind).toBe('money');
    expect(fieldKind(field('tip')).kind).toBe('money');
    // (a shipping address or method is not an amount)
    expect(fieldKind(field('shipping_address')).kind).not.toBe('money');
    expect(fieldKind(field('shipping_method')).kind).not.toBe('money');
  });
});

describe('round 14: a label cell holding a note’s sentences', () => {
  it('does not label the row for a field named in the note', () => {
    const rows = [
      '| Parameter | Value |',
      '| --- | --- |',
      '| Housing Vibration tested to IEC 60068-2-6 on all axes. Shock tested at 30 g for 11 ms. | PA66-GF30 |',
      '| Vibration | 5 g |',
    ].join('\n');
    expect(values('vibration', rows)).not.toContain('PA66-GF30');
    expect(values('vibration', rows)).toContain('5 g');
  });
});
