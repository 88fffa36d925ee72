// SPDX-License-Identifier: AGPL-3.0-or-later
import { fieldKind } from '../fields/field-kinds.js';
import type { SchemaField } from '../schema-fields.js';
import { hasOwnWords, LABEL_MATCH, labelScore } from '../fields/field-words.js';
import {
  candidatesIn,
  labelValuePairs,
  limitsHeader,
  limitsValue,
  partyColumnCandidates,
  stackedCandidates,
  withLimitsHeader,
} from './local-extractor.js';
import { measureWithoutRemark, withoutTolerance } from './value-cleanup.js';
import { withoutTitleTail } from './issuer-block.js';
import { labelAsValue } from './label-values.js';
import { asksForCourt, proseCandidates } from './prose-patterns.js';

// Issue 26, round 7: precision on unseen documents; each rule on text no bench document prints.
const field = (name: string, hint = ''): SchemaField => ({ path: [name], kind: 'scalar', hint });
const refused = (name: string, value: string, others: string[] = []) => {
  const f = field(name);
  return labelAsValue(f, fieldKind(f), value, [f, ...others.map((o) => field(o))]);
};

describe('a label returned as a value is refused', () => {
  it('an identifier or a number with no digit is a label', () => {
    expect(refused('booking_number', 'Check-in Desk')).toMatch(/no digit/);
    expect(refused('customer_ref', 'Valid Until')).toMatch(/no digit/);
    expect(refused('booking_number', 'BK-55120')).toBeUndefined();
    // a count ("number_of_doors") is not an identifier; its kind checks it
    expect(refused('number_of_doors', 'Frame Colour')).toBeUndefined();
  });

  it('a time states a unit of time or a clock time; a bare number takes its header’s unit', () => {
    expect(refused('switching_time', 'Bounce data at 25 °C')).toMatch(/no time/);
    expect(refused('switching_time', 'Dropout time')).toMatch(/no time/);
    expect(refused('switching_time', '3 ms')).toBeUndefined();
    expect(refused('boarding_time', '07.45')).toBeUndefined();
    expect(refused('settling_time', '120')).toBeUndefined();
  });

  it('a range has two ends', () => {
    expect(refused('input_current_range', '2.2')).toMatch(/range/);
    expect(refused('input_current_range', '0.5 A')).toMatch(/range/);
    expect(refused('input_current_range', '0.5 to 2.2 A')).toBeUndefined();
    expect(refused('input_current_range', '0.5–2.2 A')).toBeUndefined();
    expect(refused('humidity_range', '-5 … 95 %')).toBeUndefined();
    expect(refused('bore_range', '12 mm / 16 mm')).toBeUndefined();
  });

  it('a party’s role is not a name', () => {
    expect(refused('parties', 'Lessee (Tenant)')).toMatch(/role/);
    expect(refused('counterparty', 'Receiving Party')).toMatch(/role/);
    expect(refused('parties', 'Harrow Fen Tenants Ltd')).toBeUndefined();
  });

  it('another field’s label is not this field’s value', () => {
    expect(refused('coil_material', 'Pickup voltage', ['pickup_voltage'])).toMatch(
      /label of the field 'pickup_voltage'/,
    );
    expect(refused('coil_material', 'CuSn6', ['pickup_voltage'])).toBeUndefined();
    // a name that shares one word with another field is a name
    expect(refused('supplier', 'Fenwick Water', ['water_used'])).toBeUndefined();
  });
});

