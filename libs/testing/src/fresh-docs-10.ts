// SPDX-License-Identifier: AGPL-3.0-or-later
import type { BusinessDoc } from './business-docs.js';
import { makePdf } from './make-pdf.js';

/**
 * Fresh variant 10 (issue 26, a blind held-out set): written by someone who had not read the offline extractor, and
 * committed before its first run. Layouts and wordings none of variants 1-9 use, drawn run by run (not with
 * `page()`): labels and values are separate text runs at different x positions (no double spaces between them),
 * some labels are set in small caps (a capital and smaller capitals in one text object), lists carry bullets.
 *
 * Contracts: a lease renewal letter from the landlord's agent (the letterhead is not the landlord; the new terms as
 * label/value runs, the premises in the "Re:" line); a distribution agreement whose parties, commencement date,
 * territory and term are only in its definitions clause; a statement of work (a header box, a milestone table, the
 * start and end dates in a sentence, the provider called "Contractor"). Receipts: a hotel invoice in two columns with
 * small-caps labels (ARRIVAL / DEPARTURE for check-in / check-out, a subtotal, a VAT line, a total and the same amount
 * again as the card payment, European amounts and dotted dates); a bank fee statement (this period's total fees and
 * the year-to-date total, an average balance in prose); an online order confirmation (billing and shipping addresses
 * side by side, items subtotal vs order total, the total repeated in a sentence). Datasheets: a BLDC motor family
 * with four models as rows and the units in a second header row (per-model dicts); an accelerometer with an
 * "Absolute maximum ratings" table and an "Electrical characteristics" Min./Typ./Max. table that both have a
 * "Supply voltage" row; an M12 cable whose values are in bullet lists with qualifiers ("max.", "typ.", "min.") and
 * two temperature ranges under different conditions; a centrifugal pump with a performance table, a best-efficiency
 * point given by a note marker and a note, and the shut-off head named only in the notes.
 *
 * Schemas as users write them: some fields bare, some with a description, per-model fields as `{}`; several field
 * names are synonyms of the printed labels (`check_in_date` / "Arrival", `service_provider` / "Contractor",
 * `effective_date` / "Commencement Date", `max_head` / "Shut-off head"). Ten fields are not stated (expected null).
 * `expected` is what the page prints for the value ("value;unit" where the value is one number and a unit).
 */

/** One text run: `text` drawn from (`x`, the line's y); `caps` sets it in small caps. */
interface Run {
  x: number;
  text: string;
  font?: 'F1' | 'F2' | 'F3';
  size?: number;
  caps?: boolean;
}
/** A line of runs at one height, or vertical space in points. */
type Line = Run[] | number;

/** WinAnsiEncoding's characters outside Latin-1 that these documents use. */
const WIN_ANSI: Record<string, number> = { '\u20ac': 0x80, '\u2022': 0x95, '\u2013': 0x96, '\u2014': 0x97 };

/** A PDF string literal's contents in WinAnsiEncoding; a character the fonts cannot print is a mistake here. */
const encode = (text: string): string =>
  text.replace(/[\\()]|[^\x20-\x7e]/g, (c) => {
    if (c === '\\' || c === '(' || c === ')') return `\\${c}`;
    const code = WIN_ANSI[c] ?? c.charCodeAt(0);
    if (code < 0x80 || (code > 0xff && !(c in WIN_ANSI)))
      throw new Error(`fresh-docs-10: cannot print ${JSON.stringify(c)}`);
    return `\\${code.toString(8)}`;
  });

/** Small caps: capitals at `size`, the other letters as capitals at 80 % of it, in one text object. */
const smallCaps = (text: string, size: number): string => {
  const parts = text.match(/[a-z]+|[^a-z]+/g) ?? [];
  return parts
    .map((part) =>
      /[a-z]/.test(part)
        ? `/F1 ${(size * 0.8).toFixed(1)} Tf (${encode(part.toUpperCase())}) Tj`
        : `/F1 ${size} Tf (${encode(part)}) Tj`,
    )
    .join(' ');
};

