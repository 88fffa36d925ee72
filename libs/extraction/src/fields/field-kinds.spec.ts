// SPDX-License-Identifier: AGPL-3.0-or-later
import { schemaFields } from '../schema-fields.js';
import { fieldKind, misfit } from './field-kinds.js';

const kindOf = (name: string, hint: unknown = '') => fieldKind(schemaFields({ [name]: hint })[0]!);

describe('field kinds: what a value must look like', () => {
  it('reads the kind from the name (and description)', () => {
    expect(kindOf('rated_torque')).toMatchObject({ kind: 'quantity', quantity: 'torque' });
    expect(kindOf('peak_current')).toMatchObject({ kind: 'quantity', quantity: 'current' });
    expect(kindOf('max_dc_voltage')).toMatchObject({ kind: 'quantity', quantity: 'voltage' });
    expect(kindOf('weight')).toMatchObject({ kind: 'quantity', quantity: 'mass' });
    expect(kindOf('torque_constant')).toEqual({ kind: 'text' });
    expect(kindOf('number_of_mppts')).toEqual({ kind: 'count' });
    expect(kindOf('pole_count')).toEqual({ kind: 'count' });
    // a thing's number is its identifier: "PO number 4500018832", "Invoice No. INV-20417"
    expect(kindOf('po_number', 'Purchase order number')).toEqual({ kind: 'text' });
    expect(kindOf('invoice_number')).toEqual({ kind: 'text' });
    expect(kindOf('serialNo')).toEqual({ kind: 'text' });
    expect(kindOf('effective_date')).toEqual({ kind: 'date' });
    expect(kindOf('ip_rating')).toEqual({ kind: 'ip_code' });
    expect(kindOf('output', 'rated output power in W')).toMatchObject({ kind: 'quantity', quantity: 'power' });
    // the last quantity word is the head: an output voltage is a voltage, an output current a current
    expect(kindOf('output_voltage')).toMatchObject({ kind: 'quantity', quantity: 'voltage' });
    expect(kindOf('output_current')).toMatchObject({ kind: 'quantity', quantity: 'current' });
    expect(kindOf('output_power')).toMatchObject({ kind: 'quantity', quantity: 'power' });
  });

  it('reads a temperature range written with dots or with the unit after both ends', () => {
    const temperature = kindOf('operating_temperature');
    expect(misfit(temperature, '-10 ... +50 °C')).toBeUndefined();
    expect(misfit(temperature, '-40 °C to +85 °C')).toBeUndefined();
    expect(misfit(kindOf('rated_voltage'), '10 ... 30 V DC')).toBe('it is a range, not one value');
  });

  it("refuses what the issue's wrong values were: a label, merged rows, a prose range, a wrong unit", () => {
    const power = kindOf('output_power');
    const torque = kindOf('rated_torque');
    expect(misfit(power, 'Rated speed (Note 2)')).toMatch(/no number|unit/);
    expect(misfit(torque, '10000 0.145')).toMatch(/several numbers/);
    expect(misfit(torque, '0.457Nm to 9.68Nm')).toMatch(/range|several/);
    expect(misfit(torque, '0.64', 'V')).toMatch(/unit/);
    expect(misfit(torque, '0.64 N·m')).toBeUndefined();
    expect(misfit(torque, '0.64', 'Rated torque (Nm)')).toBeUndefined();
    expect(misfit(power, '200 W')).toBeUndefined();
    expect(misfit(kindOf('rated_speed'), '3,000', 'min-1')).toBeUndefined();
    expect(misfit(kindOf('number_of_mppts'), '2')).toBeUndefined();
    expect(misfit(kindOf('number_of_mppts'), 'two trackers')).toMatch(/whole number/);
    expect(misfit(kindOf('effective_date'), 'March 3, 2024')).toBeUndefined();
    expect(misfit(kindOf('effective_date'), '2024-03-03')).toBeUndefined();
    expect(misfit(kindOf('effective_date'), 'upon signature')).toMatch(/not a date/);
    expect(misfit(kindOf('ip_rating'), 'IP65')).toBeUndefined();
    // a dual mains rating is one frequency value; two merged cells are not
    expect(misfit(kindOf('rated_frequency'), '50/60', '[Hz]')).toBeUndefined();
    expect(misfit(kindOf('rated_frequency'), '50/60 Hz')).toBeUndefined();
    expect(misfit(kindOf('rated_frequency'), '50 60', 'Hz')).toMatch(/several numbers/);
    expect(misfit(kindOf('rated_voltage'), '220/240', 'V')).toMatch(/several numbers/);
  });

  it('contracts and receipts: an amount of money, a length of time; a quantity word wins over them', () => {
    expect(kindOf('total')).toEqual({ kind: 'money' });
    expect(kindOf('amount_due')).toEqual({ kind: 'money' });
    expect(kindOf('term')).toEqual({ kind: 'duration' });
    expect(kindOf('total_power')).toMatchObject({ kind: 'quantity', quantity: 'power' });
    const total = kindOf('total');
    expect(misfit(total, '$1,234.50')).toBeUndefined();
    expect(misfit(total, 'EUR 45.10')).toBeUndefined();
    expect(misfit(total, '$40.00 $3.20')).toMatch(/several amounts/);
    expect(misfit(total, 'see page 2')).toMatch(/amount/);
    expect(misfit(total, 'paid')).toMatch(/no amount/);
    const term = kindOf('term');
    expect(misfit(term, 'two (2) years')).toBeUndefined();
    expect(misfit(term, '36 months')).toBeUndefined();
    expect(misfit(term, 'until terminated')).toMatch(/length of time/);
  });

  describe('micro units (issue 26, round 4)', () => {
    it('a current in µA, a voltage in µV, a power in mW fit their quantity', () => {
      const kindOf = (name: string) => fieldKind({ path: [name], kind: 'scalar', hint: '' });
      expect(misfit(kindOf('max_supply_current'), '450', 'µA')).toBeUndefined();
      expect(misfit(kindOf('supply_current'), '450 μA')).toBeUndefined();
      expect(misfit(kindOf('offset_voltage'), '20 µV')).toBeUndefined();
      expect(misfit(kindOf('power_consumption'), '3.5 mW')).toBeUndefined();
      expect(misfit(kindOf('supply_current'), '450 µs')).toBeDefined();
    });
  });
});
