// SPDX-License-Identifier: AGPL-3.0-or-later
import { page, type BusinessDoc } from './business-docs.js';

/**
 * A second family of generated documents (issue 26, generalisation), in layouts and wordings the offline extractor
 * was not written against: a two-column contract cover sheet, recitals-style prose ("dated the 5th day of May,
 * 2025 … by and between"), a numbered-clause contract with headings; an invoice with its seller on the left and
 * its numbers on the right (European amounts, dotted dates), a till receipt with a GRAND TOTAL and card lines, a
 * statement whose total is the table's last row; datasheets as `Label: value` lines (units in the value), as a
 * table with a unit column, and as a multi-model table (units in the header). The schemas use other common
 * wordings (`amount_due`, `invoice_total`, `commencement_date`, `rated_current`, `operating_temperature`…).
 * Each document's `expected` is what a reader would write down (null where the layout does not state it). The
 * layouts and the first variants were written before the extractor was run on any of them.
 */
export interface FreshVariant {
  contract: {
    a: string;
    b: string;
    /** As printed, in the document's own date style. */
    date: string;
    /** The same date as the recitals write it ("5th day of May, 2025"). */
    dateWords: string;
    /** ISO form, for the numbered-clause layout. */
    dateIso: string;
    law: string;
    term: string;
  };
  receipt: {
    vendor: string;
    address: [string, string];
    /** Dotted European date "04.03.2025" (invoice), slashed "2025/03/04" (till). */
    dateDotted: string;
    dateSlashed: string;
    items: [string, string, string][];
    /** "1.234,50" style for the invoice, "1,234.50" style for the others. */
    totalEu: string;
    total: string;
    currency: 'EUR' | 'GBP' | 'USD';
  };
  datasheet: {
    product: string;
    models: [string, string, string];
    voltage: string;
    currents: [string, string, string];
    weights: [string, string, string];
    tempRange: string;
    ip: string;
  };
}

const CONTRACT_SCHEMA_B = {
  contracting_parties: [],
  commencement_date: 'The date the agreement starts',
  applicable_law: '',
  contract_duration: '',
};
const CONTRACT_SCHEMA_A = { parties: [], effective_date: '', governing_law: '', term: '' };
const INVOICE_SCHEMA = { seller_name: '', invoice_date: '', seller_address: '', invoice_total: '' };
const RECEIPT_SCHEMA = { merchant_name: '', transaction_date: '', merchant_address: '', amount_due: '' };
const DATASHEET_SCHEMA = {
  model_number: '',
  rated_voltage: '',
  rated_current: '',
  weight: '',
  operating_temperature: '',
  ip_rating: '',
};

const sign = { EUR: 'EUR', GBP: '\u00a3', USD: '$' } as const;