/** One page of lines, top to bottom from y = 700 (below the band where running headers are dropped). */
const sheet = (lines: Line[]): Buffer => {
  const ops: string[] = [];
  let y = 700;
  for (const line of lines) {
    if (typeof line === 'number') {
      y -= line;
      continue;
    }
    const height = Math.max(...line.map((r) => r.size ?? 10));
    for (const run of line) {
      const size = run.size ?? 10;
      const show = run.caps ? smallCaps(run.text, size) : `/${run.font ?? 'F1'} ${size} Tf (${encode(run.text)}) Tj`;
      ops.push(`BT ${run.x} ${y} Td ${show} ET`);
    }
    y -= height + 5;
  }
  if (y < 40) throw new Error('fresh-docs-10: page overflow');
  return makePdf([{ content: ops.join('\n') }]);
};

// Line builders.
const heading = (text: string, size = 15): Line[] => [[{ x: 72, text, font: 'F2', size }], 6];
const para = (...texts: string[]): Line[] => [...texts.map((text): Line => [{ x: 72, text }]), 6];
/** Label and value as separate runs at two x positions. */
const pairs = (rows: [string, string][], at: [number, number] = [72, 230], label: Partial<Run> = {}): Line[] => [
  ...rows.map(
    ([l, v]): Line => [
      { x: at[0], text: l, ...label },
      { x: at[1], text: v },
    ],
  ),
  6,
];
/** Rows of cells at the given x positions; the first `headerRows` rows in bold. */
const grid = (rows: string[][], xs: number[], headerRows = 1, size = 9): Line[] => [
  ...rows.map(
    (row, i): Line =>
      row
        .map((text, k): Run => ({ x: xs[k]!, text, size, font: i < headerRows ? 'F2' : 'F1' }))
        .filter((r) => r.text !== ''),
  ),
  8,
];
/** Bulleted lines: the bullet and its text as separate runs. */
const bullets = (...texts: string[]): Line[] => [
  ...texts.map(
    (text): Line => [
      { x: 80, text: '\u2022' },
      { x: 92, text },
    ],
  ),
  6,
];

