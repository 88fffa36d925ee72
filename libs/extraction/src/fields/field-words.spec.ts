// SPDX-License-Identifier: AGPL-3.0-or-later
import { fieldKind } from './field-kinds.js';
import { labelScore, LABEL_MATCH } from './field-words.js';
import type { SchemaField } from '../schema-fields.js';
import { schemaFields } from '../schema-fields.js';

const field = (name: string, hint: unknown = ''): SchemaField => ({ path: [name], kind: 'scalar', hint });
/** As the offline extractor reads a label (a table row's label cell, the text before a colon). */
const labelMatches = (f: SchemaField, label: string) => labelScore(f, label, true) >= LABEL_MATCH;

/**
 * Issue 26, generalisation: a caller's schema says the same thing in many words. Common wordings for invoices,
 * contracts and datasheets must match the labels documents print, from the words alone (context words such as
 * "invoice" or "name" may be left out by a label, synonyms count), and a label naming another thing must not.
 */
describe('labelMatches (schema wordings against printed labels)', () => {
  const cases: [string, string[], string[]][] = [
    // field, labels it must match, labels it must not
    [
      'invoice_total',
      ['Total', 'Grand total', 'Total due', 'Invoice total', 'Amount due'],
      ['Subtotal', 'Net amount', 'Total VAT', 'Invoice date'],
    ],
    [
      'amount_due',
      ['Amount due', 'Balance due', 'Total', 'GRAND TOTAL', 'Total amount payable'],
      ['Due date', 'Net amount', 'Change', 'Tax'],
    ],
    ['total_amount', ['Total', 'Total amount'], ['Unit price', 'Discount amount']],
    ['governing_law', ['Governing law', 'Applicable law', 'Governing Law and Jurisdiction'], ['Payment terms', 'Term']],
    [
      'effective_date',
      ['Effective date', 'Commencement date', 'Commencement', 'Date of commencement'],
      ['Expiry date', 'Date of birth', 'Invoice date'],
    ],
    ['commencement_date', ['Start date', 'Effective Date', 'Commencement'], ['End date']],
    ['contract_duration', ['Duration', 'Term', 'Initial term', 'Contract period'], ['Payment terms', 'Term end date']],
    [
      'rated_current',
      ['Rated current', 'Nominal current', 'Rated operational current Ie', 'Rated current [A]'],
      ['Current', 'Peak current', 'Rated voltage'],
    ],
    ['rated_voltage', ['Rated voltage', 'Nominal voltage', 'Rated voltage [V]'], ['Voltage constant', 'Rated current']],
    [
      'operating_temperature',
      ['Operating temperature', 'Ambient temperature', 'Operating temperature range'],
      ['Storage temperature'],
    ],
    ['seller_name', ['Seller', 'Vendor', 'Seller name', 'Sold by'], ['Seller address', 'Seller VAT', 'Buyer address']],
    ['vendor', ['Vendor', 'Merchant', 'Supplier'], ['Vendor address', 'Vendor phone']],
    ['transaction_date', ['Date', 'Transaction date'], ['Time', 'Due time']],
    ['invoice_date', ['Invoice date', 'Date', 'Statement date'], ['Invoice no.', 'Due amount']],
    ['parties', ['Parties', 'Licensor', 'Licensee', 'Supplier', 'Customer'], ['Term', 'Governing law']],
  ];
  it.each(cases)('%s', (name, yes, no) => {
    const f = field(name);
    expect(yes.filter((label) => !labelMatches(f, label))).toEqual([]);
    expect(no.filter((label) => labelMatches(f, label))).toEqual([]);
  });

  it('reads a label word cut short with a full stop as the words it begins (three letters or more)', () => {
    expect(labelMatches(field('operating_temperature'), 'Operating temp. range')).toBe(true);
    expect(labelMatches(field('operating_temperature'), 'Amb. temp.')).toBe(true);
    expect(labelMatches(field('invoice_number'), 'Inv. No.')).toBe(true);
    expect(labelMatches(field('quantity'), 'Qty')).toBe(true);
    // a cut word must begin the field's word; "No." is not "nominal", "Temp." not "storage"
    expect(labelMatches(field('rated_voltage'), 'Inv. No.')).toBe(false);
    expect(labelMatches(field('operating_temperature'), 'Stor. temp.')).toBe(false);
  });

  it('as evidence (label and value together) a snippet may name other things', () => {
    expect(labelScore(field('term'), 'Term: two (2) years from the Effective Date')).toBeGreaterThanOrEqual(
      LABEL_MATCH,
    );
    expect(labelScore(field('term'), 'Term end date', true)).toBe(0);
  });

  it('a field named only by context words still needs them ("invoice_name" is not any name)', () => {
    expect(labelMatches(field('invoice_name'), 'Invoice name')).toBe(true);
    expect(labelMatches(field('invoice_name'), 'Seller')).toBe(false);
  });

  it('a description in the schema counts as another name', () => {
    const f = field('x1', 'Total amount payable incl. VAT');
    expect(labelMatches(f, 'Total amount payable')).toBe(true);
    expect(labelMatches(f, 'Delivery address')).toBe(false);
  });
});

describe('fieldKind (what a schema wording wants)', () => {
  it.each([
    ['invoice_total', 'money'],
    ['amount_due', 'money'],
    ['effective_date', 'date'],
    ['commencement_date', 'date'],
    ['transaction_date', 'date'],
    ['contract_duration', 'duration'],
    ['term', 'duration'],
    ['rated_current', 'quantity'],
    ['governing_law', 'text'],
  ])('%s is a %s', (name, kind) => {
    expect(fieldKind(field(name)).kind).toBe(kind);
  });

  describe('taxes by their names, and amounts with or without them (issue 26, round 4)', () => {
    const f = (name: string, hint = '') => schemaFields({ [name]: hint })[0]!;
    it('"Total incl. GST" is a total including tax, not a tax amount; "Total VAT" is a tax amount', () => {
      expect(labelScore(f('total_including_tax'), 'Total incl. GST', true)).toBeGreaterThanOrEqual(LABEL_MATCH);
      expect(labelScore(f('tax_amount'), 'Total incl. GST', true)).toBe(0);
      expect(labelScore(f('tax_amount'), 'Total excl. VAT', true)).toBe(0);
      expect(labelScore(f('tax_amount'), 'Total VAT', true)).toBeGreaterThanOrEqual(LABEL_MATCH);
      expect(labelScore(f('total_including_tax'), 'Total VAT', true)).toBeLessThan(LABEL_MATCH);
      expect(labelScore(f('total_including_tax'), 'GST 10%', true)).toBeLessThan(LABEL_MATCH);
    });
  });
});