describe('a law or a court is named whole', () => {
  const prose = (f: SchemaField, text: string) =>
    proseCandidates(f, fieldKind(f), text, 'h1-c1', 0).map((c) => c.value);

  it('"the" inside a place name is kept; a trailing "of" is not a name', () => {
    expect(
      prose(field('governing_law'), 'This Deed is governed by the laws of the Republic of the Marshall Islands.'),
    ).toEqual(['Republic of the Marshall Islands']);
  });

  it('a jurisdiction asked for as a court is the court named, not the governing law', () => {
    const court = field('jurisdiction', 'Court that hears disputes');
    expect(asksForCourt(court)).toBe(true);
    expect(asksForCourt(field('jurisdiction'))).toBe(false);
    expect(asksForCourt(field('governing_law', 'law and courts'))).toBe(false);
    expect(
      prose(
        court,
        'This Deed is governed by the laws of Ruritania. Claims shall be brought before the Regional Court of Strelsau.',
      ),
    ).toEqual(['Regional Court of Strelsau']);
    expect(prose(court, 'This Deed is governed by the laws of Ruritania.')).toEqual([]);
  });
});

describe('a box of amounts set as paragraphs, and the field’s own words', () => {
  const values = (f: SchemaField, content: string) =>
    candidatesIn(f, fieldKind(f), [], 'h1-c1', content, 0, undefined, [], undefined, new Map(), [f]).map(
      (c) => c.value,
    );

  it('a typed value after its label line and a blank line is read', () => {
    expect(values(field('balance_owed'), 'Arrears\n\n€12.00\n\nBalance owed\n\n€450.00\n\nRefunded on exit.')).toEqual([
      '€450.00',
    ]);
  });

  it('not for a field of words: a line and a paragraph are a heading and its text', () => {
    expect(values(field('range'), 'Range\n\nCovers compact and heavy models alike')).toEqual([]);
  });

  it('a label printing the field’s own words is told from one matched by a synonym only', () => {
    expect(hasOwnWords(field('amount_due'), 'Amount due')).toBe(true);
    expect(hasOwnWords(field('amount_due'), 'Total fees')).toBe(false);
  });
});

describe('an issuer’s name run into the document’s title', () => {
  it('is cut before a sentence-case phrase holding a title word', () => {
    expect(withoutTitleTail('Fenwick Gas Your quarterly statement')).toBe('Fenwick Gas');
    expect(withoutTitleTail('Harbour Lights Hotel Guest invoice copy')).toBe('Harbour Lights Hotel');
  });

  it('a name alone, or one with lower-case words of its own, is kept', () => {
    expect(withoutTitleTail('Fenwick Gas')).toBe('Fenwick Gas');
    expect(withoutTitleTail('Bank of Lower Saxony')).toBe('Bank of Lower Saxony');
    expect(withoutTitleTail('Tip Top Cleaners and sons')).toBe('Tip Top Cleaners and sons');
  });
});

describe('a spec list in two columns of label and value pairs', () => {
  const table = [
    '| Bore | 12 mm | Stroke | 40 mm |',
    '| --- | --- | --- | --- |',
    '| Working pressure | max. 8 bar | Piston rods | 2 (guided) |',
    '| Cushioning | none | Seal material | NBR |',
  ].join('\n');
  const best = (name: string) => {
    const f = field(name);
    return candidatesIn(f, fieldKind(f), [], 'h1-t1', table, 0, undefined, [], undefined, new Map(), [f]).sort(
      (a, b) => b.score - a.score,
    )[0]?.value;
  };

  it('each pair is a row: a value led by a limit word ends the first label', () => {
    expect(best('working_pressure')).toBe('max. 8 bar');
    expect(best('piston_rods')).toBe('2 (guided)');
    expect(best('stroke')).toBe('40 mm');
  });

  it('splits only a row of two label-value pairs', () => {
    expect(labelValuePairs(['Bore', '12 mm', 'Stroke', '40 mm'])).toEqual([
      ['Bore', '12 mm'],
      ['Stroke', '40 mm'],
    ]);
    // a model table's row, a row with a unit column, a first value in words: left whole
    expect(labelValuePairs(['Rated torque', '0.64', '1.27', '2.4'])).toHaveLength(1);
    expect(labelValuePairs(['Rated torque', 'N·m', '0.64', '1.27'])).toHaveLength(1);
    expect(labelValuePairs(['Cushioning', 'none', 'Seal material', 'NBR'])).toHaveLength(1);
  });
});

