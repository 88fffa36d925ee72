// SPDX-License-Identifier: AGPL-3.0-or-later
import { amountBeforeTerms, fieldKind, misfit } from '../fields/field-kinds.js';
import type { SchemaField } from '../schema-fields.js';
import { candidatesIn, modelRowCandidates } from './local-extractor.js';
import {
  amountExtent,
  dateOrDurationExtent,
  nameExtent,
  unitAsPrinted,
  valueExtent,
  wantsName,
  withoutCondition,
} from './value-extent.js';

// Issue 26, round 8: a value's extent from its field's type; each rule on text no bench document prints.
const field = (name: string, hint = '', path: string[] = [name]): SchemaField => ({ path, kind: 'scalar', hint });
const extent = (name: string, value: string, hint = '') => {
  const f = field(name, hint);
  return valueExtent(f, fieldKind(f), value);
};
const tableValue = (name: string, content: string, hint = '') => {
  const f = field(name, hint);
  return candidatesIn(f, fieldKind(f), [], 'h1-t1', content, 0, undefined, [], undefined, new Map(), [])[0]?.value;
};

describe('a name ends where its address, description or role begins', () => {
  it('a field naming a party or a name wants the name alone; one asking for an address or number does not', () => {
    expect(wantsName(field('lessor'))).toBe(true);
    expect(wantsName(field('installation_contractor'))).toBe(true);
    expect(wantsName(field('insurer_name'))).toBe(true);
    expect(wantsName(field('name', '', ['guarantor', 'name']))).toBe(true);
    expect(wantsName(field('lessor_address'))).toBe(false);
    expect(wantsName(field('address', '', ['guarantor', 'address']))).toBe(false);
    expect(wantsName(field('customer_number'))).toBe(false);
    expect(wantsName(field('lessor', 'Name and address of the lessor'))).toBe(false);
    expect(wantsName(field('name'))).toBe(false);
  });

  it('an address after a comma is dropped and named', () => {
    expect(nameExtent(field('lessor'), 'Fjellhaug Maskin AS, Industriveien 42, 7080 Heimdal, Norway')).toEqual({
      value: 'Fjellhaug Maskin AS',
      dropped: ['Industriveien 42, 7080 Heimdal, Norway'],
    });
    expect(nameExtent(field('vendor'), 'Quillon Tools Inc., 2210 Mercer Avenue, Dayton, OH 45402').value).toBe(
      'Quillon Tools Inc.',
    );
    expect(nameExtent(field('buyer'), 'Harbeck & Sons, Unit 3, Lowfield Works').value).toBe('Harbeck & Sons');
  });

  it('an address the converter joined to the name (its next line) is dropped', () => {
    expect(nameExtent(field('seller'), 'Brenner Feinmechanik GmbH Lindenstraße 14 70563 Stuttgart').value).toBe(
      'Brenner Feinmechanik GmbH',
    );
    expect(nameExtent(field('seller'), 'Officine Sarti S.r.l. Via Garibaldi 88 40121 Bologna').value).toBe(
      'Officine Sarti S.r.l.',
    );
    expect(nameExtent(field('seller'), 'Atelier Mirabeau 14 rue des Lilas 69003 Lyon').value).toBe('Atelier Mirabeau');
    expect(nameExtent(field('guarantor'), 'Oluwaseun Adeyemi 7 Birchmead Road Swindon SN3 4PL').value).toBe(
      'Oluwaseun Adeyemi',
    );
  });

  it('a description or a role after the name is dropped', () => {
    expect(nameExtent(field('lessee'), 'Ingrid Solheim currently residing at Flat 2, 9 Marsh Lane').value).toBe(
      'Ingrid Solheim',
    );
    expect(nameExtent(field('licensee'), 'Verdant Labs GmbH whose registered office is in Graz').value).toBe(
      'Verdant Labs GmbH',
    );
    expect(nameExtent(field('licensor'), 'Corvid Media Ltd (the "Licensor")').value).toBe('Corvid Media Ltd');
    expect(nameExtent(field('licensee'), 'Tessaly Robotics Inc., a Delaware corporation').value).toBe(
      'Tessaly Robotics Inc.',
    );
  });

  it('a registration or contact line after the name is dropped', () => {
    expect(nameExtent(field('contractor'), 'Wexcombe Scaffolding Ltd (Company No. 08812345)').value).toBe(
      'Wexcombe Scaffolding Ltd',
    );
    expect(nameExtent(field('supplier'), 'Kookaburra Freight Pty Ltd ABN 51 824 753 556').value).toBe(
      'Kookaburra Freight Pty Ltd',
    );
    expect(nameExtent(field('merchant_name'), 'Café Orsolya Tel. +36 1 555 0142').value).toBe('Café Orsolya');
  });

  it('a job title after a comma and an e-mail address are dropped', () => {
    expect(nameExtent(field('client_contact'), 'Rosalind Achterberg, Head of Facilities').value).toBe(
      'Rosalind Achterberg',
    );
    expect(nameExtent(field('contact_name'), 'Tevita Fifita <t.fifita@example.org>').value).toBe('Tevita Fifita');
  });

  it('a name with a comma, a bracket or a number of its own is kept', () => {
    expect(nameExtent(field('supplier'), 'Marsh, Tolley & Greaves LLP').value).toBe('Marsh, Tolley & Greaves LLP');
    expect(nameExtent(field('supplier'), 'Orbis (Scotland) Ltd').value).toBe('Orbis (Scotland) Ltd');
    expect(nameExtent(field('supplier'), 'Bank of Tallinn').value).toBe('Bank of Tallinn');
    expect(nameExtent(field('supplier'), 'Pier 39 Traders').value).toBe('Pier 39 Traders');
    // an address word without a number, a number and a legal form, a contact word in the name, a comma in a firm's name
    expect(nameExtent(field('supplier'), 'The Flat Iron Company').value).toBe('The Flat Iron Company');
    expect(nameExtent(field('supplier'), 'Vantage 2000 Ltd').value).toBe('Vantage 2000 Ltd');
    expect(nameExtent(field('supplier'), 'Kerrow Telephone Services Ltd').value).toBe('Kerrow Telephone Services Ltd');
    expect(nameExtent(field('supplier'), 'Wells, Head & Partners Ltd').value).toBe('Wells, Head & Partners Ltd');
    // not for a field that asks for the address
    expect(nameExtent(field('lessor_address'), 'Fjellhaug Maskin AS, Industriveien 42').value).toBe(
      'Fjellhaug Maskin AS, Industriveien 42',
    );
  });
});

