// SPDX-License-Identifier: AGPL-3.0-or-later
import type { SchemaField } from '../schema-fields.js';
import { dateLineFromTop, isDocumentDate, issuerFromTop, issuerRole } from './issuer-block.js';

const field = (name: string): SchemaField => ({ path: [name], kind: 'scalar', hint: '' });
const schema = (...names: string[]) => names.map(field);

// Issue 26, round 3: the issuer printed without a label at the top of an invoice or receipt
describe('issuerRole (which fields ask for the issuer)', () => {
  it('names the issuer and its address; a bare address only beside an issuer name field', () => {
    const fields = schema('vendor', 'date', 'address', 'total');
    expect(fields.map((f) => issuerRole(f, fields))).toEqual(['name', undefined, 'address', undefined]);
    const invoice = schema('seller_name', 'seller_address', 'invoice_date', 'customer_address', 'billing_address');
    expect(invoice.map((f) => issuerRole(f, invoice))).toEqual(['name', 'address', undefined, undefined, undefined]);
    // no issuer field: a bare address could be anyone's
    const other = schema('customer', 'address');
    expect(other.map((f) => issuerRole(f, other))).toEqual([undefined, undefined]);
    expect(issuerRole(field('vendor_phone'), [])).toBeUndefined();
    expect(issuerRole(field('supplier_vat_number'), [])).toBeUndefined();
  });

  it('answers for two fields named "address" under different parents (it once recursed without end)', () => {
    const nested = (...path: string[]): SchemaField => ({ path, kind: 'scalar', hint: '' });
    const parties = [nested('owner', 'name'), nested('owner', 'address'), nested('occupant', 'address')];
    expect(parties.map((f) => issuerRole(f, parties))).toEqual([undefined, undefined, undefined]);
    const shop = [field('vendor'), nested('shop', 'address'), nested('branch', 'address')];
    expect(shop.map((f) => issuerRole(f, shop))).toEqual(['name', 'address', 'address']);
  });
});

describe('issuerFromTop (the first lines of the document)', () => {
  const till =
    '# Blue Heron Cafe\n\n12 Harbour Street, Portsmouth PO1 2AB\n\nDate 03/14/2024\n\n| Item | Qty | Amount |';
  it("reads a till receipt's heading and the address line under it", () => {
    expect(issuerFromTop(till, 'name')).toEqual({ value: 'Blue Heron Cafe', snippet: '# Blue Heron Cafe' });
    expect(issuerFromTop(till, 'address')?.value).toBe('12 Harbour Street, Portsmouth PO1 2AB');
  });

  it("reads an invoice's left column after its title, address lines joined", () => {
    const invoice = [
      '# INVOICE',
      '',
      '| Kaffeehaus Morgenrot GmbH |  | Invoice no.: 5-0042 |',
      '| --- | --- | --- |',
      '| Lindenstrasse 14 |  | Invoice date: 04.03.2025 |',
      '| 10969 Berlin |  | Payment terms: 30 days |',
      '| Description | Qty | Amount |',
    ].join('\n');
    expect(issuerFromTop(invoice, 'name')?.value).toBe('Kaffeehaus Morgenrot GmbH');
    expect(issuerFromTop(invoice, 'address')).toEqual({
      value: 'Lindenstrasse 14, 10969 Berlin',
      snippet: '| Lindenstrasse 14 |  | Invoice date: 04.03.2025 |\n| 10969 Berlin |  | Payment terms: 30 days |',
    });
  });

  it('reads "Statement from X" as X, with no address', () => {
    const statement = '# Statement from The Copper Kettle Tearoom\n\nStatement date: 2025/10/17';
    expect(issuerFromTop(statement, 'name')?.value).toBe('The Copper Kettle Tearoom');
    expect(issuerFromTop(statement, 'address')).toBeUndefined();
  });

  it('claims nothing when the top is a labelled row, a sentence, an address or an amount', () => {
    expect(issuerFromTop('Purchase record\n\n| Merchant | Harbourside Outdoor Supplies |  |', 'name')).toBeUndefined();
    expect(issuerFromTop('# Receipt\n\nThank you for shopping with us today.', 'name')).toBeUndefined();
    expect(issuerFromTop('# Receipt\n\n12 Harbour Street\n\nPortsmouth', 'name')).toBeUndefined();
    expect(issuerFromTop('# Receipt\n\nTOTAL $12.96', 'name')).toBeUndefined();
    expect(issuerFromTop('# Receipt\n\nVendor: Acme', 'name')).toBeUndefined();
    // the address ends at its postcode: a table number after it is not part of it
    expect(
      issuerFromTop('# Trattoria Il Faro\n\nVia del Porto 5, 16128 Genova\n\nTable 12 Covers 2', 'address')?.value,
    ).toBe('Via del Porto 5, 16128 Genova');
    expect(issuerFromTop('# Cafe\n\n3 Market Place\n\nTable 12 Covers 2', 'address')?.value).toBe('3 Market Place');
    // a name with no address line after it: no address (a date is not one)
    expect(issuerFromTop('# Blue Heron Cafe\n\nDate 03/14/2024', 'address')).toBeUndefined();
  });
});

describe('issuerFromTop: a block under a label of its own (issue 26, round 4)', () => {
  it("reads the issuer's label line as a label: the name is the line under it, both lines the evidence", () => {
    const po = '# PURCHASE ORDER\n\nVendor\nRhein-Ventil GmbH\nIndustriestr. 12\n68169 Mannheim, Germany';
    expect(issuerFromTop(po, 'name')).toEqual({ value: 'Rhein-Ventil GmbH', snippet: 'Vendor\nRhein-Ventil GmbH' });
    expect(issuerFromTop('# ORDER\n\nSupplier:\nNordlicht Pumpen AG', 'name')?.value).toBe('Nordlicht Pumpen AG');
  });

  it("claims nothing for a block under another party's label ('Invoice to', 'Bill to', 'Customer')", () => {
    expect(
      issuerFromTop('# INVOICE\n\nInvoice to\nCoastal Living Interiors\n3/88 Marine Parade', 'name'),
    ).toBeUndefined();
    expect(issuerFromTop('# INVOICE\n\nBill To\nHarbor Point LLP', 'name')).toBeUndefined();
    expect(issuerFromTop('Customer\nHarrow & Vale Architects', 'name')).toBeUndefined();
  });
});

describe("a till receipt's bare date line", () => {
  it("takes the one date a top line starts with, for the schema's one document date", () => {
    const top = '# THE COPPER KETTLE TEAROOM\n\n3 Market Place\n\nLudlow SY8 1AB\n\n2025/10/17 14:22 Till 3';
    expect(dateLineFromTop(top)).toEqual({ value: '2025/10/17', snippet: '2025/10/17 14:22 Till 3' });
    // two different dates starting lines: which is the receipt's is not known
    expect(dateLineFromTop('# Shop\n\n2025/10/17 14:22\n\n2025/10/18 Returned')).toBeUndefined();
    // a date inside a sentence does not start its line
    expect(dateLineFromTop('# Shop\n\nValid until 2025/10/17')).toBeUndefined();
    const isDate = (f: SchemaField) => /date/.test(f.path[0]!);
    const receipt = schema('merchant_name', 'transaction_date', 'amount_due');
    expect(isDocumentDate(receipt[1]!, receipt, isDate)).toBe(true);
    const two = schema('invoice_date', 'due_date');
    expect(isDocumentDate(two[0]!, two, isDate)).toBe(false);
    expect(isDocumentDate(field('effective_date'), [field('effective_date')], isDate)).toBe(false);
  });
});
