// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  dropRemark,
  labelsMovedDown,
  limitsHeader,
  limitsValue,
  mergePerModel,
  otherFieldLabelled,
  sameLabelValues,
  spanningLabels,
  tableHeader,
  type Candidate,
} from './local-extractor.js';
import { schemaFields } from '../schema-fields.js';

// Issue 26's precision rules of the offline extractor's table reading, on the candidates it builds.
const cell = (over: Partial<Candidate>): Candidate => ({
  value: '20 A',
  label: 'Conventional free air thermal current',
  snippet: '| Conventional free air thermal current | A | 20 |',
  locator: 'h2-t1',
  score: 1,
  method: 'table_cell',
  ...over,
});

describe('same-label rule: one label on several rows with different values', () => {
  const seen = (values: string[]) =>
    new Map([
      ['h2|Conventional free air thermal current', new Set(values)],
      ['h3|Rated current', new Set(['5'])],
    ]);

  it('counts the different values the rows with the best candidate’s label give under its heading', () => {
    // the main contacts' 20 A and the auxiliary contacts' 10 A under one heading: ambiguous (the caller nulls it)
    expect(sameLabelValues(cell({}), seen(['A 20', 'A 10']))).toBe(2);
    // several rows repeating one value are not a conflict
    expect(sameLabelValues(cell({}), seen(['A 20']))).toBe(1);
  });

  it('for a value read from the target model’s column, compares that column only: the model column decides', () => {
    const targetSeen = (values: string[]) =>
      new Map([
        ['h2|Conventional free air thermal current', new Set(['A 20 25', 'A 10 10'])],
        ['h2|Conventional free air thermal current|target', new Set(values)],
      ]);
    // the rows differ, but the target's cell is filled on one row only (or the same on both): decided
    expect(sameLabelValues(cell({ targeted: true }), targetSeen(['25']))).toBe(1);
    // the target's own cells differ between the rows: still ambiguous
    expect(sameLabelValues(cell({ targeted: true }), targetSeen(['25', '10']))).toBe(2);
  });

  it('only applies to table cells, and only under the same heading', () => {
    expect(sameLabelValues(cell({ method: 'key_value' }), seen(['A 20', 'A 10']))).toBe(0);
    expect(sameLabelValues(cell({ locator: 'h3-t1' }), seen(['A 20', 'A 10']))).toBe(0);
  });
});

describe('dict-merge rule: a per-model field over several tables', () => {
  const table = (models: Record<string, string>, score: number, row: string): Candidate =>
    cell({ value: models, score, snippet: row, locator: `h1-t${row.length}`, label: 'Rated torque' });
  const cylindrical = table({ G05030: '0.16 N·m', G10030: '0.32 N·m' }, 1, '| Rated torque | N·m | 0.16 | 0.32 |');
  const flat = table({ GP10030: '0.32 N·m', G10030: '9 N·m' }, 0.8, '| Rated torque | N·m | 0.32 | 9 |');
  const weak = table({ G90000: '5 N·m' }, 0.7, '| Torque | N·m | 5 |');

  it('merges the tables whose row scores within 75 % of the best; the best table wins a model both give', () => {
    const merged = mergePerModel(cylindrical, [cylindrical, flat, weak]);
    expect(merged?.value).toEqual({ G05030: '0.16 N·m', G10030: '0.32 N·m', GP10030: '0.32 N·m' });
    // 0.7 < 0.75 × 1: the weaker table's model is left out
    expect(merged?.value).not.toHaveProperty('G90000');
  });

  it("gives each model its own row as evidence, with the match and confidence of that row's candidate", () => {
    const merged = mergePerModel(cylindrical, [cylindrical, flat]);
    expect(merged?.evidence['G10030']).toEqual({
      locator: cylindrical.locator,
      snippet: cylindrical.snippet,
      match: 'table_cell',
      confidence: 1,
    });
    expect(merged?.evidence['GP10030']).toMatchObject({ snippet: flat.snippet, confidence: 0.8 });
  });

  it('does nothing with one table (or the same row found twice)', () => {
    expect(mergePerModel(cylindrical, [cylindrical])).toBeUndefined();
    expect(mergePerModel(cylindrical, [cylindrical, { ...cylindrical }])).toBeUndefined();
    expect(mergePerModel(cylindrical, [cylindrical, weak])).toBeUndefined();
  });
});