describe('an amount is the amount, not the terms printed after it', () => {
  it('charges, deposits and premiums are amounts (as the name’s last word)', () => {
    expect(fieldKind(field('service_charge')).kind).toBe('money');
    expect(fieldKind(field('holding_deposit')).kind).toBe('money');
    expect(fieldKind(field('insurance_premium')).kind).toBe('money');
    expect(fieldKind(field('charge_time')).kind).not.toBe('money');
    expect(fieldKind(field('charge_voltage')).kind).toBe('quantity');
    // an electric charge is not money
    expect(fieldKind(field('total_gate_charge')).kind).not.toBe('money');
    expect(fieldKind(field('state_of_charge')).kind).not.toBe('money');
  });

  it('the terms after an amount are dropped and named; the currency stays as printed', () => {
    expect(amountExtent(field('service_charge'), fieldKind(field('service_charge')), 'CHF 4200 + VAT')).toEqual({
      value: 'CHF 4200',
      dropped: ['+ VAT'],
    });
    expect(extent('service_charge', '€2.750,00 excl. VAT, due monthly in arrears')).toMatchObject({
      value: '€2.750,00',
      dropped: ['excl. VAT, due monthly in arrears'],
    });
    expect(extent('holding_deposit', '$1,275.50 payable on signing').value).toBe('$1,275.50');
    expect(extent('holding_deposit', '$1,275.50 plus VAT at 20 %').value).toBe('$1,275.50');
    expect(extent('service_charge', 'AUD 640 monthly').value).toBe('AUD 640');
    expect(extent('insurance_premium', '£212.40 inc VAT').value).toBe('£212.40');
    // a kind check sees the amount in it
    expect(misfit(fieldKind(field('service_charge')), '€2.750,00 excl. VAT, due monthly in arrears')).toBeUndefined();
  });

  it('two amounts, a field asking for the terms, and a plain amount are unchanged', () => {
    expect(amountBeforeTerms('£310.00 plus £62.00 VAT')).toBeUndefined();
    expect(extent('holding_deposit', '£310.00 plus £62.00 VAT').value).toBe('£310.00 plus £62.00 VAT');
    expect(extent('service_charge', '€2.750,00 excl. VAT', 'Charge with its payment terms').value).toBe(
      '€2.750,00 excl. VAT',
    );
    expect(extent('service_charge', '€2.750,00').dropped).toEqual([]);
    expect(extent('service_charge', '30 per cent').value).toBe('30 per cent');
  });

  it('a table cell holding an amount and its terms is one value, not a block of cells', () => {
    expect(
      tableValue('cleaning_charge', '| K | Cleaning charge | NZD 1,940.00 plus GST, invoiced every second month |'),
    ).toBe('NZD 1,940.00 plus GST, invoiced every second month');
  });
});

