// SPDX-License-Identifier: AGPL-3.0-or-later
import type { BusinessDoc } from './business-docs.js';
import { makePdf, type PdfPageSpec } from './make-pdf.js';

/**
 * Fresh variant 12 (issue 26, a blind held-out set): written by someone who had not read the offline extractor, and
 * committed before its first run. Layouts and wordings none of variants 1-11 use, drawn run by run: grey header
 * bands filled behind bold text, amounts set flush right (their x from the text's width), dotted leaders joining a
 * label to its value in one run, a lettered particulars table (item letter, label, value in three columns), a table
 * whose first column is left blank under a merged group cell, an ordering table whose order code is the last column,
 * and a narrow phone-app receipt whose pick-up and drop-off carry only times, no labels.
 *
 * Contracts: a framework supply agreement (particulars as label/value columns, "Purchaser" for the buyer, a price
 * schedule with one row per item code: a per-item dict); a residential tenancy whose "1. Parties" section puts the
 * landlord's and the tenant's names and addresses in a second column over several lines, with the rent and deposit
 * in prose under Title Case headings; a lift maintenance contract with lettered particulars ("Contractor", "Client")
 * and an initial term of 24 months beside a 24-hour call centre and 12 renewal months beside 12 visits a year.
 * Receipts: a ride-hailing receipt on a page 300 points wide (the total at the top and again under Payments, a
 * "£5.00 off" invite beside a £5.00 tip); a pharmacy receipt with goods at 20 %, 5 % and 0 % VAT and a VAT summary
 * table by code; a purchase order with the delivery and invoice addresses side by side, an ISO order date and a totals
 * column set flush right. Datasheets: a solenoid valve with one row per port size (per-model dicts; units in the
 * header's parentheses; section headings "Coil", "Materials", "Fluid" without values); a Li-ion cell whose table
 * groups Nominal/Minimum rows under one "Capacity" cell, with "at 25 °C" conditions and 3400 printed as the capacity
 * (mAh) and as the maximum charge current (mA); an LED driver whose data lines use dotted leaders and whose dimming is
 * described only in prose; an inductive proximity sensor with a four-model ordering table (per-model dicts keyed by
 * the order code in the last column).
 *
 * Schemas as users write them: some fields bare, some with a description, per-model fields as `{}`; several field
 * names are synonyms of the printed labels (`buyer` / "Purchaser", `effective_date` / "Effective from",
 * `service_provider` / "Contractor", `customer` / "Client", `gratuity` / "Tip", `total` / "You paid",
 * `invoice_address` / "Send invoices to", `order_total` / "Total due", `charge_voltage` / "Charge cut-off",
 * `protection_rating` / "Degree of protection", `thread_size` / "Thread"). Values printed with qualifiers ("typ.",
 * "max.", "min.", "below", "approx.", "plus VAT", "from the Effective Date") are expected bare. Fifteen fields are
 * not stated (expected null). `expected` is what the page prints for the value ("value;unit" where the value is one
 * number and a unit).
 */

/** One text run: `text` drawn from (`x`, the line's y); `right` sets it flush right, ending at `right`. */
interface Run {
  x?: number;
  right?: number;
  text: string;
  font?: 'F1' | 'F2' | 'F3';
  size?: number;
}
/** A line of runs at one height, vertical space in points, or a grey band behind a line of runs. */
type Line = Run[] | number | { band: Run[]; x0: number; x1: number };

/** WinAnsiEncoding's characters outside Latin-1 that these documents use. */
const WIN_ANSI: Record<string, number> = { '\u20ac': 0x80, '\u2022': 0x95, '\u2013': 0x96, '\u2014': 0x97 };

/** A PDF string literal's contents in WinAnsiEncoding; a character the fonts cannot print is a mistake here. */
const encode = (text: string): string =>
  text.replace(/[\\()]|[^\x20-\x7e]/g, (c) => {
    if (c === '\\' || c === '(' || c === ')') return `\\${c}`;
    const code = WIN_ANSI[c] ?? c.charCodeAt(0);
    if (code < 0x80 || (code > 0xff && !(c in WIN_ANSI)))
      throw new Error(`fresh-docs-12: cannot print ${JSON.stringify(c)}`);
    return `\\${code.toString(8)}`;
  });