/** Nine documents per variant: three contracts, three receipts/invoices, three datasheets. */
export const freshDocs = (variants: FreshVariant[], numberFrom: number): BusinessDoc[] =>
  variants.flatMap((v, n) => {
    const c = v.contract;
    const r = v.receipt;
    const d = v.datasheet;
    const number = numberFrom + n;
    const docs: Omit<BusinessDoc, 'name'>[] = [
      {
        kind: 'contract',
        layout: 'two-column cover sheet',
        schema: CONTRACT_SCHEMA_A,
        expected: { parties: [c.a, c.b], effective_date: c.date, governing_law: c.law, term: c.term },
        pdf: page([
          { heading: 'Software Licence Agreement' },
          { text: ['Cover sheet'] },
          {
            columns: [
              [`Licensor: ${c.a}`, `Effective Date: ${c.date}`, `Term: ${c.term}`],
              [`Licensee: ${c.b}`, `Governing Law: ${c.law}`, 'Renewal: automatic'],
            ],
          },
          { text: ['The Standard Terms attached form part of this Agreement.'] },
        ]),
      },
      {
        kind: 'contract',
        layout: 'recitals prose',
        schema: CONTRACT_SCHEMA_B,
        expected: {
          contracting_parties: [c.a, c.b],
          commencement_date: c.dateWords,
          applicable_law: c.law,
          contract_duration: c.term,
        },
        pdf: page([
          { heading: 'DISTRIBUTION AGREEMENT' },
          {
            text: [
              `THIS AGREEMENT is dated the ${c.dateWords} and is entered into by and between`,
              `${c.a} (the "Principal") and ${c.b} (the "Distributor").`,
            ],
          },
          {
            text: [
              `1. Duration. This Agreement shall remain in effect for a period of ${c.term}.`,
              `2. Law. This Agreement shall be governed by and construed in accordance with the laws of ${c.law}.`,
            ],
          },
        ]),
      },
      {
        kind: 'contract',
        layout: 'numbered clauses',
        schema: CONTRACT_SCHEMA_A,
        expected: { parties: [c.a, c.b], effective_date: c.dateIso, governing_law: c.law, term: c.term },
        pdf: page([
          { heading: 'Consultancy Agreement' },
          { heading: '1. Parties' },
          { text: [`(1) ${c.a} (the "Company"); and`, `(2) ${c.b} (the "Consultant").`] },
          { heading: '2. Commencement' },
          { text: [`The engagement begins on ${c.dateIso} and lasts ${c.term}.`] },
          { heading: '3. Governing law' },
          { text: [`This agreement is subject to the laws of ${c.law}.`] },
        ]),
      },
      {
        kind: 'receipt',
        layout: 'two-column invoice',
        schema: INVOICE_SCHEMA,
        expected: {
          seller_name: r.vendor,
          invoice_date: r.dateDotted,
          seller_address: `${r.address[0]}, ${r.address[1]}`,
          invoice_total: r.totalEu,
        },
        pdf: page([
          { heading: 'INVOICE' },
          {
            columns: [
              [r.vendor, r.address[0], r.address[1]],
              [`Invoice no.: ${number}-0042`, `Invoice date: ${r.dateDotted}`, 'Payment terms: 30 days'],
            ],
          },
          { table: [['Description', 'Qty', 'Amount'], ...r.items] },
          { text: [`Net amount ${r.currency} ${r.items[0]![2]}`, `Total due ${r.currency} ${r.totalEu}`] },
        ]),
      },
      {
        kind: 'receipt',
        layout: 'till receipt grand total',
        schema: RECEIPT_SCHEMA,
        expected: {
          merchant_name: r.vendor,
          transaction_date: r.dateSlashed,
          merchant_address: `${r.address[0]}, ${r.address[1]}`,
          amount_due: r.total,
        },
        pdf: page([
          { heading: r.vendor.toUpperCase() },
          { text: [r.address[0], r.address[1], `${r.dateSlashed} 14:22  Till 3`] },
          { table: r.items },
          {
            text: [
              `GRAND TOTAL ${sign[r.currency]}${r.total}`,
              `CARD ${sign[r.currency]}${r.total}`,
              `CHANGE ${sign[r.currency]}0.00`,
            ],
          },
        ]),
      },
      {
        kind: 'receipt',
        layout: 'statement table',
        schema: INVOICE_SCHEMA,
        expected: {
          seller_name: r.vendor,
          invoice_date: r.dateSlashed,
          seller_address: null,
          invoice_total: r.total,
        },
        pdf: page([
          { heading: `Statement from ${r.vendor}` },
          { text: [`Statement date: ${r.dateSlashed}`] },
          {
            table: [['Line', 'Qty', `Amount (${r.currency})`], ...r.items, ['Total', '', r.total]],
          },
        ]),
      },
      {
        kind: 'datasheet',
        layout: 'spec lines',
        schema: { ...DATASHEET_SCHEMA, model_number: d.models[0] },
        expected: {
          rated_voltage: `${d.voltage};V`,
          rated_current: `${d.currents[0]};A`,
          weight: d.weights[0],
          operating_temperature: d.tempRange,
          ip_rating: d.ip,
        },
        pdf: page([
          { heading: `${d.product} ${d.models[0]}` },
          { heading: 'Specifications' },
          {
            text: [
              `Nominal voltage: ${d.voltage} V DC`,
              `Rated current: ${d.currents[0]} A`,
              `Weight: ${d.weights[0]}`,
              `Operating temperature: ${d.tempRange}`,
              `Degree of protection: ${d.ip}`,
            ],
          },
        ]),
      },
      {
        kind: 'datasheet',
        layout: 'unit column table',
        schema: { ...DATASHEET_SCHEMA, model_number: d.models[1] },
        expected: {
          rated_voltage: `${d.voltage};V`,
          rated_current: `${d.currents[1]};A`,
          weight: d.weights[1],
          operating_temperature: d.tempRange,
          ip_rating: d.ip,
        },
        pdf: page([
          { heading: `${d.product} ${d.models[1]}: technical data` },
          {
            table: [
              ['Parameter', 'Unit', 'Value'],
              ['Rated voltage', 'V', d.voltage],
              ['Rated current', 'A', d.currents[1]!],
              ['Weight', 'kg', d.weights[1]!.replace(/\s*kg$/, '')],
              ['Ambient temperature', '\u00b0C', d.tempRange.replace(/\s*\u00b0C$/, '')],
              ['Protection', '', d.ip],
            ],
          },
        ]),
      },
      {
        kind: 'datasheet',
        layout: 'multi-model table',
        schema: { ...DATASHEET_SCHEMA, model_number: d.models[2], rated_current_per_model: {} },
        expected: {
          rated_voltage: `${d.voltage};V`,
          rated_current: `${d.currents[2]};A`,
          weight: d.weights[2],
          operating_temperature: null,
          ip_rating: d.ip,
          rated_current_per_model: Object.fromEntries(d.models.map((m, k) => [m, `${d.currents[k]};A`])),
        },
        pdf: page([
          { heading: `${d.product} series` },
          {
            table: [
              ['Model', ...d.models],
              ['Rated voltage [V]', d.voltage, d.voltage, d.voltage],
              ['Rated current [A]', ...d.currents],
              ['Weight', ...d.weights],
            ],
          },
          { text: [`All models: enclosure ${d.ip}.`] },
        ]),
      },
    ];
    return docs.map((doc) => ({
      ...doc,
      name: `fresh-${number}-${doc.kind}-${doc.layout.replace(/\s+/g, '-')}.pdf`,
    }));
  });