describe('a measured value is its number and unit, not the condition it was measured at', () => {
  it('"at", "@", "with", "under" and what follows are dropped and named', () => {
    expect(withoutCondition(field('leakage_current'), fieldKind(field('leakage_current')), '3 µA at 85 °C')).toEqual({
      value: '3 µA',
      dropped: ['at 85 °C'],
    });
    expect(extent('output_voltage', '12 V DC under full load').value).toBe('12 V DC');
    expect(extent('rated_power', '7.5 kW (at 40 °C ambient)').value).toBe('7.5 kW');
    expect(extent('holding_torque', '1.9 N·m @ 2 A').value).toBe('1.9 N·m');
  });

  it('a table cell holding a value and its condition is the value (two values of the quantity are not)', () => {
    const f = field('leakage_current');
    expect(misfit(fieldKind(f), '3 µA at 85 °C')).toBeUndefined();
    expect(misfit(fieldKind(f), '3 µA at 85 °C, 9 µA at 125 °C')).toMatch(/several numbers/);
    expect(tableValue('leakage_current', '| Leakage current | 3 µA at 85 °C |')).toBe('3 µA at 85 °C');
  });

  it('lower-case words after the unit are dropped; a unit written as a word stays', () => {
    expect(extent('switching_current', '6 A continuous').value).toBe('6 A');
    expect(extent('supply_voltage', '400 V AC three phase').value).toBe('400 V AC');
    expect(extent('input_power', '40 watts').value).toBe('40 watts');
    expect(extent('input_power', '40 W').dropped).toEqual([]);
  });

  it('a resistance written with a prefix before "Ohm" in letters is a resistance', () => {
    const f = field('winding_resistance');
    expect(misfit(fieldKind(f), '120 mOhm')).toBeUndefined();
    expect(misfit(fieldKind(f), '2.2 kohm')).toBeUndefined();
    expect(misfit(fieldKind(f), '120 mA')).toMatch(/unit/);
  });

  it('a unit of another quantity, a range, text, or a field asking for the value as printed stay', () => {
    expect(extent('leakage_current', '85 °C at 3 µA').value).toBe('85 °C at 3 µA');
    expect(extent('leakage_current', '3 µA at 85 °C', 'as printed').value).toBe('3 µA at 85 °C');
    expect(extent('coating', '40 µm at the edges').value).toBe('40 µm at the edges');
  });

  it('a "Condition" column after the labels is the row’s condition, never its value nor its unit', () => {
    const table = [
      '| Ref | Quantity |  | Condition | Rating |',
      '| --- | --- | --- | --- | --- |',
      '| 1 | Energy | Typical | 1C charge, 20 °C | 52 Wh |',
      '| 2 | Leakage current | Max. | at 60 °C | 4 µA |',
    ].join('\n');
    expect(tableValue('typical_energy', table)).toBe('52 Wh');
    expect(tableValue('max_leakage_current', table)).toBe('4 µA');
  });
});

describe('a date is the date, a length of time the length', () => {
  it('the words around the one date or length are dropped and named', () => {
    expect(extent('renewal_date', 'Tuesday, 3 November 2026 — Renewal notice')).toMatchObject({
      value: '3 November 2026',
      dropped: ['Tuesday', '— Renewal notice'],
    });
    expect(extent('notice_period', 'ninety (90) days after written notice').value).toBe('ninety (90) days');
  });

  it('two dates or lengths, a time a field asks for, and a bare value stay', () => {
    expect(dateOrDurationExtent(field('signed'), fieldKind(field('signed')), 'signed').value).toBe('signed');
    expect(extent('renewal_date', '3 November 2026 or 3 May 2027').value).toBe('3 November 2026 or 3 May 2027');
    expect(extent('notice_period', '30 days, or 14 days on breach').value).toBe('30 days, or 14 days on breach');
    expect(extent('pickup_date_time', '03/11/2026 at 07:45').value).toBe('03/11/2026 at 07:45');
    expect(extent('renewal_date', '3 November 2026').dropped).toEqual([]);
  });
});

describe('a unit taken from a table header is written as the page prints it beside a value', () => {
  it('without the brackets that set it apart from the column title', () => {
    expect(unitAsPrinted('(l/min)')).toBe('l/min');
    expect(unitAsPrinted('[Pa]')).toBe('Pa');
    expect(unitAsPrinted('A (rms)')).toBe('A (rms)');
  });

  it('in a per-model dict read from a table of one model per row, and in the target model’s value', () => {
    const table = [
      '| Type | Thread | Flow | Mass |',
      '| --- | --- | --- | --- |',
      '|  |  | (l/min) | (g) |',
      '| QV-408 | M5 | 35 | 12 |',
      '| QV-816 | G 1/8 | 90 | 21 |',
    ].join('\n');
    const flow: SchemaField = { path: ['flow_per_model'], kind: 'dict', hint: {} };
    expect(modelRowCandidates(flow, fieldKind(flow), table, 'h1-t1', 0, undefined)[0]?.value).toEqual({
      'QV-408': '35 l/min',
      'QV-816': '90 l/min',
    });
    const mass = field('mass');
    expect(modelRowCandidates(mass, fieldKind(mass), table, 'h1-t1', 0, 'QV-816')[0]?.value).toBe('21 g');
  });
});
