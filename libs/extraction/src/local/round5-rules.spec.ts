// SPDX-License-Identifier: AGPL-3.0-or-later
import { fieldKind, quantityOfUnit } from '../fields/field-kinds.js';
import { labelScore, LABEL_MATCH } from '../fields/field-words.js';
import type { SchemaField } from '../schema-fields.js';
import { issuerFromTop, issuerRole } from './issuer-block.js';
import { candidatesIn, hintNamesCondition, tableHeaderAbove, wordsWanted } from './local-extractor.js';
import { proseCandidates, statedValues } from './prose-patterns.js';

// Issue 26, round 5: the causes of fresh variant 9's misses, each rule on text none of the bench documents prints.
const field = (name: string, hint = ''): SchemaField => ({ path: [name], kind: 'scalar', hint });

/** The best candidate's value of one chunk for a field, as the offline extractor reads it (undefined: none). */
const best = (f: SchemaField, content: string, others: SchemaField[] = []) => {
  const found = candidatesIn(f, fieldKind(f), [], 'h2-t1', content, 0, undefined, [], undefined, new Map(), others);
  return found.sort((a, b) => b.score - a.score)[0]?.value;
};

describe('a table with a Unit column and a test-conditions column', () => {
  const table = [
    '| Characteristic | Sym. | Conditions | Typ. value | Units |',
    '| --- | --- | --- | --- | --- |',
    '| Supply voltage | VCC | operating | 24 | V |',
    '| Leakage current | IL | VR = 50 V | 5 | nA |',
    '| Leakage current | IL | VR = 400 V | 20 | nA |',
    '| Switching frequency | fSW | CL = 1 nF | 1.2 | MHz |',
  ].join('\n');

  it('reads the unit from the row’s Unit cell (before: no unit, so the value did not fit a voltage)', () => {
    expect(best(field('supply_voltage'), table)).toBe('24 V');
    expect(best(field('switching_frequency'), table)).toBe('1.2 MHz');
  });

  it('two rows of one parameter under different conditions: the one the description names, else ambiguous', () => {
    expect(best(field('leakage_current', 'Leakage at 400 V reverse voltage'), table)).toBe('20 nA');
    // no description naming a condition: both rows share one label, and the caller's same-label check nulls it
    const seen = new Map<string, Set<string>>();
    const f = field('leakage_current');
    candidatesIn(f, fieldKind(f), [], 'h2-t1', table, 0, undefined, [], undefined, seen);
    expect(seen.get('h2|Leakage current IL')?.size).toBe(2);
  });

  it('matches a condition by its whole number and unit', () => {
    expect(hintNamesCondition(field('x', 'at full load (500 mA)'), 'IOUT = 500 mA')).toBe(true);
    expect(hintNamesCondition(field('x', 'at 500 mA'), 'IOUT = 1500 mA')).toBe(false);
    expect(hintNamesCondition(field('x', ''), 'IOUT = 500 mA')).toBe(false);
    expect(
      tableHeaderAbove(
        [
          ['A', 'B'],
          ['---', '---'],
          ['1', '2'],
        ],
        2,
      ),
    ).toEqual(['A', 'B']);
  });
});

describe('values stated in prose after their name', () => {
  const text = [
    'The unit has an idle power draw of 4.5 W and a supply voltage of 12 V, and it',
    'delivers a torque of up to 3.2 N·m. A full refill of the tank takes about',
    '40 minutes. The housing weighs 1.4 kg and measures 120 x 80 x 45 mm.',
    'Your monthly rent will be €950 per month. The return period for unused parts is two weeks, in writing.',
    'We will send the parts on or after 3 June 2027.',
  ].join('\n');
  const stated = (name: string, hint = '') => statedValues(field(name, hint), fieldKind(field(name, hint)), text);

  it('takes the value right after "of", "is", "will be", "takes about", "weighs", "measures", "on or after"', () => {
    expect(stated('supply_voltage').map((c) => c.value)).toEqual(['12 V']);
    expect(stated('torque').map((c) => c.value)).toEqual(['3.2 N·m']);
    expect(stated('refill_time', 'Time for a full refill').map((c) => c.value)).toEqual(['40 minutes']);
    expect(stated('weight').map((c) => c.value)).toEqual(['1.4 kg']);
    expect(stated('dimensions').map((c) => c.value)).toEqual(['120 x 80 x 45 mm']);
    expect(stated('monthly_rent').map((c) => c.value)).toEqual(['€950']);
    expect(stated('return_period').map((c) => c.value)).toEqual(['two weeks']);
    expect(stated('dispatch_date', 'When the parts are sent').map((c) => c.snippet)).toEqual([]);
  });

  it('takes nothing when the words before the link do not name the field, or the value is not of its kind', () => {
    // "idle power draw of 4.5 W" is not a supply voltage; no other voltage is named
    expect(stated('output_voltage')).toEqual([]);
    // a date field and a number with a unit: not a date
    expect(stated('supply_date')).toEqual([]);
    // free text is never taken this way
    expect(
      statedValues(field('colour'), fieldKind(field('colour')), 'The colour of the housing is Signal Red.'),
    ).toEqual([]);
  });
});

