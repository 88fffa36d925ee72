// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePdf } from './make-pdf.js';

/**
 * A PDF string literal for the fonts' WinAnsiEncoding: Latin-1 letters and signs (°, £, ä) as octal escapes, so the
 * page prints them (make-pdf's `pdfString` keeps ASCII only and prints '?'); anything else becomes '?'.
 */
const pdfString = (text: string): string =>
  text.replace(/[\\()]|[^\x20-\x7e]/g, (c) =>
    c === '\\' || c === '(' || c === ')'
      ? `\\${c}`
      : c.charCodeAt(0) >= 0xa0 && c.charCodeAt(0) <= 0xff
        ? `\\${c.charCodeAt(0).toString(8)}`
        : '?',
  );

/**
 * Generated contracts and receipts (issue 26, beyond datasheets): real PDFs in several layouts — `Label: value`
 * lines, a two-column table, prose ("This Agreement is made on … between X and Y") for contracts; labelled lines,
 * a printed till receipt (the shop's name and address as its heading, no labels) and an invoice table for
 * receipts — each with the values a reader would write down (`expected`, null where the layout does not state
 * one). `variant` picks names, dates and amounts, so a test or the bench can run several of each.
 */
export interface BusinessDoc {
  name: string;
  kind: 'contract' | 'receipt' | 'datasheet';
  layout: string;
  pdf: Buffer;
  schema: Record<string, unknown>;
  expected: Record<string, unknown>;
}

export type Block =
  | { text: string[] }
  | { heading: string }
  | { table: string[][] }
  /** Two columns of lines side by side (a form's left and right halves). */
  | { columns: [string[], string[]] };

/**
 * One page: headings, paragraphs (one line each, as given), tables (two or three columns at fixed places, more
 * spread evenly over the page) and two side-by-side columns of lines, top to bottom.
 */
export const page = (blocks: Block[]): Buffer => {
  const ops: string[] = [];
  let y = 700;
  const show = (x: number, text: string, font = 'F1', size = 10) =>
    ops.push(`BT /${font} ${size} Tf ${x} ${y} Td (${pdfString(text)}) Tj ET`);
  for (const block of blocks) {
    if ('heading' in block) {
      show(72, block.heading, 'F2', 16);
      y -= 30;
    } else if ('text' in block) {
      for (const line of block.text) {
        show(72, line);
        y -= 15;
      }
      y -= 8;
    } else if ('columns' in block) {
      const [left, right] = block.columns;
      for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
        if (left[i]) show(72, left[i]!);
        if (right[i]) show(330, right[i]!);
        y -= 15;
      }
      y -= 8;
    } else {
      for (const row of block.table) {
        row.forEach((cell, k) =>
          show(row.length <= 3 ? [72, 240, 420][k]! : 72 + Math.round((k * 468) / row.length), cell),
        );
        y -= 16;
      }
      y -= 10;
    }
  }
  return makePdf([{ content: ops.join('\n') }]);
};

/** The names, dates and amounts of one generated contract (the same in each of its layouts). */
export interface ContractVariant {
  a: string;
  b: string;
  date: string;
  law: string;
  term: string;
  /** The term as the table layout prints it ("24 months"). */
  termShort: string;
}

/** The names, dates and amounts of one generated receipt. */
export interface ReceiptVariant {
  vendor: string;
  address: string;
  date: string;
  items: string[][];
  subtotal: string;
  tax: string;
  total: string;
}

const CONTRACT_VARIANTS: ContractVariant[] = [
  {
    a: 'Northwind Traders Ltd',
    b: 'Contoso Analytics LLC',
    date: '14 March 2024',
    law: 'State of New York',
    term: 'two (2) years',
    termShort: '24 months',
  },
  {
    a: 'Fabrikam Holdings Inc.',
    b: 'Tailspin Logistics GmbH',
    date: 'June 1, 2023',
    law: 'England and Wales',
    term: 'three (3) years',
    termShort: '36 months',
  },
];

const RECEIPT_VARIANTS: ReceiptVariant[] = [
  {
    vendor: 'Blue Heron Cafe',
    address: '12 Harbour Street, Portsmouth PO1 2AB',
    date: '03/14/2024',
    items: [
      ['Flat white', '2', '7.00'],
      ['Almond croissant', '1', '3.80'],
    ],
    subtotal: '10.80',
    tax: '2.16',
    total: '12.96',
  },
  {
    vendor: 'Granite Hardware Supply',
    address: '4800 Mill Road, Springfield, IL 62704',
    date: '2024-11-02',
    items: [
      ['Hex bolts M8 (box)', '3', '29.85'],
      ['Wood glue 500 ml', '1', '8.49'],
    ],
    subtotal: '38.34',
    tax: '3.07',
    total: '41.41',
  },
];

