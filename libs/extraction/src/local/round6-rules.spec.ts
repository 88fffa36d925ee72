// SPDX-License-Identifier: AGPL-3.0-or-later
import { fieldKind } from '../fields/field-kinds.js';
import type { SchemaField } from '../schema-fields.js';
import { candidatesIn } from './local-extractor.js';
import { asksForQualifier, isOrganisationName, organisationWord, stripQualifiers } from './value-cleanup.js';

// Issue 26, round 6: a value is the value, not its surroundings; each rule on text no bench document prints.
const field = (name: string, hint = ''): SchemaField => ({ path: [name], kind: 'scalar', hint });
const strip = (name: string, value: string, hint = '') => {
  const f = field(name, hint);
  return stripQualifiers(f, fieldKind(f), value);
};

/** The best candidate of one chunk for a field, as the offline extractor reads it (undefined: none). */
const best = (f: SchemaField, content: string) => {
  const found = candidatesIn(f, fieldKind(f), [], 'h1-t1', content, 0, undefined, [], undefined, new Map(), []);
  return found.sort((a, b) => b.score - a.score)[0]?.value;
};

describe('limit and approximation words are not part of a number', () => {
  it('drops them before or after a number with or without a unit, and says what was dropped', () => {
    expect(strip('supply_voltage', 'max. 48 V')).toEqual({ value: '48 V', dropped: ['max.'] });
    expect(strip('shaft_diameter', '8.5 mm typ.')).toEqual({ value: '8.5 mm', dropped: ['typ.'] });
    expect(strip('switching_cycles', 'min. 5000')).toEqual({ value: '5000', dropped: ['min.'] });
    expect(strip('contact_resistance', '< 20 mOhm').value).toBe('20 mOhm');
    expect(strip('input_current', '≤ 3.5 A').value).toBe('3.5 A');
    expect(strip('reading_distance', 'up to 12 m').value).toBe('12 m');
    expect(strip('max_load', '250 kg (max.)').value).toBe('250 kg');
    expect(strip('weight', 'approx. 1.4 kg').value).toBe('1.4 kg');
    expect(strip('order_total', 'max. $1,250.00').value).toBe('$1,250.00');
  });

  it('a field named for the limit is cleaned too: its label said "max" already', () => {
    expect(strip('max_input_voltage', 'max. 60 V').value).toBe('60 V');
  });

  it('drops what a measured value is counted over, not a unit', () => {
    expect(strip('rated_current', '4 A per pole')).toEqual({ value: '4 A', dropped: ['per pole'] });
    expect(strip('rated_power', '15 W each').value).toBe('15 W');
    expect(strip('conveyor_speed', '0.5 m per second').value).toBe('0.5 m per second');
  });

  it('leaves text, ranges, dates and codes alone', () => {
    expect(strip('pressure_rating', 'Max. working pressure')).toEqual({ value: 'Max. working pressure', dropped: [] });
    expect(strip('jacket', 'min. two layers of PVC').value).toBe('min. two layers of PVC');
    expect(strip('operating_temperature', '-20 to 60 °C').value).toBe('-20 to 60 °C');
    expect(strip('delivery_date', '12.03.2026').value).toBe('12.03.2026');
  });

  it('keeps the value whole when the field’s description asks for the qualifier', () => {
    const hint = 'The rated voltage as printed, with its qualifier';
    expect(asksForQualifier(field('rated_voltage', hint))).toBe(true);
    expect(strip('rated_voltage', 'max. 48 V', hint)).toEqual({ value: 'max. 48 V', dropped: [] });
    expect(asksForQualifier(field('rated_voltage', 'Nominal supply voltage'))).toBe(false);
  });
});

describe('a neighbouring label is not a unit', () => {
  it('a label cell after the row’s first cell is not written after a code or an amount', () => {
    const table = [
      '| Marktgasse 3 | RECEIPT NO. | 88/2231 |',
      '| --- | --- | --- |',
      '| 09/12 | Late payment charge | €12.50 |',
    ].join('\n');
    // (before: "88/2231 RECEIPT NO." and "€12.50 Late payment charge")
    expect(best(field('receipt_number'), table)).toBe('88/2231');
    expect(best(field('late_payment_charge'), table)).toBe('€12.50');
  });

  it('a unit cell is still a unit: a measured value, or a short unit beside a number', () => {
    const table = [
      '| Parameter | Unit | Value |',
      '| --- | --- | --- |',
      '| Rated torque | N·m | 1.27 |',
      '| Holding force | N | 310 |',
    ].join('\n');
    expect(best(field('rated_torque'), table)).toBe('1.27 N·m');
    // "force" is no quantity the extractor knows (a text field): the short unit cell still goes with the number
    expect(best(field('holding_force'), table)).toBe('310 N');
  });
});

describe("an organisation's name is its name field's value, not a label", () => {
  it('recognises the name by the organisation word and other capitalised words', () => {
    expect(organisationWord(['hotel', 'name'])).toBe('hotel');
    expect(organisationWord(['guest', 'name'])).toBeUndefined();
    expect(isOrganisationName('hotel', 'Hotel Alpenrose Mitte')).toBe(true);
    expect(isOrganisationName('bank', '# Fjordline Savings Bank')).toBe(true);
    expect(isOrganisationName('hotel', 'Hotel name')).toBe(false);
    expect(isOrganisationName('bank', 'Bank details')).toBe(false);
    expect(isOrganisationName('bank', 'Bank: Fjordline Savings Bank')).toBe(false);
    expect(isOrganisationName('bank', 'Please pay to the bank below')).toBe(false);
  });

  it('the name in a table cell beside a title word, and as a heading over an address', () => {
    // (before: "RECEIPT", the cell after the name taken as its value)
    expect(best(field('hotel_name'), '| Hotel Alpenrose Mitte | RECEIPT |  |\n| --- | --- | --- |')).toBe(
      'Hotel Alpenrose Mitte',
    );
    expect(best(field('bank_name'), '# Fjordline Savings Bank\n\n12 Harbour Road, Bergen')).toBe(
      'Fjordline Savings Bank',
    );
  });
});
