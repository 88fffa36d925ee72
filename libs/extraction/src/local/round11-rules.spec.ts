// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePdf, pdfTextAt } from '@lectern/testing';
import { fieldKind } from '../fields/field-kinds.js';
import type { SchemaField } from '../schema-fields.js';
import { labelAsValue } from './label-values.js';
import { candidatesIn } from './local-extractor.js';
import { layoutPairs, readPageSpans } from './page-layout.js';
import { stripQualifiers } from './value-cleanup.js';
import { valueExtent } from './value-extent.js';

// Issue 26, round 11: precision on variant 15's wrong values; each rule on text no bench document prints.
const field = (name: string, hint = ''): SchemaField => ({ path: [name], kind: 'scalar', hint });
const values = (name: string, content: string, others: string[] = []) => {
  const f = field(name);
  return candidatesIn(f, fieldKind(f), [], 'h1-t1', content, 0, undefined, [], undefined, new Map(), [
    f,
    ...others.map((o) => field(o)),
  ]).map((c) => c.value);
};
describe('round 11: a value that cannot be the field’s', () => {
  it('a party or a name has a letter: a bare number of another column is refused', () => {
    const contractor = field('contractor');
    expect(labelAsValue(contractor, fieldKind(contractor), '45', [contractor])).toMatch(/no letter/);
    expect(labelAsValue(contractor, fieldKind(contractor), 'Ortega Civil Works SL', [contractor])).toBeUndefined();
    const vessel = field('vessel_name');
    expect(labelAsValue(vessel, fieldKind(vessel), '0231', [vessel])).toMatch(/no letter/);
  });

  it('a signature block’s heading labels a signatory, not the party', () => {
    const rows = ['| Signatures |  |', '| --- | --- |', '| For the Contractor | K. Oyelaran, Site Director |'].join(
      '\n',
    );
    expect(values('contractor', rows)).toEqual([]);
    // (a party's own row is read)
    const own = ['| Role | Name |', '| --- | --- |', '| Contractor | Oyelaran Drilling Ltd |'].join('\n');
    expect(values('contractor', own)).toContain('Oyelaran Drilling Ltd');
  });

  it('a row labelled by another field’s own name is that field’s row', () => {
    const rows = ['| Item | Amount |', '| --- | --- |', '| Freight total | $41.00 |', '| Total | $388.20 |'].join('\n');
    expect(values('total', rows, ['freight_total'])).not.toContain('$41.00');
    expect(values('total', rows, ['freight_total'])).toContain('$388.20');
    expect(values('freight_total', rows, ['total'])).toContain('$41.00');
  });

  it('a bulleted cell is a list item, not a row label', () => {
    const rows = ['| • Sealed enclosure | Draw at 3 V | 1.1 mA |', '| Enclosure | IP66 die-cast |'].join('\n');
    expect(values('enclosure', rows)).not.toContain('1.1 mA');
  });
});

describe('round 11: a value’s extent', () => {
  it('a length of time for a `…_time` field without the condition it was measured at', () => {
    const f = field('settling_time');
    expect(valueExtent(f, fieldKind(f), '35 µs at 12 V supply').value).toBe('35 µs');
    // (the field asking for the value as printed keeps it)
    const printed = field('settling_time', 'as printed');
    expect(valueExtent(printed, fieldKind(printed), '35 µs at 12 V supply').value).toBe('35 µs at 12 V supply');
  });

  it('a limit word after a unit with a hyphened suffix is dropped', () => {
    const f = field('output_noise');
    expect(stripQualifiers(f, fieldKind(f), '40 mVp-p typ.').value).toBe('40 mVp-p');
  });
});

describe('round 11: prose beside a marginal heading is not the heading’s value', () => {
  it('pairs a short value beside its label and not a sentence beside a heading', async () => {
    const pdf = makePdf([
      {
        content: [
          pdfTextAt(72, 700, 'Term'),
          pdfTextAt(180, 700, 'The lease runs for a period of five years from the start date.'),
          pdfTextAt(72, 670, 'Rent review'),
          pdfTextAt(180, 670, 'Every 3 years'),
        ].join('\n'),
      },
    ]);
    const pairs = layoutPairs(await readPageSpans(pdf), [field('term'), field('rent_review')]).map((p) => [
      p.label.text,
      p.value.text,
    ]);
    expect(pairs).toContainEqual(['Rent review', 'Every 3 years']);
    expect(pairs.some(([label]) => label === 'Term')).toBe(false);
  });
});

describe('round 11: two blocks of label/value lines side by side', () => {
  it('pairs both pairs of a line and gives each label its own block’s heading', async () => {
    const pdf = makePdf([
      {
        content: [
          pdfTextAt(72, 700, 'Cooling'),
          pdfTextAt(312, 700, 'Heating'),
          pdfTextAt(72, 685, 'Capacity'),
          pdfTextAt(180, 685, '7.1 kW'),
          pdfTextAt(312, 685, 'Capacity'),
          pdfTextAt(420, 685, '8.0 kW'),
          pdfTextAt(72, 670, 'Airflow'),
          pdfTextAt(180, 670, '1,150 m3/h'),
          pdfTextAt(312, 670, 'Airflow'),
          pdfTextAt(420, 670, '1,240 m3/h'),
        ].join('\n'),
      },
    ]);
    const fields = [field('cooling_capacity'), field('heating_capacity'), field('cooling_airflow')];
    const pairs = layoutPairs(await readPageSpans(pdf), fields).map((p) => [p.heading, p.label.text, p.value.text]);
    expect(pairs).toEqual(
      expect.arrayContaining([
        ['Cooling', 'Capacity', '7.1 kW'],
        ['Heating', 'Capacity', '8.0 kW'],
        ['Cooling', 'Airflow', '1,150 m3/h'],
        ['Heating', 'Airflow', '1,240 m3/h'],
      ]),
    );
  });

  it('does not pair a row of several values (a matrix row is the table reader’s)', async () => {
    const pdf = makePdf([
      {
        content: [
          pdfTextAt(72, 700, 'Capacity'),
          pdfTextAt(180, 700, '7.1 kW'),
          pdfTextAt(300, 700, '8.0 kW'),
          pdfTextAt(420, 700, '9.2 kW'),
        ].join('\n'),
      },
    ]);
    expect(layoutPairs(await readPageSpans(pdf), [field('cooling_capacity')])).toEqual([]);
  });
});

describe('round 11: a limit is one number', () => {
  it('a range is refused for a max_ or min_ field, kept for others', () => {
    const f = field('max_inlet_temperature');
    expect(labelAsValue(f, fieldKind(f), '5 to 95 °C', [f])).toMatch(/range/);
    expect(labelAsValue(f, fieldKind(f), '95 °C', [f])).toBeUndefined();
    const g = field('inlet_temperature');
    expect(labelAsValue(g, fieldKind(g), '5 to 95 °C', [g])).toBeUndefined();
  });
});