describe('a remark in brackets after a measured value', () => {
  it('is dropped and named', () => {
    expect(measureWithoutRemark(field('bore'), '12 mm (honed)')).toEqual({ value: '12 mm', dropped: ['(honed)'] });
  });
  it('a unit’s own bracket, a remark with a number, or a field asking for the value as printed keep it', () => {
    expect(measureWithoutRemark(field('coil_current'), '2.5 A (rms)').value).toBe('2.5 A (rms)');
    expect(measureWithoutRemark(field('bore'), '12 mm (at 20 °C)').value).toBe('12 mm (at 20 °C)');
    expect(measureWithoutRemark(field('bore', 'as printed'), '12 mm (honed)').value).toBe('12 mm (honed)');
  });
});

describe('a limits table’s column chosen by the field’s description', () => {
  const rows = [
    ['Parameter', 'Conditions', 'Min.', 'Typ.', 'Max.', 'Unit'],
    ['Settling time', 'to 0.1 %', '', '4', '7', 'µs'],
  ];
  const header = limitsHeader(rows)!;
  it('"Maximum …" in the description asks for the Max column', () => {
    expect(limitsValue(field('settling_time', 'Maximum settling time'), rows[1]!, header)?.value).toBe('7');
  });
  it('without a limit word, the Typ column', () => {
    expect(limitsValue(field('settling_time'), rows[1]!, header)?.value).toBe('4');
  });
});

describe('a label names what comes before "after", "before", "following", "until"', () => {
  it('"Deposit refund after inspection" is a refund, not the inspection', () => {
    expect(labelScore(field('inspection_fee'), 'Fee due after inspection', true)).toBeLessThan(LABEL_MATCH);
    expect(labelScore(field('inspection_date'), 'Deposit refund after inspection', true)).toBeLessThan(LABEL_MATCH);
    expect(labelScore(field('deposit_refund'), 'Deposit refund after inspection', true)).toBeGreaterThanOrEqual(
      LABEL_MATCH,
    );
  });
  it('unless the field’s name has that word', () => {
    expect(labelScore(field('rent_after_review'), 'Rent after review', true)).toBeGreaterThanOrEqual(LABEL_MATCH);
  });
});

describe('two parts joined by a hyphen after a label’s head say between what it is measured', () => {
  it('a field word only there does not name the field', () => {
    expect(labelScore(field('winding_rating'), 'Surge withstand winding-frame', true)).toBe(0);
    expect(labelScore(field('surge_withstand'), 'Surge withstand winding-frame', true)).toBeGreaterThanOrEqual(
      LABEL_MATCH,
    );
  });
  it('a hyphenated word that is the field’s own, or the label’s first, still names it', () => {
    expect(labelScore(field('hold_up_time'), 'Hold-up time', true)).toBeGreaterThanOrEqual(LABEL_MATCH);
    expect(labelScore(field('winding_frame'), 'Clearance winding-frame', true)).toBeGreaterThanOrEqual(LABEL_MATCH);
  });
});

describe('a boxed form of label rows over value rows', () => {
  const box = [
    '| Lessor | Lessee |',
    '| --- | --- |',
    '| Harrow Fen Estates Ltd | Quillon Bakeries Ltd |',
    '| Unit No. | Handover Date |',
    '| B-14 | 3 June 2027 |',
  ].join('\n');
  const stacked = (name: string, content: string, kind: SchemaField['kind'] = 'scalar') => {
    const f: SchemaField = { path: [name], kind, hint: kind === 'list' ? [] : '' };
    return stackedCandidates(f, fieldKind(f), content, 'h1-t1', 0).map((c) => c.value);
  };

  it('a label cell names the cell below it; a list takes every column its row names', () => {
    expect(stacked('handover_date', box)).toEqual(['3 June 2027']);
    expect(stacked('unit_number', box)).toEqual(['B-14']);
    expect(stacked('parties', box, 'list')).toEqual([['Harrow Fen Estates Ltd', 'Quillon Bakeries Ltd']]);
  });

  it('not a table whose header is over rows of values (a model table), nor one with no digit in its values', () => {
    const models = ['| Model | Coil resistance |', '| --- | --- |', '| QX-05 | 70 |', '| QX-12 | 410 |'].join('\n');
    expect(stacked('coil_resistance', models)).toEqual([]);
    const words = [
      '| Colour | Finish |',
      '| --- | --- |',
      '| Red | Matt |',
      '| Size | Grade |',
      '| Large | Heavy |',
    ].join('\n');
    expect(stacked('finish', words)).toEqual([]);
  });
});

