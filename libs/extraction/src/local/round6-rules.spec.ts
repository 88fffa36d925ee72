// SPDX-License-Identifier: AGPL-3.0-or-later
import { fieldKind, misfit } from '../fields/field-kinds.js';
import type { SchemaField } from '../schema-fields.js';
import { candidatesIn, modelRowCandidates } from './local-extractor.js';
import { statedValues } from './prose-patterns.js';
import { labelScore, LABEL_MATCH } from '../fields/field-words.js';
import {
  asksForQualifier,
  codeBeforeDimensions,
  identifierNamedIn,
  isOrganisationName,
  organisationWord,
  stripQualifiers,
  withoutNoteReferences,
} from './value-cleanup.js';

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

  it('"min" after a number is minutes, and "r/min" a unit: neither is dropped', () => {
    expect(strip('rated_speed', '1500 r/min').value).toBe('1500 r/min');
    expect(strip('charge_duration', '45 min').value).toBe('45 min');
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

describe('a footnote reference is not part of a value', () => {
  it('drops "(Note N)", "(see Notes N and M)" and "(*N)" wherever printed, and says what was dropped', () => {
    expect(withoutNoteReferences('KX-400 (Note 7)')).toEqual({ value: 'KX-400', dropped: ['(Note 7)'] });
    expect(withoutNoteReferences('12 A (see Notes 2 and 3)').value).toBe('12 A');
    expect(withoutNoteReferences('(*4) 230 V AC').value).toBe('230 V AC');
    expect(withoutNoteReferences('0.8 kg (note 1), 1.1 kg (note 2)').value).toBe('0.8 kg, 1.1 kg');
  });

  it('leaves other brackets, and a value that is only a reference, alone', () => {
    expect(withoutNoteReferences('IP65 (front panel)')).toEqual({ value: 'IP65 (front panel)', dropped: [] });
    expect(withoutNoteReferences('Noteworthy Ltd (2)').value).toBe('Noteworthy Ltd (2)');
    expect(withoutNoteReferences('(Note 3)')).toEqual({ value: '(Note 3)', dropped: [] });
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

describe('recall without guessing: values a label names in other layouts', () => {
  it('a second header row of units under a one-model-per-row table gives each column its unit', () => {
    const table = [
      '| Model | Rated output | Rated torque | Mass |',
      '| --- | --- | --- | --- |',
      '|  | kW | N·m | kg |',
      '| GX-2 | 0.2 | 0.64 | 1.1 |',
      '| GX-4 | 0.4 | 1.27 | 1.6 |',
      '| GX-7 | 0.75 | 2.39 | 2.7 |',
    ].join('\n');
    const perModel = { path: ['rated_torque_per_model'], kind: 'dict' as const, hint: {} };
    const got = modelRowCandidates(perModel, fieldKind(perModel), table, 'h2-t1', 0, undefined)[0]?.value;
    // (before: no unit, so no value fitted a torque)
    expect(got).toEqual({ 'GX-2': '0.64 N·m', 'GX-4': '1.27 N·m', 'GX-7': '2.39 N·m' });
    // the unit row is not a model
    const mass = { path: ['weight_per_model'], kind: 'dict' as const, hint: {} };
    expect(
      Object.keys(modelRowCandidates(mass, fieldKind(mass), table, 'h2-t1', 0, undefined)[0]?.value as object),
    ).toEqual(['GX-2', 'GX-4', 'GX-7']);
  });

  it('a column with the same value for every model is the series’ value; different values are not known', () => {
    const table = [
      '| Type | Rated speed | Rated current |',
      '| --- | --- | --- |',
      '|  | r/min | A |',
      '| HB-10 | 1800 | 2.1 |',
      '| HB-20 | 1800 | 3.9 |',
    ].join('\n');
    const speed = field('rated_speed');
    expect(modelRowCandidates(speed, fieldKind(speed), table, 'h1-t1', 0, undefined)[0]?.value).toBe('1800 r/min');
    const current = field('rated_current');
    expect(modelRowCandidates(current, fieldKind(current), table, 'h1-t1', 0, undefined)).toEqual([]);
  });

  it("a unit's exponent is not a second number", () => {
    const speed = fieldKind(field('nominal_speed'));
    expect(misfit(speed, '1450 min-1')).toBeUndefined();
    expect(misfit(fieldKind(field('rated_power')), '1.5 kW 2.2 kW')).toMatch(/several numbers/);
  });

  it('"output" names a power only as the name’s last word', () => {
    expect(fieldKind(field('rated_output'))).toMatchObject({ kind: 'quantity', quantity: 'power' });
    expect(fieldKind(field('output_voltage'))).toMatchObject({ kind: 'quantity', quantity: 'voltage' });
    // (before: a power, so "400 Hz" did not fit)
    expect(fieldKind(field('max_output_update_rate')).kind).toBe('text');
  });

  it('a label that leaves out the quantity its value’s unit states, in a two-cell row; more after a comma', () => {
    const table = ['| Drive | 5.5 kW, 4-pole, IE4, 690 V |', '| --- | --- |', '| Frame | 132M |'].join('\n');
    // (before: "Drive" did not name a drive power, and the cell was a block of several cells)
    expect(best(field('drive_power'), table)).toBe('5.5 kW');
    expect(best(field('drive_voltage'), table)).toBeUndefined();
  });

  it('a definitions clause: "Term" means value, several on one line', () => {
    const text = [
      '"Start Date" means 4 May 2026; "Region" means the Baltic states; "Fee" means EUR 1,200.',
      '',
      '"Licensor" means Harju Data OU, a company registered in Estonia;',
      '',
      '"Licensee" means Kaunas Print UAB, whose office is in Kaunas;',
      '',
      '| For the Licensor | For the Licensee |',
      '| --- | --- |',
    ].join('\n');
    expect(best(field('commencement_date'), text)).toBe('4 May 2026');
    expect(best(field('region'), text)).toBe('the Baltic states');
    // a party's name without its description, both parties, and no signature block heading
    const parties = { path: ['parties'], kind: 'list' as const, hint: [] };
    expect(best(parties, text)).toEqual(['Harju Data OU', 'Kaunas Print UAB']);
    const rejected: { seen: string; why: string }[] = [];
    const licensee = field('licensee');
    const found = candidatesIn(
      licensee,
      fieldKind(licensee),
      rejected as never,
      'h1',
      text,
      0,
      undefined,
      [],
      undefined,
      new Map(),
      [],
    );
    expect(found.map((c) => c.value)).not.toContain('For the Licensee');
  });
});

describe('recall without guessing: labels and forms', () => {
  const named = (name: string, label: string) => labelScore(field(name), label, true) >= LABEL_MATCH;

  it('words a label may use for a field’s words: the contractor of a service, a stay’s arrival and departure', () => {
    expect(named('service_provider', 'Contractor')).toBe(true);
    expect(named('check_in_date', 'Arrival')).toBe(true);
    expect(named('check_in_date', 'Check-in')).toBe(true);
    expect(named('check_out_date', 'Departure')).toBe(true);
    // the other end of the stay is not it
    expect(named('check_in_date', 'Departure')).toBe(false);
    expect(named('check_in_date', 'Check-out')).toBe(false);
    expect(named('check_out_date', 'Arrival')).toBe(false);
    expect(named('check_out_date', 'Check-in')).toBe(false);
  });

  it('a lease’s or a renewal’s field is labelled without the document’s word; "Commencing" is a start', () => {
    expect(named('lease_term', 'Term')).toBe(true);
    expect(named('renewal_start_date', 'Commencing')).toBe(true);
    expect(named('lease_term', 'Rent review')).toBe(false);
    // "sales" names the kind of tax, which a receipt's label leaves out
    expect(named('sales_tax', 'Estimated tax')).toBe(true);
    expect(named('sales_tax', 'Shipping')).toBe(false);
  });

  it('a form’s label in the middle of a row whose first column is another block', () => {
    const table = [
      '| Sonnenweg 2 | FOLIO NO. | 7731 |',
      '| --- | --- | --- |',
      '|  | GUEST | Ines Moreau |',
      '| 3012 Bern | ROOM NO. | 118 |',
    ].join('\n');
    // (before: no label, so no value)
    expect(best(field('guest_name'), table)).toBe('Ines Moreau');
    expect(best(field('folio_number'), table)).toBe('7731');
  });

  it('a table row of one cell is a line; an identifier after its label', () => {
    const table = ['| Booking reference QX-4471-09 |  |  |', '| --- | --- | --- |', '| Item | Qty | Price |'].join(
      '\n',
    );
    // (before: a table row was never read as a line)
    expect(best(field('booking_reference'), table)).toBe('QX-4471-09');
    expect(best(field('booking_reference'), 'Booking reference the one on your ticket')).toBeUndefined();
  });

  it('two statements naming a field with different values: which one is not known', () => {
    const two = statedValues(
      field('average_monthly_usage'),
      fieldKind(field('average_monthly_usage')),
      'Your average monthly usage was 412 kWh. Households like yours have an average monthly usage of 350 kWh.',
    );
    expect(two).toEqual([]);
    const one = statedValues(
      field('average_monthly_usage'),
      fieldKind(field('average_monthly_usage')),
      'Your average monthly usage was 412 kWh and a peak demand of 9 kW.',
    );
    expect(one.map((f) => f.value)).toEqual(['412 kWh']);
  });

  it('a date in a table’s value cell, labelled by the words before it in the cell', () => {
    const table = [
      '| Reference | Framework Contract signed 3 June 2024 |',
      '| --- | --- |',
      '| Buyer | Lumen AG |',
    ].join('\n');
    // (before: a table row's cells were not read for a date after its words)
    expect(best(field('framework_contract_date'), table)).toBe('3 June 2024');
    expect(best(field('delivery_date'), table)).toBeUndefined();
  });

  it('an identifier labelled by its thing alone, a code with a digit; the evidence check accepts the same', () => {
    const table = ['| Deck 4 | CABIN | 7021 |', '| --- | --- | --- |', '|  | BOOKING | 12.03.2026 |'].join('\n');
    // (before: "CABIN" lacked "number")
    expect(best(field('cabin_number'), table)).toBe('7021');
    // a date or words are not an identifier
    expect(best(field('booking_number'), table)).toBeUndefined();
    expect(identifierNamedIn(field('cabin_number'), '| Deck 4 | CABIN | 7021 |', '7021')).toBe(true);
    expect(identifierNamedIn(field('cabin_number'), '| Deck 4 | GUESTS | 7021 |', '7021')).toBe(false);
  });

  it('a field asking for an absolute rating is not read from a Min/Typ/Max characteristics table', () => {
    const table = [
      '| Parameter | Min. | Typ. | Max. | Unit |',
      '| --- | --- | --- | --- | --- |',
      '| Input voltage | 4.5 | 12 | 28 | V |',
    ].join('\n');
    // (before: 28 V, the operating maximum, for the absolute maximum)
    expect(best(field('max_input_voltage', 'Absolute maximum input voltage'), table)).toBeUndefined();
    expect(best(field('max_input_voltage'), table)).toBe('28 V');
    // a limits table without a Typ column may be the absolute ratings
    const ratings = [
      '| Parameter | Min | Max | Unit |',
      '| --- | --- | --- | --- |',
      '| Input voltage | -0.3 | 40 | V |',
    ].join('\n');
    expect(best(field('max_input_voltage', 'Absolute maximum input voltage'), ratings)).toBe('40 V');
  });

  it('a code, not the dimensions after it', () => {
    expect(codeBeforeDimensions(fieldKind(field('package')), 'QFN-32, 5 x 5 x 0.9 mm')).toEqual({
      value: 'QFN-32',
      dropped: ['5 x 5 x 0.9 mm'],
    });
    expect(codeBeforeDimensions(fieldKind(field('package')), 'QFN-32, lead-free').value).toBe('QFN-32, lead-free');
  });
});