/** The first fresh variant: written with the layouts, before the extractor ran on them. */
export const FRESH_VARIANTS_A: FreshVariant[] = [
  {
    contract: {
      a: 'Altamira Software Ltd',
      b: 'Pinecrest Media Inc.',
      date: '1 July 2025',
      dateWords: '5th day of May, 2025',
      dateIso: '2025-04-01',
      law: 'Scotland',
      term: 'twelve (12) months',
    },
    receipt: {
      vendor: 'Kaffeehaus Morgenrot GmbH',
      address: ['Lindenstrasse 14', '10969 Berlin'],
      dateDotted: '04.03.2025',
      dateSlashed: '2025/03/04',
      items: [
        ['Espresso', '2', '5.60'],
        ['Apfelstrudel', '1', '4.90'],
      ],
      totalEu: '10,50',
      total: '10.50',
      currency: 'EUR',
    },
    datasheet: {
      product: 'Voltrix DC motor controller',
      models: ['VX-210', 'VX-420', 'VX-630'],
      voltage: '24',
      currents: ['10', '20', '30'],
      weights: ['0.35 kg', '0.52 kg', '0.78 kg'],
      tempRange: '-20 to 60 \u00b0C',
      ip: 'IP54',
    },
  },
];

/**
 * The report half of the fresh set: new names, dates, amounts and currencies in the fresh layouts (which were
 * looked at while fixing the extractor), written before the extractor ran on them.
 */
export const FRESH_VARIANTS_B: FreshVariant[] = [
  {
    contract: {
      a: 'Blackwater Robotics Oy',
      b: 'Saffron Retail Group plc',
      date: '30 November 2025',
      dateWords: '12th day of January, 2026',
      dateIso: '2026-02-15',
      law: 'Finland',
      term: 'thirty-six (36) months',
    },
    receipt: {
      vendor: 'The Copper Kettle Tearoom',
      address: ['3 Market Place', 'Ludlow SY8 1AB'],
      dateDotted: '17.10.2025',
      dateSlashed: '2025/10/17',
      items: [
        ['Cream tea for two', '1', '14.50'],
        ['Lemon drizzle', '2', '6.40'],
      ],
      totalEu: '20,90',
      total: '20.90',
      currency: 'GBP',
    },
    datasheet: {
      product: 'Aquila solenoid valve',
      models: ['AQ-08', 'AQ-15', 'AQ-25'],
      voltage: '230',
      currents: ['0.12', '0.25', '0.4'],
      weights: ['0.9 kg', '1.4 kg', '2.1 kg'],
      tempRange: '-10 to 50 \u00b0C',
      ip: 'IP65',
    },
  },
];