export const freshVariant10Docs = (): BusinessDoc[] => {
  const docs: Omit<BusinessDoc, 'name'>[] = [
    {
      kind: 'contract',
      layout: 'lease renewal letter',
      schema: {
        landlord: 'Owner of the premises',
        tenant: '',
        premises: 'Address of the property let',
        letter_date: '',
        renewal_start_date: 'Date the new lease term begins',
        lease_term: '',
        annual_rent: '',
        offer_valid_until: 'Last date to accept the offer',
        security_deposit: '',
      },
      expected: {
        landlord: 'Marlowe Property Holdings Limited',
        tenant: 'Fenwick Bindery Ltd',
        premises: 'Unit 4, Riverside Works, Whitefriars, Norwich NR3 1RX',
        letter_date: '17 November 2025',
        renewal_start_date: '30 June 2026',
        lease_term: '5 years',
        annual_rent: '\u00a321,600',
        offer_valid_until: '31 December 2025',
        security_deposit: null,
      },
      pdf: sheet([
        [{ x: 72, text: 'Harrowgate Estates LLP', font: 'F2', size: 14 }],
        [{ x: 72, text: 'Chartered Surveyors and Letting Agents', size: 8 }],
        [{ x: 72, text: '3 Millbank Court, Norwich NR1 3FG   Tel 01603 700 221', size: 8 }],
        18,
        [
          { x: 72, text: 'Ms Priya Raman' },
          { x: 420, text: '17 November 2025' },
        ],
        [{ x: 72, text: 'Director, Fenwick Bindery Ltd' }],
        [
          { x: 72, text: 'Unit 4, Riverside Works' },
          { x: 420, text: 'Our ref: HE/RW4/LR25' },
        ],
        [{ x: 72, text: 'Whitefriars, Norwich NR3 1RX' }],
        14,
        ...para('Dear Ms Raman,'),
        [
          {
            x: 72,
            text: 'Re: Unit 4, Riverside Works, Whitefriars, Norwich NR3 1RX - renewal of your lease',
            font: 'F2',
          },
        ],
        6,
        ...para(
          'Your current lease of the above premises, granted on 30 June 2021, expires on 29 June 2026. On behalf of',
          'our client, Marlowe Property Holdings Limited, the landlord, we are pleased to offer Fenwick Bindery Ltd',
          'a renewal lease on the following terms:',
        ),
        ...pairs(
          [
            ['New term', '5 years'],
            ['Commencing', '30 June 2026'],
            ['Rent', '\u00a321,600 per annum exclusive of VAT, payable quarterly in advance'],
            ['Rent review', 'upward only, at the end of the third year'],
            ['Break clause', "tenant only, on six months' written notice, at the end of the third year"],
            ['Service charge', 'as under the existing lease'],
          ],
          [90, 200],
          { font: 'F2' },
        ),
        ...para(
          'All other terms will follow the existing lease. This offer is made subject to contract and remains',
          'open for acceptance until 31 December 2025. To accept, please sign and return the enclosed copy.',
        ),
        ...para('Yours sincerely,'),
        14,
        ...para('Tom Aldous MRICS', 'Associate Director, for and on behalf of Harrowgate Estates LLP'),
      ]),
    },
    {
      kind: 'contract',
      layout: 'distribution agreement definitions clause',
      schema: {
        parties: [],
        effective_date: '',
        territory: 'Where the distributor may sell the products',
        initial_term: '',
        minimum_purchase_quantity: 'Minimum units the distributor must buy each year',
        payment_terms: 'Days allowed to pay an invoice',
        governing_law: '',
        commission_rate: '',
      },
      expected: {
        parties: ['Vantor Messtechnik GmbH', 'Eirlinn Lab Supplies Limited'],
        effective_date: '1 March 2026',
        territory: 'Ireland and Northern Ireland',
        initial_term: 'four (4) years',
        minimum_purchase_quantity: '250;units',
        payment_terms: '60;days',
        governing_law: 'Federal Republic of Germany',
        commission_rate: null,
      },
      pdf: sheet([
        ...heading('EXCLUSIVE DISTRIBUTION AGREEMENT'),
        ...para(
          'This Agreement is made between the Supplier and the Distributor (each as defined in clause 1) and is',
          'dated the date of the last signature below.',
        ),
        [{ x: 72, text: '1. DEFINITIONS', font: 'F2' }],
        4,
        ...para(
          '1.1 In this Agreement the following words have the meanings given to them below:',
          '"Supplier" means Vantor Messtechnik GmbH, a company registered in the commercial register of',
          'Freiburg under HRB 712345, whose office is at Hermann-Mitsch-Str. 8, 79108 Freiburg, Germany;',
          '"Distributor" means Eirlinn Lab Supplies Limited, a company incorporated in Ireland with registered',
          'number 654321, whose office is at Unit 9, Sandyford Business Park, Dublin 18;',
          '"Commencement Date" means 1 March 2026;',
          '"Products" means the Vantor portable gas analysers listed in Schedule 1;',
          '"Territory" means Ireland and Northern Ireland;',
          '"Minimum Annual Quantity" means 250 units of the Products in each Contract Year;',
          '"Initial Term" means the period of four (4) years from the Commencement Date.',
        ),
        [{ x: 72, text: '2. APPOINTMENT', font: 'F2' }],
        4,
        ...para(
          '2.1 The Supplier appoints the Distributor as its exclusive distributor of the Products in the Territory',
          'for the Initial Term, and the Distributor accepts the appointment.',
        ),
        [{ x: 72, text: '5. PRICES AND PAYMENT', font: 'F2' }],
        4,
        ...para(
          "5.1 The Distributor shall buy the Products at the prices in the Supplier's export price list in force.",
          '5.2 The Distributor shall pay each invoice in euro within 60 days of the invoice date.',
        ),
        [{ x: 72, text: '12. LAW AND JURISDICTION', font: 'F2' }],
        4,
        ...para(
          '12.1 This Agreement and any dispute arising from it shall be governed by the laws of the Federal',
          'Republic of Germany. 12.2 The courts of Freiburg shall have exclusive jurisdiction.',
        ),
        12,
        [
          { x: 72, text: 'For the Supplier', font: 'F2' },
          { x: 330, text: 'For the Distributor', font: 'F2' },
        ],
        [
          { x: 72, text: 'Joost Verhagen, Managing Director' },
          { x: 330, text: 'Aoife Brennan, Director' },
        ],
        [
          { x: 72, text: 'Signed 24 February 2026' },
          { x: 330, text: 'Signed 26 February 2026' },
        ],
      ]),
    },
    {
      kind: 'contract',
      layout: 'statement of work',
      schema: {
        client: '',
        service_provider: 'Company doing the work',
        sow_number: '',
        start_date: '',
        completion_date: 'Date the project must be finished by',
        total_fee: '',
        master_agreement_date: 'Date of the master services agreement',
        client_contact: '',
        governing_law: '',
      },
      expected: {
        client: 'Pellucid Health Inc.',
        service_provider: 'Ardent Loop Software S.L.',
        sow_number: 'SOW-0031',
        start_date: '2 March 2026',
        completion_date: '29 May 2026',
        total_fee: 'USD 96,500',
        master_agreement_date: '12 January 2025',
        client_contact: 'Dana Whitcombe',
        governing_law: null,
      },
      pdf: sheet([
        ...heading('STATEMENT OF WORK', 18),
        ...pairs(
          [
            ['SOW number', 'SOW-0031'],
            ['Under', 'Master Services Agreement dated 12 January 2025'],
            ['Client', 'Pellucid Health Inc.'],
            ['Contractor', 'Ardent Loop Software S.L.'],
            ['Project', 'Patient portal accessibility remediation'],
          ],
          [72, 180],
          { font: 'F2', size: 9 },
        ),
        [{ x: 72, text: '1. Scope', font: 'F2', size: 12 }],
        4,
        ...para(
          'Contractor will audit the patient portal against WCAG 2.2 level AA, fix the defects found and hand',
          'over a test report. Content authoring and third-party widgets are out of scope.',
        ),
        [{ x: 72, text: '2. Schedule', font: 'F2', size: 12 }],
        4,
        ...grid(
          [
            ['Milestone', 'Due', 'Share of fee'],
            ['M1 Audit report delivered', '13 March 2026', '30%'],
            ['M2 Remediation complete', '8 May 2026', '50%'],
            ['M3 Acceptance by Client', '29 May 2026', '20%'],
          ],
          [72, 280, 420],
        ),
        ...para(
          'Work starts on 2 March 2026. The project ends on acceptance of M3 and in any case no later than',
          '29 May 2026, unless the parties agree a change in writing.',
        ),
        [{ x: 72, text: '3. Fees', font: 'F2', size: 12 }],
        4,
        ...para(
          'Fixed price: USD 96,500 (excluding applicable taxes). Each share of the fee is invoiced on acceptance of',
          'its milestone and is payable net 30. Travel must be approved in writing by the Client in advance.',
        ),
        [{ x: 72, text: '4. Contacts', font: 'F2', size: 12 }],
        4,
        ...pairs(
          [
            ['Client contact', 'Dana Whitcombe, Product Owner'],
            ['Contractor contact', 'Marc Oliveras, Delivery Lead'],
          ],
          [72, 200],
        ),
      ]),
    },
    {
      kind: 'receipt',
      layout: 'hotel invoice small caps labels',
      schema: {
        hotel_name: '',
        guest_name: '',
        invoice_number: '',
        check_in_date: '',
        check_out_date: '',
        room_number: '',
        total_amount: 'Amount charged including VAT',
        vat_amount: '',
        loyalty_number: 'Guest loyalty programme number',
      },
      expected: {
        hotel_name: 'Hotel Graben Hof',
        guest_name: 'Lars Halvorsen',
        invoice_number: '2026/00417',
        check_in_date: '02.02.2026',
        check_out_date: '06.02.2026',
        room_number: 312,
        total_amount: '927,63',
        vat_amount: '84,33',
        loyalty_number: null,
      },
      pdf: sheet([
        [
          { x: 72, text: 'Hotel Graben Hof', font: 'F2', size: 16 },
          { x: 340, text: 'Invoice', caps: true, size: 14 },
        ],
        8,
        [
          { x: 72, text: 'Spiegelgasse 14' },
          { x: 340, text: 'Invoice no.', caps: true, size: 8 },
          { x: 440, text: '2026/00417' },
        ],
        [
          { x: 72, text: '1010 Wien, Austria' },
          { x: 340, text: 'Invoice date', caps: true, size: 8 },
          { x: 440, text: '06.02.2026' },
        ],
        [
          { x: 72, text: 'UID ATU63970412' },
          { x: 340, text: 'Room', caps: true, size: 8 },
          { x: 440, text: '312' },
        ],
        [
          { x: 340, text: 'Guest', caps: true, size: 8 },
          { x: 440, text: 'Lars Halvorsen' },
        ],
        [
          { x: 72, text: 'Billed to', caps: true, size: 8 },
          { x: 340, text: 'Arrival', caps: true, size: 8 },
          { x: 440, text: '02.02.2026' },
        ],
        [
          { x: 72, text: 'Halvorsen Consulting AS' },
          { x: 340, text: 'Departure', caps: true, size: 8 },
          { x: 440, text: '06.02.2026' },
        ],
        [{ x: 72, text: 'Bygd\u00f8y all\u00e9 23, 0262 Oslo, Norway' }],
        14,
        ...grid(
          [
            ['Date', 'Description', 'Qty', 'Amount EUR'],
            ['02.02.2026', 'Superior double room', '4', '756,00'],
            ['03.02.2026', 'Breakfast buffet', '2', '56,00'],
            ['05.02.2026', 'Minibar', '1', '18,50'],
            ['06.02.2026', 'City tax', '4', '12,80'],
          ],
          [72, 150, 380, 470],
        ),
        [
          { x: 340, text: 'Subtotal', caps: true, size: 8 },
          { x: 470, text: '843,30' },
        ],
        [
          { x: 340, text: 'VAT 10 %', caps: true, size: 8 },
          { x: 470, text: '84,33' },
        ],
        [
          { x: 340, text: 'Total EUR', caps: true, size: 9 },
          { x: 470, text: '927,63', font: 'F2' },
        ],
        10,
        [
          { x: 72, text: 'Paid by Mastercard ****5521 on 06.02.2026' },
          { x: 470, text: '927,63' },
        ],
        [
          { x: 72, text: 'Balance' },
          { x: 470, text: '0,00' },
        ],
        14,
        ...para('Thank you for staying with us. Bank: Erste Bank, IBAN AT48 2011 1822 2091 4400.'),
      ]),
    },
    {
      kind: 'receipt',
      layout: 'bank fee statement',
      schema: {
        bank_name: '',
        account_holder: 'Name on the account',
        account_number: '',
        statement_end_date: 'Last day of the statement period',
        total_fees: 'Fees charged in this statement period',
        overdraft_fee: '',
        average_daily_balance: '',
        interest_paid: '',
      },
      expected: {
        bank_name: 'Caldera Community Bank',
        account_holder: 'Redwood Kiln Ceramics LLC',
        account_number: 'XXXXXX8842',
        statement_end_date: 'October 31, 2025',
        total_fees: '$107.00',
        overdraft_fee: '$34.00',
        average_daily_balance: '$3,412.18',
        interest_paid: null,
      },
      pdf: sheet([
        [{ x: 72, text: 'Caldera Community Bank', font: 'F2', size: 13 }],
        [{ x: 72, text: 'PO Box 2207, Flagstaff, AZ 86003', size: 8 }],
        14,
        ...heading('Business Checking: fee summary', 12),
        ...pairs(
          [
            ['Account holder', 'Redwood Kiln Ceramics LLC'],
            ['Account number', 'XXXXXX8842'],
            ['Statement period', 'October 1, 2025 through October 31, 2025'],
          ],
          [72, 190],
          { size: 9 },
        ),
        ...grid(
          [
            ['Posted', 'Fee description', 'Amount'],
            ['10/03', 'Outgoing domestic wire', '$25.00'],
            ['10/14', 'Overdraft item fee', '$34.00'],
            ['10/14', 'Stop payment order', '$30.00'],
            ['10/31', 'Monthly maintenance fee', '$15.00'],
            ['10/31', 'Paper statement fee', '$3.00'],
          ],
          [72, 140, 420],
        ),
        ...pairs(
          [
            ['Total fees for this period', '$107.00'],
            ['Total fees year-to-date', '$612.00'],
          ],
          [140, 420],
          { font: 'F2' },
        ),
        ...para(
          'Your average daily balance for the period was $3,412.18. Keep an average daily balance of $5,000.00',
          'or more to avoid the monthly maintenance fee. Questions? Call 928-555-0190.',
        ),
      ]),
    },
    {
      kind: 'receipt',
      layout: 'online order confirmation',
      schema: {
        seller: 'Store the order was placed with',
        order_number: '',
        order_date: '',
        billing_address: '',
        shipping_address: '',
        items_subtotal: '',
        order_total: 'Total charged for the order',
        sales_tax: '',
        coupon_code: '',
      },
      expected: {
        seller: 'Pinewood Outfitters',
        order_number: 'PW-5590-2718',
        order_date: 'Nov 21, 2025',
        billing_address: '88 Larkspur Lane, Boulder, CO 80302',
        shipping_address: '1450 Wynkoop St, Apt 6C, Denver, CO 80202',
        items_subtotal: '$151.95',
        order_total: '$164.49',
        sales_tax: '$12.54',
        coupon_code: null,
      },
      pdf: sheet([
        [{ x: 72, text: 'Pinewood Outfitters', font: 'F2', size: 12 }],
        10,
        ...heading('Thanks for your order, Jonah!', 16),
        ...pairs(
          [
            ['Order number', 'PW-5590-2718'],
            ['Placed on', 'Nov 21, 2025'],
            ['Payment', 'Visa ending in 3107'],
          ],
          [72, 170],
          { size: 9 },
        ),
        [
          { x: 72, text: 'Billing address', font: 'F2' },
          { x: 330, text: 'Shipping address', font: 'F2' },
        ],
        [
          { x: 72, text: 'Jonah Whitfield' },
          { x: 330, text: 'Jonah Whitfield' },
        ],
        [
          { x: 72, text: '88 Larkspur Lane, Boulder, CO 80302' },
          { x: 330, text: '1450 Wynkoop St, Apt 6C, Denver, CO 80202' },
        ],
        14,
        ...grid(
          [
            ['Item', 'Qty', 'Price'],
            ['Trailhead 28L daypack, slate', '1', '$89.00'],
            ['Merino crew socks (3-pack)', '2', '$38.00'],
            ['Insulated bottle 750 ml', '1', '$24.95'],
          ],
          [72, 330, 470],
        ),
        ...pairs(
          [
            ['Items subtotal', '$151.95'],
            ['Shipping (Standard, 3-5 business days)', '$0.00'],
            ['Estimated tax', '$12.54'],
            ['Order total', '$164.49'],
          ],
          [260, 470],
        ),
        ...para(
          'Your card will be charged $164.49 when the order ships. Estimated delivery: Nov 26 - Nov 28.',
          'Returns are free within 60 days at pinewood-outfitters.com/returns.',
        ),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'motor four models units header row',
      schema: {
        rated_torque_per_model: {},
        rated_current_per_model: {},
        weight_per_model: {},
        rated_speed: '',
        rated_voltage: '',
        number_of_poles: '',
        insulation_class: '',
        ip_rating: '',
        encoder_resolution: '',
      },
      expected: {
        rated_torque_per_model: {
          'BLQ57-63': '0.20;N\u00b7m',
          'BLQ57-94': '0.30;N\u00b7m',
          'BLQ57-125': '0.40;N\u00b7m',
          'BLQ57-188': '0.60;N\u00b7m',
        },
        rated_current_per_model: {
          'BLQ57-63': '1.9;A',
          'BLQ57-94': '2.6;A',
          'BLQ57-125': '3.5;A',
          'BLQ57-188': '5.2;A',
        },
        weight_per_model: {
          'BLQ57-63': '0.45;kg',
          'BLQ57-94': '0.62;kg',
          'BLQ57-125': '0.80;kg',
          'BLQ57-188': '1.15;kg',
        },
        rated_speed: '3000;r/min',
        rated_voltage: '48;V',
        number_of_poles: 4,
        insulation_class: 'B',
        ip_rating: 'IP54',
        encoder_resolution: null,
      },
      pdf: sheet([
        ...heading('BLQ57 series brushless DC motors'),
        ...para(
          '57 mm square flange, integrated Hall sensors, for conveyors, pumps and automatic doors.',
          'Motor leads 300 mm, UL 1007 AWG 20.',
        ),
        [{ x: 72, text: 'General', font: 'F2', size: 11 }],
        4,
        ...pairs(
          [
            ['Supply voltage', '48 V DC'],
            ['Number of poles', '4'],
            ['Insulation class', 'B'],
            ['Protection', 'IP54 (shaft exit excluded)'],
            ['Ambient temperature', '-20 to +50 \u00b0C'],
          ],
          [72, 220],
        ),
        [{ x: 72, text: 'Ratings at 48 V DC, 25 \u00b0C ambient', font: 'F2', size: 11 }],
        4,
        ...grid(
          [
            ['Model', 'Rated power', 'Rated speed', 'Rated torque', 'Peak torque', 'Rated current'],
            ['', 'W', 'r/min', 'N\u00b7m', 'N\u00b7m', 'A'],
            ['BLQ57-63', '63', '3000', '0.20', '0.60', '1.9'],
            ['BLQ57-94', '94', '3000', '0.30', '0.90', '2.6'],
            ['BLQ57-125', '125', '3000', '0.40', '1.20', '3.5'],
            ['BLQ57-188', '188', '3000', '0.60', '1.80', '5.2'],
          ],
          [72, 150, 230, 310, 390, 470],
          2,
        ),
        [{ x: 72, text: 'Dimensions and mass', font: 'F2', size: 11 }],
        4,
        ...grid(
          [
            ['Model', 'Length L', 'Mass'],
            ['', 'mm', 'kg'],
            ['BLQ57-63', '55', '0.45'],
            ['BLQ57-94', '75', '0.62'],
            ['BLQ57-125', '95', '0.80'],
            ['BLQ57-188', '125', '1.15'],
          ],
          [72, 240, 420],
          2,
        ),
        ...para('Peak torque for at most 3 s. Rotor inertia and winding data on request.'),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'absolute maximum and electrical characteristics tables',
      schema: {
        max_supply_voltage: 'Absolute maximum supply voltage',
        supply_voltage: 'Typical operating supply voltage',
        current_consumption: 'Typical supply current',
        max_power_down_current: '',
        esd_rating: 'ESD withstand, human body model',
        sensitivity: '',
        max_output_data_rate: '',
        package: '',
        noise_density: '',
      },
      expected: {
        max_supply_voltage: '4.8;V',
        supply_voltage: '2.5;V',
        current_consumption: '11;\u00b5A',
        max_power_down_current: '1;\u00b5A',
        esd_rating: '2;kV',
        sensitivity: '1;mg/digit',
        max_output_data_rate: '5376;Hz',
        package: 'LGA-12',
        noise_density: null,
      },
      pdf: sheet([
        ...heading('LXA-3D 3-axis digital accelerometer'),
        ...para(
          '\u00b12/\u00b14/\u00b18/\u00b116 g selectable full scale, 12-bit output, I2C and SPI interfaces.',
          'Package: LGA-12, 2 x 2 x 0.95 mm.',
        ),
        [{ x: 72, text: 'Absolute maximum ratings', font: 'F2', size: 11 }],
        4,
        ...grid(
          [
            ['Parameter', 'Symbol', 'Rating', 'Unit'],
            ['Supply voltage', 'VDD', '-0.3 to 4.8', 'V'],
            ['Input voltage on any pin', 'VIN', '-0.3 to VDD + 0.3', 'V'],
            ['Acceleration (any axis, 0.2 ms)', 'Apow', '10000', 'g'],
            ['Storage temperature', 'TSTG', '-40 to +125', '\u00b0C'],
            ['ESD, human body model', 'HBM', '2', 'kV'],
          ],
          [72, 260, 340, 460],
        ),
        ...para('Stresses above these ratings may cause permanent damage; they are not operating conditions.'),
        [{ x: 72, text: 'Electrical characteristics', font: 'F2', size: 11 }],
        4,
        ...para('VDD = 2.5 V, T = 25 \u00b0C unless otherwise noted.'),
        ...grid(
          [
            ['Parameter', 'Symbol', 'Conditions', 'Min.', 'Typ.', 'Max.', 'Unit'],
            ['Supply voltage', 'VDD', '', '1.71', '2.5', '3.6', 'V'],
            ['Current consumption', 'IDD', 'ODR = 100 Hz', '', '11', '', '\u00b5A'],
            ['Power-down current', 'IPD', '', '', '0.5', '1', '\u00b5A'],
            ['Sensitivity', 'So', 'FS = \u00b12 g', '0.9', '1', '1.1', 'mg/digit'],
            ['Zero-g level', 'TyOff', 'FS = \u00b12 g', '', '\u00b140', '', 'mg'],
            ['Output data rate', 'ODR', '', '1', '', '5376', 'Hz'],
            ['Operating temperature', 'Top', '', '-40', '', '+85', '\u00b0C'],
          ],
          [72, 210, 260, 350, 400, 450, 500],
        ),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'cable bullet list qualifiers',
      schema: {
        rated_voltage: '',
        rated_current: 'Current per contact',
        number_of_contacts: '',
        cable_length: '',
        cable_diameter: 'Outer diameter of the cable',
        jacket_material: '',
        ip_rating: '',
        mating_cycles: '',
        flexing_temperature_range: 'Ambient temperature when the cable moves',
        wire_gauge: '',
        weight: '',
      },
      expected: {
        rated_voltage: '30;V',
        rated_current: '2;A',
        number_of_contacts: 8,
        cable_length: '2.0;m',
        cable_diameter: '6.2;mm',
        jacket_material: 'PUR',
        ip_rating: 'IP67',
        mating_cycles: 100,
        flexing_temperature_range: '-25 \u00b0C to +80 \u00b0C',
        wire_gauge: 'AWG 24',
        weight: null,
      },
      pdf: sheet([
        ...heading('M12 sensor cable, 8-pole, A-coded'),
        ...para('Straight female connector to open cable end, for sensors and actuators in drag chains.'),
        ...pairs([['Order no.', 'KC12-8F-PUR-2M0']], [72, 150], { font: 'F2' }),
        [{ x: 72, text: 'Electrical', font: 'F2', size: 11 }],
        4,
        ...bullets(
          'Rated voltage: max. 30 V',
          'Rated current (40 \u00b0C): 2 A per contact',
          'Contacts: 8, gold plated',
          'Conductors: 8 x 0.25 mm\u00b2 (AWG 24), stranded copper',
          'Contact resistance: < 5 mOhm',
        ),
        [{ x: 72, text: 'Mechanical', font: 'F2', size: 11 }],
        4,
        ...bullets(
          'Cable length: 2.0 m',
          'Cable outer diameter: 6.2 mm typ.',
          'Jacket: PUR, halogen-free, black',
          'Coupling nut: zinc die-cast, nickel plated',
          'Mating cycles: min. 100',
          'Degree of protection: IP67 (mated and locked)',
        ),
        [{ x: 72, text: 'Environmental', font: 'F2', size: 11 }],
        4,
        ...bullets(
          'Ambient temperature, fixed installation: -40 \u00b0C to +85 \u00b0C',
          'Ambient temperature, flexing: -25 \u00b0C to +80 \u00b0C',
          'Bending radius, flexing: 10 x cable diameter',
          'Drag chain: 5 million cycles at 3 m/s',
        ),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'pump performance table and notes',
      schema: {
        rated_flow: 'Flow at the best efficiency point',
        rated_head: 'Head at the best efficiency point',
        max_head: '',
        max_flow: '',
        best_efficiency: 'Pump efficiency at the best efficiency point',
        motor_power: '',
        rated_speed: '',
        max_working_pressure: '',
        discharge_connection: 'Outlet port size',
        weight: '',
      },
      expected: {
        rated_flow: '25;m\u00b3/h',
        rated_head: '30.0;m',
        max_head: '34.0;m',
        max_flow: '40;m\u00b3/h',
        best_efficiency: '72;%',
        motor_power: '3.0;kW',
        rated_speed: '2900;min-1',
        max_working_pressure: '10;bar',
        discharge_connection: 'DN 40',
        weight: null,
      },
      pdf: sheet([
        ...heading('CPX 40-160 end-suction centrifugal pump'),
        ...para('Single-stage volute pump with a closed impeller, for clean water and glycol mixtures.'),
        [{ x: 72, text: 'Technical data', font: 'F2', size: 11 }],
        4,
        ...pairs(
          [
            ['Nominal speed', '2900 min-1'],
            ['Motor', '3.0 kW, 2-pole, IE3, 400 V 50 Hz'],
            ['Suction / discharge', 'DN 50 / DN 40'],
            ['Max. working pressure', '10 bar'],
            ['Liquid temperature', '-10 to +110 \u00b0C'],
            ['Impeller diameter', '169 mm'],
          ],
          [72, 230],
        ),
        [{ x: 72, text: 'Performance (water at 20 \u00b0C, 2900 min-1)', font: 'F2', size: 11 }],
        4,
        ...grid(
          [
            ['Flow Q', 'Head H', 'Power P2', 'Efficiency', 'NPSHr'],
            ['m\u00b3/h', 'm', 'kW', '%', 'm'],
            ['0', '34.0', '1.10', '0', '-'],
            ['10', '33.2', '1.62', '56', '1.6'],
            ['20', '31.5', '2.10', '69', '1.9'],
            ['25 (1)', '30.0', '2.31', '72', '2.2'],
            ['30', '27.9', '2.52', '71', '2.6'],
            ['40 (3)', '21.6', '2.86', '63', '3.8'],
          ],
          [72, 160, 250, 340, 430],
          2,
        ),
        [{ x: 72, text: 'Notes', font: 'F2', size: 11 }],
        4,
        ...para(
          '(1) Best efficiency point.',
          '(2) Shut-off head 34.0 m. Do not run against a closed valve for more than 30 seconds.',
          '(3) Maximum flow 40 m\u00b3/h; above it the NPSH required rises steeply.',
          'Curve tolerances to ISO 9906 grade 3B.',
        ),
      ]),
    },
  ];
  return docs.map((doc) => ({ ...doc, name: `fresh-10-${doc.kind}-${doc.layout.replace(/\s+/g, '-')}.pdf` }));
};