const CONTRACT_SCHEMA = { parties: [], effective_date: '', governing_law: '', term: '' };
const RECEIPT_SCHEMA = { vendor: '', date: '', address: '', total: '' };

/** Three layouts per variant (the built-in two by default; a benchmark passes held-out ones, numbered from `numberFrom`). */
export const contractDocs = (variants: ContractVariant[] = CONTRACT_VARIANTS, numberFrom = 1): BusinessDoc[] =>
  variants.flatMap((v, n) => {
    const expected = { parties: [v.a, v.b], effective_date: v.date, governing_law: v.law, term: v.term };
    return [
      {
        layout: 'key-value lines',
        pdf: page([
          { heading: 'Consulting Agreement: Summary of Terms' },
          {
            text: [
              `Party A: ${v.a}`,
              `Party B: ${v.b}`,
              `Effective date: ${v.date}`,
              `Governing law: ${v.law}`,
              `Term: ${v.term} from the Effective Date`,
            ],
          },
          { text: ['Fees are payable monthly in arrears within thirty days of invoice.'] },
        ]),
        expected,
      },
      {
        layout: 'table',
        pdf: page([
          { heading: 'Master Services Agreement' },
          { text: ['Key terms of the agreement between the parties below.'] },
          {
            table: [
              ['Item', 'Details'],
              ['Supplier', v.a],
              ['Customer', v.b],
              ['Effective date', v.date],
              ['Governing law', v.law],
              ['Initial term', v.termShort],
            ],
          },
        ]),
        expected: { ...expected, term: v.termShort },
      },
      {
        layout: 'prose',
        pdf: page([
          { heading: 'Services Agreement' },
          {
            text: [
              `This Services Agreement is made on ${v.date} between ${v.a} and ${v.b}.`,
              'The Supplier will provide the services described in Schedule 1 to the Customer.',
            ],
          },
          {
            text: [
              `1. This Agreement shall continue for a term of ${v.term} unless terminated earlier.`,
              `2. This Agreement is governed by the laws of ${v.law === 'England and Wales' ? '' : 'the '}${v.law}.`,
            ],
          },
        ]),
        expected,
      },
    ].map((d) => ({
      ...d,
      name: `contract-${numberFrom + n}-${d.layout.replace(/\s+/g, '-')}.pdf`,
      kind: 'contract' as const,
      schema: CONTRACT_SCHEMA,
    }));
  });

/** Three layouts per variant (the built-in two by default; a benchmark passes held-out ones, numbered from `numberFrom`). */
export const receiptDocs = (variants: ReceiptVariant[] = RECEIPT_VARIANTS, numberFrom = 1): BusinessDoc[] =>
  variants.flatMap((v, n) => {
    const expected = { vendor: v.vendor, date: v.date, address: v.address, total: v.total };
    const items: string[][] = [['Item', 'Qty', 'Amount'], ...v.items];
    return [
      {
        layout: 'labelled lines',
        pdf: page([
          { heading: 'Receipt' },
          { text: [`Vendor: ${v.vendor}`, `Address: ${v.address}`, `Date: ${v.date}`] },
          { table: items },
          { text: [`Subtotal: $${v.subtotal}`, `Tax: $${v.tax}`, `Total: $${v.total}`] },
        ]),
        expected,
      },
      {
        layout: 'till receipt',
        pdf: page([
          { heading: v.vendor },
          { text: [v.address, `Date ${v.date}`] },
          { table: items },
          { text: [`SUBTOTAL $${v.subtotal}`, `TAX $${v.tax}`, `TOTAL $${v.total}`, 'Thank you for your visit'] },
        ]),
        expected,
      },
      {
        layout: 'invoice table',
        pdf: page([
          { heading: 'Invoice INV-2024-0117' },
          {
            table: [
              ['Field', 'Value'],
              ['Seller', v.vendor],
              ['Seller address', v.address],
              ['Invoice date', v.date],
              ['Amount due', `$${v.total}`],
            ],
          },
          { text: ['Payment within 30 days by bank transfer.'] },
        ]),
        expected,
      },
    ].map((d) => ({
      ...d,
      name: `receipt-${numberFrom + n}-${d.layout.replace(/\s+/g, '-')}.pdf`,
      kind: 'receipt' as const,
      schema: RECEIPT_SCHEMA,
    }));
  });