/**
 * Layouts not seen while the extractor was changed (the report half's other part), one of each kind: a term sheet
 * whose labels stand on a line above their values, a plain-language contract, a purchase record table with the
 * currency in its header, and a datasheet whose labels carry their units ("Weight (kg): 1.2").
 */
export const unseenLayoutDocs = (): BusinessDoc[] => [
  {
    name: 'unseen-contract-term-sheet.pdf',
    kind: 'contract',
    layout: 'labels above values',
    schema: { parties: [], effective_date: '', governing_law: '', term: '' },
    expected: {
      parties: ['Redwood Analytics Ltd', 'Orchard Health Trust'],
      effective_date: '15 August 2025',
      governing_law: 'Northern Ireland',
      term: '24 months',
    },
    pdf: page([
      { heading: 'Data Sharing Agreement: Term Sheet' },
      { heading: 'Parties' },
      { text: ['Redwood Analytics Ltd and Orchard Health Trust'] },
      { heading: 'Effective Date' },
      { text: ['15 August 2025'] },
      { heading: 'Term' },
      { text: ['24 months, renewable by written agreement'] },
      { heading: 'Governing Law' },
      { text: ['Northern Ireland'] },
    ]),
  },
  {
    name: 'unseen-contract-plain-language.pdf',
    kind: 'contract',
    layout: 'plain language',
    schema: { parties: [], start_date: '', governing_law: '', duration: '' },
    expected: {
      parties: ['Brightline Studio LLC', 'Keller & Moss Architects'],
      start_date: '1 March 2026',
      governing_law: 'Ireland',
      duration: '3 years',
    },
    pdf: page([
      { heading: 'Our agreement' },
      {
        text: [
          'This agreement is made between Brightline Studio LLC ("Agency") and Keller & Moss Architects ("Client").',
          'It starts on 1 March 2026 and continues for 3 years.',
          'The laws of Ireland govern this agreement.',
        ],
      },
    ]),
  },
  {
    name: 'unseen-receipt-purchase-record.pdf',
    kind: 'receipt',
    layout: 'purchase record table',
    schema: { store_name: '', purchase_date: '', store_address: '', total_paid: '' },
    expected: {
      store_name: 'Harbourside Outdoor Supplies',
      purchase_date: '9 Jan 2026',
      store_address: '40 Quay Road, Whitby YO21 1DH',
      total_paid: '86.97',
    },
    pdf: page([
      { heading: 'Purchase record' },
      {
        table: [
          ['Merchant', 'Harbourside Outdoor Supplies'],
          ['Merchant address', '40 Quay Road, Whitby YO21 1DH'],
          ['Date of purchase', '9 Jan 2026'],
        ],
      },
      {
        table: [
          ['Item', 'Qty', 'Price (GBP)'],
          ['Rain jacket', '1', '64.99'],
          ['Wool socks', '2', '21.98'],
          ['Total paid', '', '86.97'],
        ],
      },
    ]),
  },
  {
    name: 'unseen-datasheet-units-in-labels.pdf',
    kind: 'datasheet',
    layout: 'units in labels',
    schema: { rated_voltage: '', rated_current: '', weight: '', operating_temperature: '', ip_rating: '' },
    expected: {
      rated_voltage: '230;V',
      rated_current: '16;A',
      weight: '1.2;kg',
      // the whole range (round 1 wrote '-10', its first number, enough for the lenient scorer only)
      operating_temperature: '-10 to 50 °C',
      ip_rating: 'IP65',
    },
    pdf: page([
      { heading: 'Helix HX-16 heater controller' },
      {
        text: [
          'Supply voltage (rated): 230 V AC',
          'Rated current (A): 16',
          'Weight (kg): 1.2',
          'Operating temp. range: -10 ... +50 \u00b0C',
          'Enclosure rating: IP65',
        ],
      },
    ]),
  },
];