describe('table headers: which row names the models', () => {
  it('reads short model names from a row labelled as models ("Frame | T10 | T12 …")', () => {
    expect(tableHeader([['', 'Frame', '', 'T10', 'T12', 'T20']])).toEqual({
      models: ['T10', 'T12', 'T20'],
      named: true,
    });
  });

  it('takes a first row of model-like names, unlabelled, and refuses a row naming one model twice', () => {
    expect(tableHeader([['Non-Reversing', 'MSO-T10KP', 'MSO-T12KP']])).toEqual({
      models: ['MSO-T10KP', 'MSO-T12KP'],
      named: false,
    });
    expect(tableHeader([['Auxiliary', '2 for any UT-AX2/4/11', '', '2 for any UT-AX2/4/11']]).models).toEqual([]);
    // without a models label, a 3-character token is not a model name
    expect(tableHeader([['Size', 'T10', 'T12']]).models).toEqual(['T10', 'T12']);
    expect(tableHeader([['Rated current', 'T10', 'T12']]).models).toEqual([]);
  });
});

// Issue 26, round 3: a label the converter put on the row above its values (Contactors' "Power Consumption [W]")
describe('labelsMovedDown', () => {
  const rows = [
    ['', '', '', 'Sealed', '7', '7', '4.5', '10'],
    ['', 'Coil consumption (Note7)', '[VA]', '', '', '', '', ''],
    ['Characteristic', 'Power Consumption (Note 7) [W]', '', 'Inrush', '45', '75', '55', '110'],
    ['', '', '', '', '2.2', '2.4 2.4', '1.8', '3.8 3.8'],
  ];
  it("moves the label in the spanning label's column down to the unlabelled value row below", () => {
    const moved = labelsMovedDown(rows);
    expect(moved.rows[2]).toEqual(['Characteristic', '', '', 'Inrush', '45', '75', '55', '110']);
    expect(moved.rows[3]).toEqual(['', 'Power Consumption (Note 7) [W]', '', '', '2.2', '2.4 2.4', '1.8', '3.8 3.8']);
    expect([...moved.from]).toEqual([[3, 2]]);
    // and the vacated cell lets the spanning label name the Inrush row
    expect(spanningLabels(moved.rows).get(2)).toEqual({ label: 'Coil consumption (Note7) [VA]', row: 1 });
  });
  it('moves nothing when the row below has a label, the row has no sub-label, or no label row is above', () => {
    const labelled = rows.map((r, i) => (i === 3 ? ['Power', ...r.slice(1)] : r));
    expect(labelsMovedDown(labelled).from.size).toBe(0);
    const noSub = rows.map((r, i) => (i === 2 ? r.map((c, k) => (k === 3 ? '' : c)) : r));
    expect(labelsMovedDown(noSub).from.size).toBe(0);
    expect(labelsMovedDown(rows.slice(2)).from.size).toBe(0);
    expect(labelsMovedDown(rows).rows[0]).toEqual(rows[0]);
  });
});