/** A rough Helvetica width (digits and most letters are about 0.55 em): enough to set an amount flush right. */
const width = (text: string, size: number): number =>
  [...text].reduce((w, c) => w + (/[il.,:;' |!]/.test(c) ? 0.28 : /[mwMW@]/.test(c) ? 0.85 : 0.56), 0) * size;

/** The page's operators for `lines`, top to bottom from y = `top`; returns the next free y. */
const draw = (lines: Line[], ops: string[], top: number): number => {
  let y = top;
  for (const line of lines) {
    if (typeof line === 'number') {
      y -= line;
      continue;
    }
    const runs = Array.isArray(line) ? line : line.band;
    const height = Math.max(...runs.map((r) => r.size ?? 10));
    if (!Array.isArray(line)) ops.push(`0.85 g ${line.x0} ${y - 4} ${line.x1 - line.x0} ${height + 6} re f 0 g`);
    for (const run of runs) {
      const size = run.size ?? 10;
      const x = run.right !== undefined ? run.right - width(run.text, size) : (run.x ?? 72);
      ops.push(`BT ${x.toFixed(1)} ${y} Td /${run.font ?? 'F1'} ${size} Tf (${encode(run.text)}) Tj ET`);
    }
    y -= height + 5;
  }
  return y;
};

/** A one-page PDF of lines from y = 700 (below the band where running headers are dropped). */
const sheet = (lines: Line[], mediaBox?: PdfPageSpec['mediaBox']): Buffer => {
  const ops: string[] = [];
  const y = draw(lines, ops, 700);
  if (y < 40) throw new Error('fresh-docs-12: page overflow');
  return makePdf([{ content: ops.join('\n'), ...(mediaBox ? { mediaBox } : {}) }]);
};

// Line builders.
const band = (text: string, x0 = 66, x1 = 546, size = 11): Line[] => [
  { band: [{ x: x0 + 6, text, font: 'F2', size }], x0, x1 },
  6,
];
const title = (text: string, size = 15, x = 72): Line[] => [[{ x, text, font: 'F2', size }], 8];
const sub = (text: string, x = 72, size = 11): Line[] => [4, [{ x, text, font: 'F2', size }], 2];
const para = (...texts: string[]): Line[] => [...texts.map((text): Line => [{ x: 72, text }]), 6];
/** Label and value as separate runs at two x positions. */
const pairs = (rows: [string, string][], at: [number, number] = [72, 230], size = 10): Line[] => [
  ...rows.map(
    ([l, v]): Line => [
      { x: at[0], text: l, size },
      { x: at[1], text: v, size },
    ],
  ),
  6,
];
/** Rows of cells at the given x positions; the first `headerRows` rows in bold; an empty cell is not drawn. */
const grid = (rows: string[][], xs: number[], headerRows = 1, size = 9): Line[] => [
  ...rows.map(
    (row, i): Line =>
      row
        .map((text, k): Run => ({ x: xs[k]!, text, size, font: i < headerRows ? 'F2' : 'F1' }))
        .filter((r) => r.text !== ''),
  ),
  8,
];
/** A label, dotted leaders and its value in one run (a typewriter's spec sheet). */
const leaders = (rows: [string, string][], size = 10, columns = 44): Line[] => [
  ...rows.map(([l, v]): Line => [{ x: 72, text: `${l} ${'.'.repeat(Math.max(3, columns - l.length))} ${v}`, size }]),
  6,
];
/** Lines of a label on the left and an amount set flush right at `right`. */
const amounts = (rows: [string, string, Run['font']?][], x: number, right: number, size = 10): Line[] =>
  rows.map(
    ([l, v, font]): Line => [
      { x, text: l, size, font: font ?? 'F1' },
      { right, text: v, size, font: font ?? 'F1' },
    ],
  );

export const freshVariant12Docs = (): BusinessDoc[] => {
  const docs: Omit<BusinessDoc, 'name'>[] = [
    {
      kind: 'contract',
      layout: 'framework supply agreement price schedule',
      schema: {
        supplier: '',
        buyer: 'The purchasing company',
        effective_date: '',
        initial_term: '',
        unit_price_per_item: {},
        payment_terms: 'Days allowed for payment',
        delivery_terms: 'Incoterm and place',
        minimum_annual_volume: '',
        governing_law: '',
        liability_cap: '',
      },
      expected: {
        supplier: 'Norrkem Polymers AB',
        buyer: 'Castellan Packaging Ltd',
        effective_date: '1 April 2026',
        initial_term: '36 months',
        unit_price_per_item: { 'NP-210': '1,380.00', 'NP-340': '1,455.00', 'NP-515': '1,612.50' },
        payment_terms: '45 days',
        delivery_terms: 'FCA Gothenburg',
        minimum_annual_volume: '450 tonnes',
        governing_law: 'Sweden',
        liability_cap: null,
      },
      pdf: sheet([
        ...title('FRAMEWORK SUPPLY AGREEMENT', 16),
        [{ x: 72, text: 'Agreement No. FSA-2026-031', size: 9 }],
        10,
        ...band('Particulars'),
        ...pairs(
          [
            ['Supplier', 'Norrkem Polymers AB, Hamnv\u00e4gen 18, 418 34 Gothenburg, Sweden'],
            ['Purchaser', 'Castellan Packaging Ltd, 2 Riverside Way, Wakefield WF2 7AL, UK'],
            ['Signed on', '9 March 2026'],
            ['Effective from', '1 April 2026'],
            ['Initial period', '36 months from the Effective Date'],
            ['Delivery', 'FCA Gothenburg (Incoterms 2020)'],
            ['Payment', '45 days from date of invoice'],
          ],
          [72, 200],
        ),
        ...band('Conditions'),
        ...para(
          '1.  The Supplier shall sell and the Purchaser may buy the Products in Schedule 1 by call-off orders. Each',
          '     order is a separate contract on these conditions.',
          '2.  The Purchaser expects to buy at least 450 tonnes in each contract year but is not bound to do so;',
          '     the Supplier shall hold a safety stock of 45 tonnes of each grade at its Gothenburg terminal.',
          '3.  Prices in Schedule 1 are fixed for the first 12 months and then reviewed once a year against the',
          '     published ethylene and propylene contract prices, by no more than 8 % in any review.',
          '4.  After the Initial period this Agreement continues until either party ends it on six months notice.',
          '5.  This Agreement is governed by the laws of Sweden. Disputes go to arbitration in Stockholm.',
        ),
        ...band('Schedule 1 \u2013 Products and Prices'),
        ...grid(
          [
            ['Item code', 'Grade', 'Packing', 'Price per tonne (EUR)', 'Lead time (days)'],
            ['NP-210', 'LDPE film grade', '25 kg bags', '1,380.00', '14'],
            ['NP-340', 'HDPE blow moulding', '25 kg bags', '1,455.00', '14'],
            ['NP-515', 'PP random copolymer', 'big bag 1 t', '1,612.50', '21'],
          ],
          [72, 140, 260, 350, 470],
        ),
        12,
        [
          { x: 72, text: 'For Norrkem Polymers AB', size: 9 },
          { x: 320, text: 'For Castellan Packaging Ltd', size: 9 },
        ],
        [
          { x: 72, text: 'Annika Str\u00f6m, Sales Director', size: 9 },
          { x: 320, text: 'Gareth Pryce, Head of Procurement', size: 9 },
        ],
      ]),
    },
    {
      kind: 'contract',
      layout: 'tenancy agreement parties section',
      schema: {
        landlord: '',
        tenant: 'Name of the tenant',
        landlord_address: '',
        property_address: 'Address of the let property',
        monthly_rent: '',
        deposit: 'Security deposit amount',
        start_date: '',
        term: '',
        break_clause: '',
        pets_allowed: '',
      },
      expected: {
        landlord: 'Priya Venkataraman',
        tenant: 'Tomasz Wielgosz',
        landlord_address: '12 Alder Close, Harrogate HG2 8QT',
        property_address: 'Flat 5, 27 Clarendon Road, Leeds LS2 9NZ',
        monthly_rent: '\u00a31,180',
        deposit: '\u00a31,361.00',
        start_date: '1 June 2026',
        term: '12 months',
        break_clause: null,
        pets_allowed: null,
      },
      pdf: sheet([
        ...title('ASSURED SHORTHOLD TENANCY AGREEMENT', 14),
        ...para('for letting a furnished dwelling-house under Part I of the Housing Act 1988'),
        ...sub('1.  Parties'),
        4,
        [
          { x: 90, text: 'Landlord', font: 'F2' },
          { x: 200, text: 'Priya Venkataraman' },
        ],
        [{ x: 200, text: '12 Alder Close' }],
        [{ x: 200, text: 'Harrogate HG2 8QT' }],
        6,
        [
          { x: 90, text: 'Tenant', font: 'F2' },
          { x: 200, text: 'Tomasz Wielgosz' },
        ],
        [{ x: 200, text: 'currently of 3/2 Dalmeny Street, Edinburgh EH6 8PG' }],
        6,
        [
          { x: 90, text: 'Managing agent', font: 'F2' },
          { x: 200, text: 'Keystone Lettings, 40 Call Lane, Leeds LS1 6DT' },
        ],
        ...sub('2.  The Property'),
        ...para(
          'Flat 5, 27 Clarendon Road, Leeds LS2 9NZ, together with the fixtures, furniture and effects listed in the',
          'inventory signed by the parties, and the use of the shared entrance, stairs and bin store.',
        ),
        ...sub('3.  Term'),
        ...para(
          'The tenancy is for a fixed term of 12 months beginning on 1 June 2026 and ending on 31 May 2027. If the',
          'Tenant stays on after that date, a periodic tenancy from month to month arises under the Act.',
        ),
        ...sub('4.  Rent'),
        ...para(
          'The rent is \u00a31,180 per calendar month, payable in advance on the first day of each month by standing',
          'order to the account the Landlord names in writing. The first payment is due on signing.',
        ),
        ...sub('5.  Deposit'),
        ...para(
          'The Tenant shall pay a deposit of \u00a31,361.00 on signing. The Landlord shall protect it with the Deposit',
          'Protection Service within 30 days and give the Tenant the prescribed information.',
        ),
        ...sub('6.  Tenant Obligations'),
        ...para(
          'The Tenant shall keep the Property clean, not sublet it, allow access for repairs on 24 hours notice',
          'and pay council tax, water, gas, electricity and broadband charges for the term.',
        ),
        14,
        [
          { x: 72, text: 'Signed by the Landlord', size: 9 },
          { x: 320, text: 'Signed by the Tenant', size: 9 },
        ],
        [
          { x: 72, text: 'P. Venkataraman, 14 May 2026', size: 9 },
          { x: 320, text: 'T. Wielgosz, 14 May 2026', size: 9 },
        ],
      ]),
    },
    {
      kind: 'contract',
      layout: 'lift maintenance contract lettered particulars',
      schema: {
        service_provider: '',
        customer: '',
        contract_start: 'Commencement date',
        initial_term: 'Length of the first term',
        renewal_term: '',
        annual_charge: '',
        response_time: 'On-site response time for critical faults',
        non_renewal_notice: '',
        equipment_covered: '',
        price_cap: '',
      },
      expected: {
        service_provider: 'Brightline Lift Services Ltd',
        customer: 'Quayside Court Management Company Ltd',
        contract_start: '1 December 2026',
        initial_term: '24 months',
        renewal_term: '12 months',
        annual_charge: '\u00a39,840.00',
        response_time: '4 hours',
        non_renewal_notice: '90 days',
        equipment_covered: 'Passenger lifts L1 and L2, goods lift G1',
        price_cap: null,
      },
      pdf: sheet([
        [
          { x: 72, text: 'COMPREHENSIVE LIFT MAINTENANCE CONTRACT', font: 'F2', size: 14 },
          { right: 540, text: 'Ref. MC-7781', size: 9 },
        ],
        10,
        ...band('Part 1 \u2013 Particulars'),
        ...grid(
          [
            ['A', 'Contractor', 'Brightline Lift Services Ltd, 5 Tanner Row, York YO1 6JB'],
            ['B', 'Client', 'Quayside Court Management Company Ltd'],
            ['C', 'Site', 'Quayside Court, 1-60 Wharf Street, Hull HU1 1QX'],
            ['D', 'Equipment', 'Passenger lifts L1 and L2, goods lift G1'],
            ['E', 'Commencement Date', '1 December 2026'],
            ['F', 'Annual Charge', '\u00a39,840.00 plus VAT, payable quarterly in advance'],
            ['G', 'Response (critical faults)', 'within 4 hours of the call being logged'],
            ['H', 'Scheduled visits', '12 per year'],
          ],
          [72, 96, 250],
          0,
          10,
        ),
        ...band('Part 2 \u2013 Conditions'),
        ...para(
          '2.1  This Contract runs for an Initial Term of 24 months from the Commencement Date.',
          '2.2  It then renews automatically for successive Renewal Terms of 12 months each, unless either party',
          '       gives written notice of at least 90 days before the end of the Initial Term or a Renewal Term.',
          '2.3  The Contractor keeps a call centre open 24 hours a day, 365 days a year; a critical fault is a',
          '       trapped passenger or a lift out of service in a building with no other lift.',
          '2.4  The Annual Charge covers parts except ropes, sheaves, motors and controllers, which are quoted',
          '       separately; it is reviewed on each anniversary of the Commencement Date.',
          '2.5  The Contractor holds public liability insurance of not less than \u00a310 million for any one event.',
        ),
        14,
        [
          { x: 72, text: 'for the Contractor', size: 9 },
          { x: 320, text: 'for the Client', size: 9 },
        ],
        [
          { x: 72, text: 'Dean Ashworth, Contracts Manager', size: 9 },
          { x: 320, text: 'Eleanor Quist, Company Secretary', size: 9 },
        ],
      ]),
    },
    {
      kind: 'receipt',
      layout: 'ride hailing app receipt narrow',
      schema: {
        company: 'Ride-hailing company',
        driver: '',
        trip_date: '',
        pickup: 'Pick-up address',
        dropoff: '',
        distance: '',
        gratuity: '',
        total: 'Total charged',
        payment_method: '',
        vehicle_registration: '',
        vat: '',
      },
      expected: {
        company: 'Kestrel Rides',
        driver: 'Graham',
        trip_date: '14 Nov 2026',
        pickup: '18 Calton Road, Glasgow G40 2SH',
        dropoff: 'Queen Street Station, Glasgow G1 2AF',
        distance: '7.9;km',
        gratuity: '\u00a35.00',
        total: '\u00a323.85',
        payment_method: 'Visa',
        vehicle_registration: null,
        vat: null,
      },
      pdf: sheet(
        [
          [{ x: 24, text: 'Kestrel Rides', font: 'F2', size: 16 }],
          [{ x: 24, text: 'Sat, 14 Nov 2026', size: 9 }],
          8,
          [{ x: 24, text: 'Thanks for riding, Hannah', size: 12 }],
          6,
          [
            { x: 24, text: 'You paid', font: 'F2', size: 14 },
            { right: 276, text: '\u00a323.85', font: 'F2', size: 14 },
          ],
          10,
          [{ x: 24, text: 'Your trip', font: 'F2', size: 11 }],
          [
            { x: 24, text: '22:41', size: 9 },
            { x: 60, text: '18 Calton Road, Glasgow G40 2SH', size: 9 },
          ],
          [
            { x: 24, text: '23:07', size: 9 },
            { x: 60, text: 'Queen Street Station, Glasgow G1 2AF', size: 9 },
          ],
          [{ x: 60, text: 'Comfort \u2022 7.9 km \u2022 26 min', size: 9 }],
          10,
          [{ x: 24, text: 'Fare breakdown', font: 'F2', size: 11 }],
          ...amounts(
            [
              ['Trip fare', '\u00a317.60'],
              ['Booking fee', '\u00a31.25'],
              ['Subtotal', '\u00a318.85', 'F2'],
              ['Tip', '\u00a35.00'],
              ['Total', '\u00a323.85', 'F2'],
            ],
            24,
            276,
          ),
          10,
          [{ x: 24, text: 'Payments', font: 'F2', size: 11 }],
          ...amounts([['Visa \u2022\u2022\u2022\u2022 4417', '\u00a323.85']], 24, 276, 9),
          [{ x: 24, text: '14/11/2026 23:08', size: 8 }],
          10,
          [{ x: 24, text: 'Your driver was Graham (4.96)', size: 9 }],
          [{ x: 24, text: 'Skoda Octavia, grey', size: 9 }],
          10,
          [{ x: 24, text: 'Invite a friend and you both get \u00a35.00', size: 8 }],
          [{ x: 24, text: 'off your next ride. Code HANNAH-7Q2.', size: 8 }],
          6,
          [{ x: 24, text: 'Kestrel Mobility Ltd, 90 Hope Street, Glasgow G2 6PH', size: 7 }],
        ],
        [0, 0, 300, 792],
      ),
    },
    {
      kind: 'receipt',
      layout: 'pharmacy receipt three vat rates',
      schema: {
        pharmacy: '',
        receipt_number: '',
        date: '',
        total: '',
        vat_at_20_percent: 'VAT amount charged at the standard rate',
        vat_at_5_percent: '',
        zero_rated_total: '',
        payment_method: '',
        cashier: '',
        customer_name: '',
      },
      expected: {
        pharmacy: 'Greenway Pharmacy',
        receipt_number: '0417-2281-09',
        date: '27/10/2026',
        total: '41.85',
        vat_at_20_percent: '2.16',
        vat_at_5_percent: '0.90',
        zero_rated_total: '9.90',
        payment_method: 'Contactless Mastercard',
        cashier: 'Dawn',
        customer_name: null,
      },
      pdf: sheet(
        [
          [{ x: 150, text: 'Greenway Pharmacy', font: 'F2', size: 14 }],
          [{ x: 132, text: '61 Commercial Road, Bristol BS1 6AT', size: 9 }],
          [{ x: 160, text: 'VAT Reg. GB 318 4471 25', size: 9 }],
          10,
          ...amounts(
            [
              ['Receipt 0417-2281-09', '27/10/2026 14:52'],
              ['Till 2', 'Served by Dawn'],
            ],
            40,
            380,
            9,
          ),
          6,
          ...grid([['Item', 'Qty', 'Price', 'VAT']], [40, 250, 310, 360]),
          ...[
            ['Prescription charge', '1', '9.90', 'Z'],
            ['Nicotine patches 21mg 14', '1', '19.00', 'R'],
            ['Sun cream SPF50 200ml', '1', '8.99', 'S'],
            ['Plasters assorted 40', '2', '3.96', 'S'],
          ].map(
            ([item, qty, price, code]): Line => [
              { x: 40, text: item!, size: 9 },
              { x: 250, text: qty!, size: 9 },
              { right: 336, text: price!, size: 9 },
              { x: 362, text: code!, size: 9 },
            ],
          ),
          6,
          ...amounts([['TOTAL', '41.85', 'F2']], 40, 336, 12),
          ...amounts([['CONTACTLESS MASTERCARD', '41.85']], 40, 336, 9),
          [{ x: 40, text: 'Card ************5530   Auth 084417', size: 8 }],
          10,
          ...grid(
            [
              ['Code', 'Rate', 'Net', 'VAT', 'Gross'],
              ['S', '20%', '10.79', '2.16', '12.95'],
              ['R', '5%', '18.10', '0.90', '19.00'],
              ['Z', '0%', '9.90', '0.00', '9.90'],
              ['', 'Total', '38.79', '3.06', '41.85'],
            ],
            [40, 90, 160, 230, 300],
          ),
          [{ x: 40, text: 'Items 4', size: 9 }],
          [{ x: 40, text: 'Keep your receipt: medicines cannot be returned', size: 8 }],
          [{ x: 40, text: 'once they have left the pharmacy.', size: 8 }],
        ],
        [0, 0, 420, 792],
      ),
    },
    {
      kind: 'receipt',
      layout: 'purchase order delivery and invoice addresses side by side',
      schema: {
        po_number: 'Purchase order number',
        buyer: '',
        supplier: '',
        order_date: '',
        delivery_address: '',
        invoice_address: 'Billing address',
        required_delivery_date: '',
        net_total: '',
        vat_amount: '',
        order_total: '',
        buyer_contact_phone: '',
      },
      expected: {
        po_number: '45-00872',
        buyer: 'Arden Foods Ltd',
        supplier: 'Pellman Catering Equipment Ltd',
        order_date: '2026-11-02',
        delivery_address: 'Unit 7, Brookfield Trading Estate, Leicester LE4 9HP',
        invoice_address: 'PO Box 3318, Nottingham NG1 9JU',
        required_delivery_date: '20 November 2026',
        net_total: '4,312.00',
        vat_amount: '862.40',
        order_total: '5,174.40',
        buyer_contact_phone: null,
      },
      pdf: sheet([
        [
          { x: 72, text: 'Arden Foods Ltd', font: 'F2', size: 16 },
          { x: 380, text: 'PURCHASE ORDER', font: 'F2', size: 13 },
        ],
        [
          { x: 72, text: 'Registered in England No. 07431196', size: 8 },
          { x: 380, text: 'PO number', size: 8 },
          { x: 460, text: '45-00872', font: 'F2', size: 10 },
        ],
        [
          { x: 380, text: 'Order date', size: 8 },
          { x: 460, text: '2026-11-02', size: 10 },
        ],
        [
          { x: 380, text: 'Buyer', size: 8 },
          { x: 460, text: 'R. Okafor', size: 10 },
        ],
        12,
        [{ x: 72, text: 'To', font: 'F2', size: 9 }],
        [{ x: 72, text: 'Pellman Catering Equipment Ltd' }],
        [{ x: 72, text: '9 Furnace Lane, Sheffield S9 3QP' }],
        12,
        [
          { x: 72, text: 'Deliver to', font: 'F2', size: 9 },
          { x: 320, text: 'Send invoices to', font: 'F2', size: 9 },
        ],
        [
          { x: 72, text: 'Arden Foods Ltd \u2013 Goods In', size: 9 },
          { x: 320, text: 'Arden Foods Ltd \u2013 Accounts Payable', size: 9 },
        ],
        [
          { x: 72, text: 'Unit 7, Brookfield Trading Estate, Leicester LE4 9HP', size: 9 },
          { x: 320, text: 'PO Box 3318, Nottingham NG1 9JU', size: 9 },
        ],
        [
          { x: 72, text: 'Goods in: Mon-Fri 07:00-14:00', size: 8 },
          { x: 320, text: 'Quote the PO number on every invoice', size: 8 },
        ],
        12,
        [
          { x: 72, text: 'Required by', font: 'F2', size: 9 },
          { x: 140, text: '20 November 2026', size: 9 },
          { x: 320, text: 'Your quotation', font: 'F2', size: 9 },
          { x: 400, text: 'Q-26-1187 of 28 Oct 2026', size: 9 },
        ],
        10,
        ...[
          ['Line', 'Part no.', 'Description', 'Qty', 'Unit price', 'Amount'],
          ['1', 'PCE-CO6', 'Combination oven, 6 x GN 1/1, 400 V', '1', '3,480.00', '3,480.00'],
          ['2', 'PCE-GN11-65', 'Gastronorm pan 1/1, 65 mm, stainless', '20', '18.60', '372.00'],
          ['3', 'PCE-INST', 'Installation and commissioning', '1', '460.00', '460.00'],
        ].map(
          ([line, part, desc, qty, unit, amount], i): Line => [
            { x: 72, text: line!, size: 9, font: i === 0 ? 'F2' : 'F1' },
            { x: 100, text: part!, size: 9, font: i === 0 ? 'F2' : 'F1' },
            { x: 175, text: desc!, size: 9, font: i === 0 ? 'F2' : 'F1' },
            { x: 375, text: qty!, size: 9, font: i === 0 ? 'F2' : 'F1' },
            { right: 470, text: unit!, size: 9, font: i === 0 ? 'F2' : 'F1' },
            { right: 540, text: amount!, size: 9, font: i === 0 ? 'F2' : 'F1' },
          ],
        ),
        8,
        ...amounts(
          [
            ['Goods and services', '4,312.00'],
            ['VAT 20%', '862.40'],
            ['Total due (GBP)', '5,174.40', 'F2'],
          ],
          380,
          540,
          9,
        ),
        12,
        ...para(
          'Payment 30 days end of month. Deliveries without the PO number will be refused at Goods In.',
          'This order is placed on Arden Foods standard purchasing terms, available on request.',
        ),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'solenoid valve per port size table',
      schema: {
        kv_per_model: {},
        orifice_per_model: {},
        max_pressure_per_model: {},
        coil_voltage: '',
        coil_power: 'Holding power of the coil',
        seal_material: '',
        body_material: '',
        medium_temperature: 'Fluid temperature range',
        protection_class: 'IP rating',
        min_pressure_differential: '',
        response_time: '',
        certifications: '',
      },
      expected: {
        kv_per_model: { 'SV2-06': '0.9;m\u00b3/h', 'SV2-10': '2.0;m\u00b3/h', 'SV2-13': '3.6;m\u00b3/h' },
        orifice_per_model: { 'SV2-06': '6;mm', 'SV2-10': '10;mm', 'SV2-13': '13;mm' },
        max_pressure_per_model: { 'SV2-06': '16;bar', 'SV2-10': '12;bar', 'SV2-13': '10;bar' },
        coil_voltage: '24;V DC',
        coil_power: '8;W',
        seal_material: 'FKM',
        body_material: 'Brass CW617N',
        medium_temperature: '-10 to +120 \u00b0C',
        protection_class: 'IP65',
        min_pressure_differential: '0.5;bar',
        response_time: null,
        certifications: null,
      },
      pdf: sheet([
        ...title('SV2 series 2/2-way solenoid valves, servo-assisted, normally closed', 13),
        ...para(
          'For water, compressed air, light oil and neutral gases. Servo-assisted diaphragm: needs a pressure',
          'differential of at least 0.5 bar to open fully. Coil rotatable through 360\u00b0.',
        ),
        ...sub('Versions'),
        4,
        ...grid(
          [
            ['Model', 'Port size', 'Orifice', 'Kv', 'Max. operating', 'Weight'],
            ['', '', '(mm)', '(m\u00b3/h)', 'pressure (bar)', '(kg)'],
            ['SV2-06', 'G 1/4', '6', '0.9', '16', '0.31'],
            ['SV2-10', 'G 3/8', '10', '2.0', '12', '0.36'],
            ['SV2-13', 'G 1/2', '13', '3.6', '10', '0.42'],
          ],
          [72, 150, 220, 290, 360, 460],
          2,
        ),
        ...sub('Coil'),
        ...pairs(
          [
            ['Voltage', '24 V DC (\u00b110 %)'],
            ['Power', '8 W holding, 18 VA inrush'],
            ['Duty cycle', '100 % ED'],
            ['Electrical connection', 'Connector to EN 175301-803 form A'],
            ['Degree of protection', 'IP65 with connector fitted'],
          ],
          [90, 250],
        ),
        ...sub('Materials'),
        ...pairs(
          [
            ['Body', 'Brass CW617N'],
            ['Seals and diaphragm', 'FKM'],
            ['Armature tube', 'Stainless steel 1.4306'],
          ],
          [90, 250],
        ),
        ...sub('Fluid'),
        ...pairs(
          [
            ['Temperature', '-10 to +120 \u00b0C'],
            ['Viscosity', 'max. 21 mm\u00b2/s'],
            ['Pressure differential', 'min. 0.5 bar, max. see Versions'],
          ],
          [90, 250],
        ),
        ...para('Ambient temperature -10 to +50 \u00b0C. Mounting position: any, coil upright preferred.'),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'li-ion cell grouped nominal minimum rows',
      schema: {
        nominal_capacity: '',
        minimum_capacity: '',
        nominal_voltage: '',
        charge_voltage: 'Charge cut-off voltage',
        discharge_cutoff_voltage: '',
        max_charge_current: '',
        max_discharge_current: 'Maximum continuous discharge current',
        internal_resistance: 'AC internal resistance',
        weight: '',
        cycle_life: '',
        self_discharge: '',
      },
      expected: {
        nominal_capacity: '3400;mAh',
        minimum_capacity: '3300;mAh',
        nominal_voltage: '3.6;V',
        charge_voltage: '4.20;V',
        discharge_cutoff_voltage: '2.50;V',
        max_charge_current: '3400;mA',
        max_discharge_current: '10;A',
        internal_resistance: '35;mOhm',
        weight: '48.0;g',
        cycle_life: '500;cycles',
        self_discharge: null,
      },
      pdf: sheet([
        ...title('Product Specification'),
        [{ x: 72, text: 'Rechargeable lithium-ion cell  LC-18650-34H', font: 'F2', size: 12 }],
        [{ x: 72, text: 'Document PS-34H rev. C, 2026-06-30', size: 8 }],
        10,
        ...grid(
          [
            ['No.', 'Item', '', 'Condition', 'Specification'],
            ['1', 'Capacity', 'Nominal', '0.2C discharge at 25 \u00b0C', '3400 mAh'],
            ['', '', 'Minimum', '0.2C discharge at 25 \u00b0C', '3300 mAh'],
            ['2', 'Voltage', 'Nominal', 'average, 0.2C discharge', '3.6 V'],
            ['', '', 'Charge cut-off', 'CC-CV', '4.20 V \u00b1 0.05 V'],
            ['', '', 'Discharge cut-off', '', '2.50 V'],
            ['3', 'Charge current', 'Standard', '0 to 45 \u00b0C', '0.5C (1700 mA)'],
            ['', '', 'Maximum', '10 to 45 \u00b0C', '1C (3400 mA)'],
            ['4', 'Discharge current', 'Max. continuous', 'at 25 \u00b0C', '10 A'],
            ['', '', 'Pulse', '10 s, at 25 \u00b0C', '15 A'],
            ['5', 'Internal resistance', 'AC 1 kHz', 'at 50 % SoC, 25 \u00b0C', 'max. 35 mOhm'],
            ['6', 'Weight', '', '', '48.0 \u00b1 1.0 g'],
            ['7', 'Dimensions', 'Diameter', '', '18.4 mm max.'],
            ['', '', 'Height', '', '65.2 mm max.'],
            ['8', 'Cycle life', '', '0.5C/1C at 25 \u00b0C, to 80 % of', 'min. 500 cycles'],
            ['', '', '', 'nominal capacity', ''],
            ['9', 'Temperature', 'Charge', '', '0 to 45 \u00b0C'],
            ['', '', 'Discharge', '', '-20 to 60 \u00b0C'],
          ],
          [72, 95, 190, 280, 430],
          1,
          9,
        ),
        ...sub('Storage'),
        ...para(
          'Ship and store at 30 to 50 % state of charge. Store below 25 \u00b0C; recharge to 50 % every 6 months.',
          'Cells are shipped as UN 3480, class 9. Do not short, crush, heat above 100 \u00b0C or solder to the cell.',
        ),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'led driver dotted leaders dimming prose',
      schema: {
        output_current: '',
        output_voltage_range: '',
        max_output_power: '',
        input_voltage: '',
        efficiency: 'Efficiency at full load',
        power_factor: '',
        dimming_interface: 'Dimming method',
        dimming_range: '',
        standby_power: '',
        ip_rating: '',
        lifetime: '',
        surge_protection: '',
      },
      expected: {
        output_current: '700;mA',
        output_voltage_range: '21-43 V DC',
        max_output_power: '30;W',
        input_voltage: '220-240 V AC',
        efficiency: '90;%',
        power_factor: '0.95',
        dimming_interface: '0-10 V',
        dimming_range: '10-100 %',
        standby_power: '0.5;W',
        ip_rating: 'IP20',
        lifetime: null,
        surge_protection: null,
      },
      pdf: sheet([
        ...title('LDC-30-700 constant current LED driver'),
        ...para(
          'Built-in driver for panels, downlights and linear luminaires. Class II, SELV output, for use inside',
          'a luminaire or in a separate terminal cover.',
        ),
        ...sub('Electrical Data'),
        4,
        ...leaders([
          ['Rated output current', '700 mA (constant current)'],
          ['Output voltage range', '21-43 V DC'],
          ['Max. output power', '30 W'],
          ['Input voltage', '220-240 V AC, 50/60 Hz'],
          ['Input current', '0.15 A at 230 V'],
          ['Efficiency', 'typ. 90 % at full load'],
          ['Power factor', '> 0.95 at 230 V, full load'],
          ['Current ripple', '< 5 %'],
          ['Inrush current', '18 A / 110 \u00b5s'],
        ]),
        ...sub('Dimming'),
        ...para(
          'The driver is dimmed with a 0-10 V analogue signal (or a potentiometer between DIM+ and DIM-) over a',
          'dimming range of 10-100 % of the rated output current. Open dimming wires give full output. Below',
          '0.7 V on the dimming input the output switches off, and the standby power is then below 0.5 W. The',
          'dimming interface is isolated from the mains and may be wired as SELV.',
        ),
        ...sub('Mechanical Data'),
        4,
        ...leaders([
          ['Dimensions (L x W x H)', '150 x 30 x 21 mm'],
          ['Casing', 'Polycarbonate, IP20, for indoor use'],
          ['Terminals', 'push-in, 0.5-1.5 mm\u00b2, strip 8-9 mm'],
          ['Ambient temperature', '-20 to +50 \u00b0C'],
          ['Max. case temperature tc', '75 \u00b0C'],
          ['Weight', '110 g'],
        ]),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'proximity sensor ordering table order code last',
      schema: {
        sensing_distance_per_model: {},
        output_per_model: {},
        mounting_per_model: {},
        supply_voltage: '',
        switching_frequency: '',
        load_current: 'Maximum output current',
        housing_material: '',
        thread_size: '',
        protection_rating: '',
        operating_temperature: '',
        hysteresis: '',
        repeat_accuracy: '',
      },
      expected: {
        sensing_distance_per_model: {
          'IPS-12F-4PN': '4;mm',
          'IPS-12F-4NN': '4;mm',
          'IPS-12N-8PN': '8;mm',
          'IPS-12N-8PK': '8;mm',
        },
        output_per_model: {
          'IPS-12F-4PN': 'PNP NO',
          'IPS-12F-4NN': 'NPN NO',
          'IPS-12N-8PN': 'PNP NO',
          'IPS-12N-8PK': 'PNP NO',
        },
        mounting_per_model: {
          'IPS-12F-4PN': 'flush',
          'IPS-12F-4NN': 'flush',
          'IPS-12N-8PN': 'non-flush',
          'IPS-12N-8PK': 'non-flush',
        },
        supply_voltage: '10-30 V DC',
        switching_frequency: '800;Hz',
        load_current: '200;mA',
        housing_material: 'Nickel-plated brass',
        thread_size: 'M12 x 1',
        protection_rating: 'IP67',
        operating_temperature: '-25 to +70 \u00b0C',
        hysteresis: null,
        repeat_accuracy: null,
      },
      pdf: sheet([
        ...title('IPS-12 inductive proximity sensors, M12'),
        ...para(
          'Cylindrical sensors for detecting steel targets without contact: end-of-travel positions, counting,',
          'speed monitoring. Short housing, LED status indicator visible from all sides.',
        ),
        ...band('Ordering information'),
        ...grid(
          [
            ['Sensing distance Sn', 'Mounting', 'Output', 'Connection', 'Order code'],
            ['4 mm', 'flush', 'PNP NO', 'M12 connector, 4-pin', 'IPS-12F-4PN'],
            ['4 mm', 'flush', 'NPN NO', 'M12 connector, 4-pin', 'IPS-12F-4NN'],
            ['8 mm', 'non-flush', 'PNP NO', 'M12 connector, 4-pin', 'IPS-12N-8PN'],
            ['8 mm', 'non-flush', 'PNP NO', 'PVC cable, 2 m', 'IPS-12N-8PK'],
          ],
          [72, 175, 245, 310, 440],
        ),
        ...band('Technical data'),
        ...pairs(
          [
            ['Supply voltage', '10-30 V DC, reverse polarity protected'],
            ['Output current', 'max. 200 mA, short-circuit protected'],
            ['No-load current', '< 10 mA'],
            ['Switching frequency', 'max. 800 Hz'],
            ['Thread', 'M12 x 1'],
            ['Housing', 'Nickel-plated brass, sensing face PBT'],
            ['Degree of protection', 'IP67'],
            ['Ambient temperature', '-25 to +70 \u00b0C'],
            ['Tightening torque', 'max. 10 N\u00b7m'],
          ],
          [72, 220],
        ),
        ...para(
          'Sn is the nominal sensing distance on a 12 x 12 x 1 mm mild steel target. Reduce it for other metals:',
          'stainless steel 0.7 x Sn, brass 0.4 x Sn, aluminium 0.35 x Sn.',
        ),
      ]),
    },
  ];
  return docs.map((doc) => ({ ...doc, name: `fresh-12-${doc.kind}-${doc.layout.replace(/\s+/g, '-')}.pdf` }));
};