describe('a value printed with its tolerance', () => {
  it('is the nominal value, the tolerance named', () => {
    expect(withoutTolerance(field('cone_angle'), '60° ±2 %')).toEqual({ value: '60°', dropped: ['±2 %'] });
    expect(withoutTolerance(field('gap_width'), '0.35 mm ± 0.02 mm').value).toBe('0.35 mm');
  });
  it('a field about the tolerance, or asking for the value as printed, keeps it; a value that is all tolerance stays', () => {
    expect(withoutTolerance(field('angle_tolerance'), '60° ±2 %').value).toBe('60° ±2 %');
    expect(withoutTolerance(field('accuracy'), '±0.3 K').value).toBe('±0.3 K');
    expect(withoutTolerance(field('cone_angle', 'as printed, with its tolerance'), '60° ±2 %').value).toBe('60° ±2 %');
  });
});

describe('a limits table cut after its header row', () => {
  const parts = new Map([
    [
      'h4-t1',
      [
        '| Gain | G = 1 | 0.98 | 1.00 | 1.02 | V/V |',
        '| --- | --- | --- | --- | --- | --- |',
        '| Parameter Conditions | Min. | Typ. | Max. | Unit |',
      ].join('\n'),
    ],
    [
      'h4-t2',
      [
        '| Offset drift |  |  | 0.4 | 1.5 | µV/K |',
        '| --- | --- | --- | --- | --- | --- |',
        '| Bias current |  |  | 2 | 9 | nA |',
      ].join('\n'),
    ],
  ]);
  const read = (locator: string) => Promise.resolve(parts.get(locator));

  it('the part after reads its rows under that header, aligned on the right', async () => {
    const content = await withLimitsHeader('h4-t2', parts.get('h4-t2')!, read);
    const f = field('max_bias_current');
    const found = candidatesIn(f, fieldKind(f), [], 'h4-t2', content, 0, undefined, [], undefined, new Map(), [f]);
    expect(found[0]?.value).toBe('9 nA');
  });

  it('leaves a part alone whose header does not fit (no Unit column last, or more cells than its rows)', async () => {
    const other = new Map([['h4-t1', '| Parameter Conditions | Min. | Typ. | Max. |\n| --- | --- | --- | --- |']]);
    const own = parts.get('h4-t2')!;
    expect(await withLimitsHeader('h4-t2', own, (l) => Promise.resolve(other.get(l)))).toBe(own);
    expect(await withLimitsHeader('h4-c2', own, read)).toBe(own);
  });
});

describe('parties side by side, one column each', () => {
  const table = [
    '|  | Lessor | Lessee |',
    '| --- | --- | --- |',
    '| Seat | Ghent | Leeds |',
    '| Name | Velder Optics NV | Crane & Mott Ltd |',
  ].join('\n');
  const party = (name: string, content = table) =>
    partyColumnCandidates(field(name), content, 'h1-t1', 0).map((c) => c.value);

  it('the name row in the column the header names', () => {
    expect(party('lessee')).toEqual(['Crane & Mott Ltd']);
    expect(party('lessor')).toEqual(['Velder Optics NV']);
  });

  it('not for a field that is no party, nor when no single column is named, nor without a name row', () => {
    expect(party('lessee_seat')).toEqual([]);
    expect(party('party')).toEqual([]);
    expect(party('lessee', table.replace('| Name |', '| Director |'))).toEqual([]);
  });
});