describe("another field's label in the value cell: two blocks of a form read as one row", () => {
  const fields = schemaFields({
    supplier: 'Vendor the goods are ordered from',
    order_date: '',
    provider: 'The company providing the service',
    customer: 'The company buying the service',
    coil_voltage: '',
    port_size: '',
    total: '',
  });
  const field = (name: string) => fields.find((f) => f.path[0] === name)!;

  it('names the other field whose label and value the cell holds', () => {
    // "| Vendor | | | Order date 2026-02-17 |": the right-hand block's line beside the left-hand label
    expect(otherFieldLabelled(field('supplier'), fields, 'Order date 2026-02-17')?.path).toEqual(['order_date']);
    expect(otherFieldLabelled(field('port_size'), fields, 'Coil voltage 24V DC')?.path).toEqual(['coil_voltage']);
    // a heading of the other block alone
    expect(otherFieldLabelled(field('provider'), fields, 'CUSTOMER')?.path).toEqual(['customer']);
  });

  it("leaves a value alone: one that only begins with another field's word, or with no other label at all", () => {
    // "Total Tools Ltd" begins with the total's word, but "Tools Ltd" is no amount
    expect(otherFieldLabelled(field('supplier'), fields, 'Total Tools Ltd')).toBeUndefined();
    expect(otherFieldLabelled(field('supplier'), fields, 'Rhein-Ventil GmbH')).toBeUndefined();
    expect(otherFieldLabelled(field('port_size'), fields, 'G 1/2')).toBeUndefined();
    // the field's own label first: its own value follows
    expect(otherFieldLabelled(field('customer'), fields, 'CUSTOMER')).toBeUndefined();
  });
});

describe('limits tables: Min / Typ / Max / Unit columns (issue 26, round 4)', () => {
  const rows = [
    ['Parameter', 'Min', 'Typ', 'Max', 'Unit'],
    ['Supply voltage', '2.4', '3.3', '5.5', 'V'],
    ['Supply current, measuring', '', '320', '450', 'µA'],
    ['Temperature accuracy', '', '±0.2', '', '°C'],
    ['Operating temperature', '-40', '', '125', '°C'],
    ['Standby current', '', '', '1.5', 'µA'],
  ];
  const header = limitsHeader(rows)!;
  const f = (name: string) => schemaFields({ [name]: '' })[0]!;

  it('finds the header row and its limit and unit columns; a table without two limit columns has none', () => {
    expect(header).toEqual({ row: 0, min: 1, typ: 2, max: 3, unit: 4 });
    expect(
      limitsHeader([
        ['Parameter', 'Value', 'Unit'],
        ['Max current', '2', 'A'],
      ]),
    ).toBeUndefined();
  });

  it('takes the column the field asks for, else Typ, else the only limit, else Min and Max as a range; the unit column appended and the column named', () => {
    expect(limitsValue(f('max_supply_current'), rows[2]!, header)).toEqual({
      value: '450',
      unit: 'µA',
      note: 'the Max column',
    });
    expect(limitsValue(f('supply_voltage'), rows[1]!, header)).toMatchObject({
      value: '3.3',
      unit: 'V',
      note: 'the Typ column',
    });
    expect(limitsValue(f('min_supply_voltage'), rows[1]!, header)).toMatchObject({
      value: '2.4',
      note: 'the Min column',
    });
    expect(limitsValue(f('temperature_accuracy'), rows[3]!, header)).toMatchObject({ value: '±0.2', unit: '°C' });
    expect(limitsValue(f('standby_current'), rows[5]!, header)).toMatchObject({
      value: '1.5',
      note: 'the Max column (the only limit given)',
    });
    expect(limitsValue(f('operating_temperature'), rows[4]!, header)).toMatchObject({
      value: '-40 to 125',
      note: 'the Min and Max columns, as a range',
    });
    // precision first: the asked-for column empty gives nothing (not the Typ value)
    expect(limitsValue(f('min_temperature_accuracy'), rows[3]!, header)).toBeUndefined();
  });

  it('a unit "per piece" is the unit', () => {
    expect(dropRemark('0.62 kg/pc')).toBe('0.62 kg');
    expect(dropRemark('1.2kg / pcs')).toBe('1.2kg');
    expect(dropRemark('0.8kg (without brake)')).toBe('0.8kg');
    // a ratio's unit stays
    expect(dropRemark('0.41 N·m/A')).toBe('0.41 N·m/A');
  });
});