describe('smaller rules', () => {
  it('a field named for words takes no value without a letter (a phone number beside "Customer service")', () => {
    expect(wordsWanted(field('customer_name'), '0345 600 1234')).toMatch(/no letters/);
    expect(wordsWanted(field('fuel_type'), '70.57')).toMatch(/no letters/);
    expect(wordsWanted(field('customer_name'), 'Mrs H. Ashworth')).toBeUndefined();
    expect(wordsWanted(field('account_number'), '7731 0042 9156')).toBeUndefined();
    expect(best(field('customer_name'), 'Customer service  0345 600 1234')).toBeUndefined();
  });

  it('an amount and how often it is due gives the amount', () => {
    expect(best(field('licence_fee'), '| Item | Detail |\n| --- | --- |\n| Licence Fee | NOK 12,000 per year |')).toBe(
      'NOK 12,000',
    );
  });

  it('"governed by" at the end of a line and "the laws of …" on the next', () => {
    const f = field('governing_law');
    const found = proseCandidates(
      f,
      fieldKind(f),
      'Each order and any dispute arising from it are governed by\nthe laws of the Kingdom of Norway.',
      'h1',
      0,
    );
    expect(found.map((c) => c.value)).toEqual(['Kingdom of Norway']);
  });

  it('a till receipt’s place (a station, a pharmacy) is its issuer; "Issued by" is a label, its name on the next line', () => {
    const fields = [field('station_name'), field('station_address'), field('pharmacy_name')];
    expect(fields.map((f) => issuerRole(f, fields))).toEqual(['name', 'address', 'name']);
    const top = 'Issued by\nHolmgren Kontor AB\nStorgatan 4\n211 34 Malmö\n\nCredit note no.  CN-9';
    expect(issuerFromTop(top, 'name')?.value).toBe('Holmgren Kontor AB');
  });
});

describe('labels that leave out what the value says itself', () => {
  const names = (name: string, label: string) => labelScore(field(name), label, true) >= LABEL_MATCH;

  it('a count of things is labelled by the things; an amount, a range, "paid" by what they are of', () => {
    expect(names('number_of_seats', 'Licensed seats')).toBe(true);
    expect(names('number_of_seats', 'Number of seats')).toBe(true);
    // (an identifier's number is still needed: "Order" is no `order_number`)
    expect(names('vat_amount', 'VAT 20%')).toBe(true);
    expect(names('total_paid', 'TOTAL')).toBe(true);
    expect(names('amount_paid', 'Amount paid')).toBe(true);
    expect(names('storage_temperature_range', 'Storage temperature')).toBe(true);
    // with one other word, "range" stays needed: "Max. temperature" is no `temperature_range`
    expect(names('temperature_range', 'Max. temperature')).toBe(false);
    expect(names('fill_date', 'Filled')).toBe(true);
    expect(names('fill_date', 'Fil')).toBe(false);
  });

  it('a row whose Unit cell is a temperature names a temperature field without the word', () => {
    expect(quantityOfUnit('160 °C')).toBe('temperature');
    expect(quantityOfUnit('°C')).toBeUndefined();
    const table = [
      '| Parameter | Symbol | Conditions | Value | Unit |',
      '| --- | --- | --- | --- | --- |',
      '| Shutdown | TOFF | die | 150 | °C |',
      '| Shutdown hysteresis | THYS | die | 20 | K |',
    ].join('\n');
    expect(best(field('shutdown_temperature'), table)).toBe('150 °C');
  });

  it('a range after "from" for a field that is one, the unit naming the quantity', () => {
    const text = 'In storage the temperatures may range from -25 °C to +70 °C,\nand in operation from 0 °C to +40 °C.';
    const of = (name: string) => statedValues(field(name), fieldKind(field(name)), text).map((c) => c.value);
    expect(of('storage_temperature_range')).toEqual(['-25 °C to +70 °C']);
    expect(of('operating_temperature_range')).toEqual(['0 °C to +40 °C']);
    // not a range field: "from" links nothing
    expect(of('storage_voltage')).toEqual([]);
  });
});

describe('numbered parties after "BETWEEN:", a date among other labelled values on one line', () => {
  it('reads the numbered lines after a line that opens the parties, a person "of" an address too', () => {
    const f: SchemaField = { path: ['parties'], kind: 'list', hint: [] };
    const text = [
      'THIS DEED is dated 4 May 2026',
      'BETWEEN:',
      '(1) Ostrava Rail Parts Limited, a company incorporated in Czechia (the "Seller"); and',
      '(2) Mirela Dvorak of 8 Lipova, Brno (the "Buyer").',
    ].join('\n\n');
    expect(proseCandidates(f, fieldKind(f), text, 'h1', 0).map((c) => c.value)).toEqual([
      ['Ostrava Rail Parts Limited', 'Mirela Dvorak'],
    ]);
    // numbered lines with no opening line are a list of anything (clauses, items): nothing
    const clauses = '(1) Delivery Terms apply.\n\n(2) Payment Terms apply.';
    expect(proseCandidates(f, fieldKind(f), clauses, 'h1', 0)).toEqual([]);
  });

  it('a date whose label follows another value on its line ("Ref 44812 Dispatched 03/02/2026")', () => {
    const line = 'Ref 44812 Dispatched 03/02/2026 Carrier DPD';
    expect(best(field('dispatch_date'), line)).toBe('03/02/2026');
    // the words before the date must name the field
    expect(best(field('delivery_date'), line)).toBeUndefined();
  });
});

describe('a code right before the word that names the field', () => {
  const of = (name: string, text: string) =>
    proseCandidates(field(name), fieldKind(field(name)), text, 'h1', 0).map((c) => c.value);
  it('takes a code with capitals and a digit before the field’s one word', () => {
    expect(of('package', 'Supplied in a 5-lead SC-70 package for small boards.')).toEqual(['SC-70']);
    expect(of('interface', 'It talks over an RS-485 interface at up to 1 Mbit/s.')).toEqual(['RS-485']);
  });
  it('takes nothing for a word without a digit, another word, or a field of two words', () => {
    expect(of('package', 'Supplied in a small plastic package.')).toEqual([]);
    expect(of('package', 'The SC-70 footprint is small.')).toEqual([]);
    expect(of('package_height', 'Supplied in a 5-lead SC-70 package.')).toEqual([]);
  });
});
