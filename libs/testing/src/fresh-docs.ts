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

/**
 * Fresh variant 7 (issue 26, round 3): an untouched report set, written and committed before the extractor ran on
 * it, in layouts and wordings none of the earlier sets use — an engagement letter on a letterhead (sentences
 * broken over lines, "take effect from", "run for an initial period of", "subject to the law of"), lease
 * particulars (Landlord/Tenant rows, "Lease length", "Jurisdiction"), a supermarket receipt (no heading, VAT and
 * phone lines under the address, the date at the bottom), a US invoice (the seller's letterhead above the title, a
 * "Bill To" block beside the numbers, "Balance Due"), a restaurant bill (`restaurant_name`, dashed date, "Amount
 * payable EUR 86,40"); a power supply's two-column technical data table, a sensor's key data lines with no colons,
 * and a model-per-row table (units in the column headers). `expected` is what a reader writes down, as printed.
 */
export const freshVariant7Docs = (): BusinessDoc[] => {
  const docs: Omit<BusinessDoc, 'name'>[] = [
    {
      kind: 'contract',
      layout: 'engagement letter',
      schema: { parties: [], effective_date: '', governing_law: '', term: '' },
      expected: {
        parties: ['Quillon Data Services Ltd', 'Marlowe & Finch LLP'],
        effective_date: '3 November 2025',
        governing_law: 'Scotland',
        term: 'two years',
      },
      pdf: page([
        { heading: 'Quillon Data Services Ltd' },
        { text: ['9 Canal Street, Manchester M1 3HE', '21 October 2025', 'Dear Ms Finch,'] },
        {
          text: [
            'Engagement letter: data migration services',
            'This letter sets out the terms on which Quillon Data Services Ltd ("we") will',
            'provide data migration services to Marlowe & Finch LLP ("you").',
            'These terms take effect from 3 November 2025 and will run for an initial',
            'period of two years, after which either of us may end them on 30 days notice.',
            'These terms and any dispute arising from them are subject to the law of Scotland.',
          ],
        },
        { text: ['Yours sincerely,', 'Priya Raman, Director'] },
      ]),
    },
    {
      kind: 'contract',
      layout: 'lease particulars',
      schema: { parties: [], start_date: '', duration: '', jurisdiction: '' },
      expected: {
        parties: ['Greyfriars Estates Limited', 'Nimbus Coffee Roasters Ltd'],
        start_date: '1 April 2026',
        duration: 'Five years',
        jurisdiction: 'England and Wales',
      },
      pdf: page([
        { heading: 'Commercial Lease: Particulars' },
        {
          table: [
            ['Landlord', 'Greyfriars Estates Limited'],
            ['Tenant', 'Nimbus Coffee Roasters Ltd'],
            ['Premises', 'Unit 4, Riverside Works, Leeds LS10 1AB'],
            ['Lease start', '1 April 2026'],
            ['Lease length', 'Five years'],
            ['Rent', 'GBP 24,000 per annum'],
            ['Jurisdiction', 'England and Wales'],
          ],
        },
      ]),
    },
    {
      kind: 'receipt',
      layout: 'supermarket receipt',
      schema: { store_name: '', store_address: '', purchase_date: '', total: '' },
      expected: {
        store_name: 'Freshway Supermarket',
        store_address: '27 Station Road, Harrogate HG1 1TE',
        purchase_date: '12/02/2026',
        total: '45.20',
      },
      pdf: page([
        {
          text: [
            'FRESHWAY SUPERMARKET',
            '27 Station Road',
            'Harrogate HG1 1TE',
            'VAT No. GB 284 5512 09',
            'Tel 01423 555019',
          ],
        },
        {
          table: [
            ['Semi-skimmed milk 2L', '1.65'],
            ['Sourdough loaf', '3.20'],
            ['Chicken breast 1kg', '8.75'],
            ['Coffee beans 500g', '31.60'],
          ],
        },
        {
          text: ['TOTAL TO PAY \u00a345.20', 'VISA CONTACTLESS \u00a345.20', '12/02/2026 08:41 ST 0042 OP 7'],
        },
      ]),
    },
    {
      kind: 'receipt',
      layout: 'us invoice letterhead',
      schema: { vendor_name: '', vendor_address: '', invoice_date: '', balance_due: '' },
      expected: {
        vendor_name: 'Northgate Print Co.',
        vendor_address: '1450 Commerce Blvd, Suite 200, Denver, CO 80202',
        invoice_date: 'March 9, 2026',
        balance_due: '1,296.00',
      },
      pdf: page([
        { heading: 'Northgate Print Co.' },
        { text: ['1450 Commerce Blvd, Suite 200', 'Denver, CO 80202'] },
        { heading: 'INVOICE' },
        {
          columns: [
            ['Bill To:', 'Harlow Events LLC', '88 Pine Street', 'Boulder, CO 80302'],
            ['Invoice #: 7781', 'Date: March 9, 2026', 'Due Date: April 8, 2026'],
          ],
        },
        {
          table: [
            ['Description', 'Qty', 'Amount'],
            ['Event programmes (A5, 16 pp)', '500', '900.00'],
            ['Banner, 3 x 1 m', '2', '300.00'],
          ],
        },
        { text: ['Subtotal $1,200.00', 'Sales Tax (8%) $96.00', 'Balance Due $1,296.00'] },
      ]),
    },
    {
      kind: 'receipt',
      layout: 'restaurant bill',
      schema: { restaurant_name: '', restaurant_address: '', bill_date: '', amount_payable: '' },
      expected: {
        restaurant_name: 'Trattoria Il Faro',
        restaurant_address: 'Via del Porto 5, 16128 Genova',
        bill_date: '14-02-2026',
        amount_payable: '86,40',
      },
      pdf: page([
        { heading: 'Trattoria Il Faro' },
        { text: ['Via del Porto 5, 16128 Genova', 'Table 12   Covers 2', 'Date 14-02-2026 21:05'] },
        {
          table: [
            ['Antipasto misto', '1', '14,00'],
            ['Trofie al pesto', '2', '28,00'],
            ['Branzino', '1', '26,00'],
            ['Vino della casa', '1', '10,55'],
          ],
        },
        { text: ['Service charge 10% EUR 7,85', 'Amount payable EUR 86,40', 'Grazie e arrivederci'] },
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'technical data table',
      schema: {
        output_voltage: '',
        output_current: '',
        efficiency: '',
        operating_temperature: '',
        weight: '',
        ip_rating: '',
      },
      expected: {
        output_voltage: '24;V',
        output_current: '2.5;A',
        efficiency: '89;%',
        operating_temperature: '-25 to 70 \u00b0C',
        weight: '0.3;kg',
        ip_rating: 'IP20',
      },
      pdf: page([
        { heading: 'PSU-24-60 DIN rail power supply' },
        { heading: 'Technical data' },
        {
          table: [
            ['Input voltage range', '85 ... 264 V AC'],
            ['Output voltage', '24 V DC'],
            ['Output current (max.)', '2.5 A'],
            ['Efficiency (typ.)', '89 %'],
            ['Operating temperature', '-25 ... +70 \u00b0C'],
            ['Dimensions (W x H x D)', '40 x 90 x 100 mm'],
            ['Weight', 'approx. 0.3 kg'],
            ['Protection class', 'IP20'],
          ],
        },
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'key data lines without colons',
      schema: {
        measuring_range: '',
        supply_voltage: '',
        current_consumption: '',
        ambient_temperature: '',
        ip_rating: '',
        weight: '',
      },
      expected: {
        measuring_range: '0 to 10 bar',
        supply_voltage: '10 to 30 V DC',
        current_consumption: '< 20 mA',
        ambient_temperature: '-40 \u00b0C to +85 \u00b0C',
        ip_rating: 'IP67',
        weight: '120;g',
      },
      pdf: page([
        { heading: 'PTX-10 pressure transmitter' },
        { text: ['Key data'] },
        {
          text: [
            'Measuring range 0 ... 10 bar',
            'Supply voltage 10 ... 30 V DC',
            'Current consumption < 20 mA',
            'Ambient temperature -40 \u00b0C to +85 \u00b0C',
            'Protection rating IP67',
            'Weight approx. 120 g',
          ],
        },
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'model per row table',
      schema: {
        model_number: 'MX-1.5',
        rated_power: '',
        rated_current: '',
        weight: '',
        ip_rating: '',
        rated_current_per_model: {},
      },
      expected: {
        rated_power: '1.5;kW',
        rated_current: '3.8;A',
        weight: '1.9;kg',
        ip_rating: 'IP20',
        rated_current_per_model: { 'MX-0.75': '2.1;A', 'MX-1.5': '3.8;A', 'MX-2.2': '5.2;A' },
      },
      pdf: page([
        { heading: 'MX series frequency inverters' },
        {
          table: [
            ['Model', 'Rated power [kW]', 'Rated current [A]', 'Weight [kg]'],
            ['MX-0.75', '0.75', '2.1', '1.4'],
            ['MX-1.5', '1.5', '3.8', '1.9'],
            ['MX-2.2', '2.2', '5.2', '2.3'],
          ],
        },
        { text: ['Supply: 3-phase 380-480 V, 50/60 Hz. Enclosure IP20 for all models.'] },
      ]),
    },
  ];
  return docs.map((doc) => ({ ...doc, name: `fresh-7-${doc.kind}-${doc.layout.replace(/\s+/g, '-')}.pdf` }));
};

/**
 * Fresh variant 8 (issue 26, a blind held-out set): written by someone who had not read the offline extractor, and
 * committed before its first run. Other layouts and wordings again: an Australian tax invoice (numbers in a
 * right-hand column, totals as the last rows of the item table), a hotel guest folio, a mutual NDA in numbered
 * prose clauses, a SaaS order form (provider and customer side by side), a purchase order (ISO and dotted dates,
 * European amounts), a sensor datasheet with a Min/Typ/Max/Unit table, a two-model power-supply table (units in
 * the cells), and a valve datasheet as two columns of label-value lines.
 */
export const freshVariant8Docs = (): BusinessDoc[] => {
  const docs: Omit<BusinessDoc, 'name'>[] = [
    {
      kind: 'receipt',
      layout: 'tax invoice',
      schema: {
        supplier_name: 'Company that issued the invoice',
        invoice_number: '',
        issue_date: 'Date the invoice was issued',
        total_including_tax: 'Final amount payable including GST/VAT',
      },
      expected: {
        supplier_name: 'Bellbird Joinery Pty Ltd',
        invoice_number: 'INV-20417',
        issue_date: '05 Jan 2026',
        total_including_tax: '1,650.00',
      },
      pdf: page([
        { heading: 'Bellbird Joinery Pty Ltd' },
        { text: ['ABN 51 824 753 556', '14 Wattle Lane, Fremantle WA 6160', 'accounts@bellbirdjoinery.com.au'] },
        { heading: 'TAX INVOICE' },
        {
          columns: [
            ['Invoice to', 'Coastal Living Interiors', '3/88 Marine Parade', 'Cottesloe WA 6011'],
            ['Invoice No.  INV-20417', 'Issue date  05 Jan 2026', 'Payment terms  14 days', 'Reference  PO 7712'],
          ],
        },
        {
          table: [
            ['Qty', 'Description', 'Unit price (AUD)', 'Line total (AUD)'],
            ['1', 'Jarrah bench top, oiled', '1,100.00', '1,100.00'],
            ['4', 'Floating shelf, 900 mm', '100.00', '400.00'],
            ['', '', 'GST 10%', '150.00'],
            ['', '', 'Total incl. GST', '1,650.00'],
          ],
        },
        { text: ['Please pay by EFT to BSB 016-185, account 4471 2290, quoting the invoice number.'] },
      ]),
    },
    {
      kind: 'receipt',
      layout: 'hotel guest folio',
      schema: {
        hotel_name: '',
        guest_name: '',
        check_out_date: '',
        total_charges: 'Total amount charged for the stay',
      },
      expected: {
        hotel_name: 'The Linden Hotel',
        guest_name: 'Mr Daniel Okafor',
        check_out_date: 'Mar 13, 2026',
        total_charges: '412.60',
      },
      pdf: page([
        { heading: 'The Linden Hotel' },
        { text: ['500 Lakeshore Drive, Chicago, IL 60611', 'Guest Folio'] },
        {
          columns: [
            ['Guest  Mr Daniel Okafor', 'Room  1207', 'Folio No.  F-338150'],
            ['Arrival  Mar 11, 2026', 'Departure  Mar 13, 2026', 'Nights  2'],
          ],
        },
        {
          table: [
            ['Date', 'Description', 'Charges', 'Credits'],
            ['Mar 11', 'Room charge', '179.00', ''],
            ['Mar 11', 'Occupancy tax', '30.43', ''],
            ['Mar 12', 'Room charge', '179.00', ''],
            ['Mar 12', 'Occupancy tax', '24.17', ''],
            ['Mar 13', 'Visa ending 4821', '', '412.60'],
          ],
        },
        { text: ['Total charges  $412.60', 'Total credits  $412.60', 'Balance due  $0.00'] },
      ]),
    },
    {
      kind: 'contract',
      layout: 'mutual nda numbered clauses',
      schema: { parties: [], effective_date: '', governing_law: '', term: 'How long the agreement lasts' },
      expected: {
        parties: ['Altamira Robotics, Inc.', 'Kestrel Vision AB'],
        effective_date: '9th of February 2026',
        governing_law: 'State of Delaware',
        term: 'three (3) years',
      },
      pdf: page([
        { heading: 'MUTUAL NON-DISCLOSURE AGREEMENT' },
        {
          text: [
            'This Mutual Non-Disclosure Agreement (the "Agreement") is entered into as of the 9th of',
            'February 2026 (the "Effective Date") by and between Altamira Robotics, Inc., a Delaware',
            'corporation ("Altamira"), and Kestrel Vision AB, a company organised under the laws of',
            'Sweden ("Kestrel"). Altamira and Kestrel are each referred to as a "Party".',
          ],
        },
        {
          text: [
            '1. Purpose. The Parties wish to evaluate a joint development of machine vision modules.',
            "2. Confidential Information. Each Party shall hold the other Party's Confidential",
            'Information in strict confidence and use it only for the Purpose.',
            '7. Term. This Agreement shall remain in effect for a period of three (3) years from the',
            'Effective Date, unless terminated earlier by either Party on thirty (30) days written notice.',
            '8. Governing Law. This Agreement shall be governed by and construed in accordance with the',
            'laws of the State of Delaware, without regard to its conflict of laws principles.',
          ],
        },
        {
          columns: [
            ['ALTAMIRA ROBOTICS, INC.', 'By: Laura Chen', 'Title: CEO'],
            ['KESTREL VISION AB', 'By: Erik Lund', 'Title: VD'],
          ],
        },
      ]),
    },
    {
      kind: 'contract',
      layout: 'saas order form',
      schema: {
        provider: 'The company providing the service',
        customer: 'The company buying the service',
        subscription_start_date: '',
        subscription_term: '',
        governing_law: '',
      },
      expected: {
        provider: 'Cobalt Ledger Ltd',
        customer: 'Harrow & Vale Architects',
        subscription_start_date: '01/07/2026',
        subscription_term: '12 months',
        governing_law: 'Ireland',
      },
      pdf: page([
        { heading: 'Order Form  OF-2026-0419' },
        {
          columns: [
            ['PROVIDER', 'Cobalt Ledger Ltd', '2 Grand Canal Square', 'Dublin 2, D02 A342'],
            ['CUSTOMER', 'Harrow & Vale Architects', '61 Baggot Street Lower', 'Dublin 2, D02 XY45'],
          ],
        },
        {
          table: [
            ['Service', 'Seats', 'Annual fee'],
            ['Cobalt Ledger Professional', '25', 'EUR 9,000.00'],
            ['Premium support', '1', 'EUR 1,200.00'],
          ],
        },
        {
          text: [
            'Subscription start: 01/07/2026        Subscription term: 12 months, renewing annually',
            'Billing: annually in advance, net 30 days.',
            'This Order Form is subject to the Cobalt Ledger Master Subscription Agreement and is',
            'governed by the laws of Ireland.',
          ],
        },
      ]),
    },
    {
      kind: 'receipt',
      layout: 'purchase order',
      schema: {
        po_number: 'Purchase order number',
        order_date: '',
        supplier: 'Vendor the goods are ordered from',
        net_total: 'Order total before VAT',
        requested_delivery_date: '',
      },
      expected: {
        po_number: '4500018832',
        order_date: '2026-02-17',
        supplier: 'Rhein-Ventil GmbH',
        net_total: '3.412,80',
        requested_delivery_date: '20.03.2026',
      },
      pdf: page([
        { heading: 'PURCHASE ORDER' },
        {
          columns: [
            ['Vendor', 'Rhein-Ventil GmbH', 'Industriestr. 12', '68169 Mannheim, Germany'],
            ['PO number 4500018832', 'Order date 2026-02-17', 'Buyer M. Vogel', 'Currency EUR'],
          ],
        },
        {
          table: [
            ['Material', 'Description', 'Qty', 'Price', 'Amount'],
            ['100-4471', 'Ball valve DN25', '24', '86,20', '2.068,80'],
            ['100-4490', 'Check valve DN50', '8', '168,00', '1.344,00'],
          ],
        },
        {
          text: [
            'Total net value EUR 3.412,80 (VAT not included)',
            'Requested delivery: 20.03.2026, DAP Werk Ludwigshafen, Gate 4',
            'Please confirm this order within 3 working days quoting the PO number.',
          ],
        },
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'min typ max table',
      schema: {
        temperature_accuracy: '',
        humidity_accuracy: 'Relative humidity accuracy',
        response_time: '',
        max_supply_current: '',
        operating_temperature_range: '',
        interface: 'Digital interface',
      },
      expected: {
        temperature_accuracy: '\u00b10.2 \u00b0C',
        humidity_accuracy: '\u00b12 %RH',
        response_time: '8;s',
        max_supply_current: '450;\u00b5A',
        operating_temperature_range: '-40 to 125 \u00b0C',
        interface: 'I2C',
      },
      pdf: page([
        { heading: 'HTS-31 Digital Humidity and Temperature Sensor' },
        {
          text: [
            'Fully calibrated, linearised and temperature compensated digital output.',
            'I2C interface with up to 1 MHz communication speed. Operating range -40 to 125 \u00b0C.',
          ],
        },
        { heading: 'Electrical and sensor specifications' },
        {
          table: [
            ['Parameter', 'Min', 'Typ', 'Max', 'Unit'],
            ['Supply voltage', '2.4', '3.3', '5.5', 'V'],
            ['Supply current, measuring', '', '320', '450', '\u00b5A'],
            ['Temperature accuracy', '', '\u00b10.2', '', '\u00b0C'],
            ['RH accuracy', '', '\u00b12', '', '%RH'],
            ['Response time (tau 63%)', '', '8', '', 's'],
          ],
        },
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'two model specification table',
      schema: {
        output_voltage_per_model: {},
        rated_current_per_model: {},
        efficiency_per_model: {},
        working_temperature: '',
        weight: 'Unit weight',
      },
      expected: {
        output_voltage_per_model: { 'LPS-150-12': '12;V', 'LPS-150-24': '24;V' },
        rated_current_per_model: { 'LPS-150-12': '12.5;A', 'LPS-150-24': '6.25;A' },
        efficiency_per_model: { 'LPS-150-12': '88;%', 'LPS-150-24': '90;%' },
        working_temperature: '-30 to +70 \u00b0C',
        weight: '0.62;kg',
      },
      pdf: page([
        { heading: 'LPS-150 series 150 W enclosed switching power supply' },
        { heading: 'SPECIFICATION' },
        {
          table: [
            ['MODEL', 'LPS-150-12', 'LPS-150-24'],
            ['DC voltage', '12 V', '24 V'],
            ['Rated current', '12.5 A', '6.25 A'],
            ['Rated power', '150 W', '150 W'],
            ['Ripple & noise (max.)', '120 mVp-p', '150 mVp-p'],
            ['Efficiency (typ.)', '88 %', '90 %'],
            ['Input voltage range', '85 ~ 264 VAC', '85 ~ 264 VAC'],
            ['Working temp.', '-30 ~ +70 \u00b0C', '-30 ~ +70 \u00b0C'],
            ['Weight', '0.62 kg/pc', '0.62 kg/pc'],
          ],
        },
        { text: ['Note: derate output linearly above +50 \u00b0C; see the derating curve.'] },
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'two column key figures',
      schema: {
        port_size: '',
        pressure_range: 'Operating pressure range',
        coil_voltage: '',
        power_consumption: '',
        medium_temperature: '',
        protection_class: '',
      },
      expected: {
        port_size: 'G 1/2',
        pressure_range: '0.5 - 16 bar',
        coil_voltage: '24;V',
        power_consumption: '8;W',
        medium_temperature: '-10 to +90 \u00b0C',
        protection_class: 'IP65',
      },
      pdf: page([
        { heading: 'SV-220 2/2-way solenoid valve, normally closed' },
        {
          text: [
            'Servo-assisted diaphragm valve for water, compressed air and light oils. Brass body,',
            'FKM seals, coil with DIN EN 175301-803 form A connector.',
          ],
        },
        { heading: 'Key figures' },
        {
          columns: [
            ['Port size  G 1/2', 'Orifice  13 mm', 'Pressure range  0.5 - 16 bar', 'Kv value  3.0 m\u00b3/h'],
            [
              'Coil voltage  24 V DC',
              'Power consumption  8 W',
              'Medium temperature  -10 ... +90 \u00b0C',
              'Degree of protection  IP65',
            ],
          ],
        },
      ]),
    },
  ];
  return docs.map((doc) => ({ ...doc, name: `fresh-8-${doc.kind}-${doc.layout.replace(/\s+/g, '-')}.pdf` }));
};
