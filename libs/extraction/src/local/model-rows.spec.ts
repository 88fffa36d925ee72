// SPDX-License-Identifier: AGPL-3.0-or-later
import { fieldKind } from '../fields/field-kinds.js';
import type { SchemaField } from '../schema-fields.js';
import { modelRowCandidates } from './local-extractor.js';

const table = [
  '| Model | Rated power [kW] | Rated current [A] | Weight [kg] |',
  '| --- | --- | --- | --- |',
  '| MX-0.75 | 0.75 | 2.1 | 1.4 |',
  '| MX-1.5 | 1.5 | 3.8 | 1.9 |',
  '| MX-2.2 | 2.2 | 5.2 | 2.3 |',
].join('\n');
const field = (name: string, kind: SchemaField['kind'] = 'scalar'): SchemaField => ({ path: [name], kind, hint: '' });
const read = (f: SchemaField, content = table, target: string | null = 'MX-1.5') =>
  modelRowCandidates(f, fieldKind(f), content, 'h1-t1', 0, target ?? undefined).map((c) => [
    c.value,
    c.snippet.split('\n').length,
  ]);

// Issue 26, round 3: a table with one model per row, the quantities in its columns
describe('modelRowCandidates (one model per row)', () => {
  it("reads the target model's row in the column whose header names the field, the unit from the header", () => {
    expect(read(field('rated_current'))).toEqual([['3.8 A', 4]]);
    expect(read(field('weight'))).toEqual([['1.9 kg', 4]]);
    expect(read(field('rated_current_per_model', 'dict'))).toEqual([
      [{ 'MX-0.75': '2.1 A', 'MX-1.5': '3.8 A', 'MX-2.2': '5.2 A' }, 5],
    ]);
  });

  it('takes nothing without a target model, a models column, or a header naming the field', () => {
    expect(read(field('rated_current'), table, null)).toEqual([]);
    expect(read(field('rated_current'), table.replace('| Model |', '| Item |'))).toEqual([]);
    expect(read(field('rated_voltage'))).toEqual([]);
  });
});
