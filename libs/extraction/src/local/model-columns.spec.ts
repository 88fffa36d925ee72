// SPDX-License-Identifier: AGPL-3.0-or-later
import { centredValue, modelColumns, modelValue, spanningLabels } from './local-extractor.js';
import { splitRow } from './markdown-table.js';

// Issue 26: per-model columns of a datasheet table as the converter writes it: one value per model where each
// model has its own, a merged cell (one value printed for two models) in one column with its neighbour empty.
const TABLE = `| Servo motor model | | G05030 G10030 G20030 G40030 | | | |
| --- | --- | --- | --- | --- | --- |
| Rated torque | N·m | 0.16 | | 0.32 | 0.64 | 1.3 |
| Rated current | A (rms) | | 1.1 | | 1.6 | 2.6 |
| Allowable radial load | N | 68 | | | 245 | |
| Rated speed | min-1 | 3,000 | | | | |`;
const rows = TABLE.split('\n').flatMap((l) => {
  const cells = splitRow(l);
  return cells && !cells.every((c) => /^-*$/.test(c)) ? [cells] : [];
});
const row = (label: string) => rows.find((r) => r[0] === label)!;

describe('per-model table columns', () => {
  const columns = modelColumns(rows, 4);

  it('takes the model columns from the rows with one value per model', () => {
    expect(columns).toEqual([2, 4, 5, 6]);
  });

  it("gives each model its column's value, and a merged cell to both models it spans", () => {
    const values = (label: string) => [0, 1, 2, 3].map((k) => modelValue(row(label), 2, k, 4, columns));
    expect(values('Rated torque')).toEqual(['0.16', '0.32', '0.64', '1.3']);
    expect(values('Rated current')).toEqual(['1.1', '1.1', '1.6', '2.6']);
    // 68 sits in G05030's own column (at the table's edge: it spans nothing); 245 in G20030's with one empty model
    // cell on each side: a cell merged over G10030-G40030, printed once in their middle
    expect(values('Allowable radial load')).toEqual(['68', '245', '245', '245']);
  });

  it('gives a value printed once, centred over an odd number of models, to each of them (Contactors, issue 26)', () => {
    // the converter's row for "Conventional Free Air Thermal Current Ith [A]" of frames T10 … T50: 20 centred over
    // T10-T20, 32 over T21-T32, 60 and 80 one frame each
    const cells = [
      '',
      'Conventional Free Air Thermal Current Ith',
      '',
      '[A]',
      '',
      '20',
      '',
      '',
      '',
      '32',
      '',
      '60',
      '80',
    ];
    const frames = [4, 5, 6, 8, 9, 10, 11, 12];
    const got = frames.map((_, k) => modelValue(cells, 4, k, 8, frames));
    expect(got).toEqual(['20', '20', '20', '32', '32', '32', '60', '80']);
    // an empty cell two spans could cover stays unknown: 5 and 7 each centred over three models would overlap
    const row2 = ['x', '', '5', '', '7', ''];
    expect([0, 2, 4].map((k) => centredValue(row2, 1, k, [1, 2, 3, 4, 5]))).toEqual(['5', undefined, '7']);
    // a value at the table's edge spans nothing beyond it
    expect(centredValue(['x', '9', '', ''], 1, 1, [1, 2, 3])).toBeUndefined();
  });

  it('without known columns, a row with fewer values than models gives none (which is whose is unknown)', () => {
    expect(modelValue(row('Rated current'), 2, 2, 4, undefined)).toBeUndefined();
    expect(modelValue(row('Rated torque'), 2, 2, 4, undefined)).toBe('0.64');
  });
});

describe('labels printed once for the rows around them', () => {
  it("gives a value-less label row's label to the rows beside it that have values and no label of their own", () => {
    // Contactors: "Coil consumption [VA]" centred between its Sealed and Inrush rows, which the converter splits
    const lines = [
      '|  |  |  | Sealed | 7 | 7 | 4.5 | 10 |',
      '|  | Coil consumption (Note7) | [VA] |  |  |  |  |  |',
      '| Characteristic | Power Consumption (Note 7) [W] |  | Inrush | 45 | 75 | 55 | 110 |',
      '| Switching | Frequency | 1800 | 1200 |  |  |  |  |',
    ];
    const labels = spanningLabels(lines.map(splitRow));
    expect(labels.get(0)).toEqual({ label: 'Coil consumption (Note7) [VA]', row: 1 });
    // the Inrush row has a label of its own in that column (another label the converter put there): not given
    expect(labels.has(2)).toBe(false);
    expect(labels.has(3)).toBe(false);
  });
});
