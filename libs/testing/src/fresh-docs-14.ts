// SPDX-License-Identifier: AGPL-3.0-or-later
import type { BusinessDoc } from './business-docs.js';
import { makePdf, type PdfPageSpec } from './make-pdf.js';

/**
 * Fresh variant 14 (issue 26, a blind held-out set): written by someone who had not read the offline extractor, and
 * committed before its first run. Layouts unlike variants 1-13: an issuer letterhead on the left with the document
 * title flush right on the same line, boxed forms with small labels above their values, a heads-of-terms table in
 * two columns, an instalment schedule, parties named only in the signature block, a statement summary in a frame,
 * a cafe receipt with a service charge and a card tip, an hours x rate invoice in USD, a pin table beside an
 * absolute-maximum table, output options per order code, a contact ratings matrix, and RF values whose test
 * conditions share the cell.
 *
 * Contracts: an employment offer letter in prose; commercial lease heads of terms; a sponsorship agreement with a
 * payment schedule by instalment; a data processing agreement whose parties appear only in the signature block.
 * Receipts: an e-commerce order confirmation (shipping and discount lines); a utility-style statement (previous
 * balance, payments, new charges); a cafe receipt (service charge, card tip); a freelancer invoice in USD (hours x
 * rate lines, a late-fee note). Datasheets: a stepper-motor driver; a pressure transducer (per order code dicts); a
 * power relay; a Wi-Fi module.
 *
 * Schemas as users write them: bare names, some descriptions, per-model fields as `{}`; labels that are synonyms of
 * the keys; values with qualifiers expected bare; numbers printed twice with different meanings; null where the page
 * does not state the field, several beside a label that resembles it.
 */

/** One text run at `x` on its line; `right` sets it flush right, ending at `right`. */
export interface Run {
  x?: number;
  right?: number;
  text: string;
  font?: 'F1' | 'F2' | 'F3';
  size?: number;
}
/** A line of runs, vertical space in points, a thin rule from x0 to x1, or the top or bottom of a framed box. */
export type Line = Run[] | number | { rule: [number, number] } | { frame: 'top' | 'bottom'; x: [number, number] };

/** WinAnsiEncoding's characters outside Latin-1 that these documents use. */
const WIN_ANSI: Record<string, number> = {
  '\u20ac': 0x80,
  '\u2019': 0x92,
  '\u2022': 0x95,
  '\u2013': 0x96,
  '\u2014': 0x97,
};

const encode = (text: string): string =>
  text.replace(/[\\()]|[^\x20-\x7e]/g, (c) => {
    if (c === '\\' || c === '(' || c === ')') return `\\${c}`;
    const code = WIN_ANSI[c] ?? c.charCodeAt(0);
    if (code < 0x80 || (code > 0xff && !(c in WIN_ANSI)))
      throw new Error(`fresh-docs-14: cannot print ${JSON.stringify(c)}`);
    return `\\${code.toString(8)}`;
  });

/** A rough width (Courier is 0.6 em for every character). */
const width = (text: string, size: number, font: Run['font']): number =>
  font === 'F3'
    ? text.length * 0.6 * size
    : [...text].reduce((w, c) => w + (/[il.,:;' |!]/.test(c) ? 0.28 : /[mwMW@]/.test(c) ? 0.85 : 0.56), 0) * size;

const draw = (lines: Line[], ops: string[], top: number): number => {
  let y = top;
  let frameTop = y;
  for (const line of lines) {
    if (typeof line === 'number') {
      y -= line;
      continue;
    }
    if (!Array.isArray(line) && 'frame' in line) {
      if (line.frame === 'top') frameTop = y + 14;
      else ops.push(`0.8 w ${line.x[0]} ${y + 8} ${line.x[1] - line.x[0]} ${frameTop - y - 8} re S`);
      y -= 6;
      continue;
    }
    if (!Array.isArray(line)) {
      ops.push(`0.5 w ${line.rule[0]} ${y + 6} m ${line.rule[1]} ${y + 6} l S`);
      y -= 6;
      continue;
    }
    if (line.length === 0) throw new Error('fresh-docs-14: an empty line (use a number for space)');
    const height = Math.max(...line.map((r) => r.size ?? 10));
    for (const run of line) {
      const size = run.size ?? 10;
      const x = run.right !== undefined ? run.right - width(run.text, size, run.font) : (run.x ?? 72);
      ops.push(`BT ${x.toFixed(1)} ${y} Td /${run.font ?? 'F1'} ${size} Tf (${encode(run.text)}) Tj ET`);
    }
    y -= height + 5;
  }
  return y;
};

/** One page's content, top to bottom from y = `top`. */
export const page = (lines: Line[], mediaBox?: PdfPageSpec['mediaBox'], top = 700): PdfPageSpec => {
  const ops: string[] = [];
  const y = draw(lines, ops, top);
  if (y < 40) throw new Error('fresh-docs-14: page overflow');
  return { content: ops.join('\n'), ...(mediaBox ? { mediaBox } : {}) };
};
export const sheet = (lines: Line[], mediaBox?: PdfPageSpec['mediaBox'], top?: number): Buffer =>
  makePdf([page(lines, mediaBox, top)]);

// Line builders.
export const title = (text: string, size = 15, x = 72): Line[] => [[{ x, text, font: 'F2', size }], 6];
export const heading = (text: string, x0 = 72, x1 = 540): Line[] => [
  6,
  [{ x: x0, text, font: 'F2', size: 11 }],
  { rule: [x0, x1] },
  4,
];
export const para = (...texts: string[]): Line[] => [...texts.map((text): Line => [{ x: 72, text }]), 6];
export const pairs = (rows: [string, string][], at: [number, number] = [72, 220], size = 10): Line[] => [
  ...rows.map(
    ([l, v]): Line => [
      { x: at[0], text: l, size },
      { x: at[1], text: v, size },
    ],
  ),
  6,
];
/** Small bold labels with their values on the line below, in two columns. */
export const stacked = (rows: [string, string, string, string][], xs: [number, number]): Line[] =>
  rows.flatMap((row): Line[] => [
    [
      { x: xs[0], text: row[0], font: 'F2', size: 7 },
      { x: xs[1], text: row[2], font: 'F2', size: 7 },
    ].filter((r) => r.text !== ''),
    [
      { x: xs[0], text: row[1], size: 10 },
      { x: xs[1], text: row[3], size: 10 },
    ].filter((r) => r.text !== ''),
    3,
  ]);
/** Rows of cells at the given x positions; a cell whose index is in `rightAligned` is set flush right at its x. */
export const grid = (rows: string[][], xs: number[], headerRows = 1, size = 9, rightAligned: number[] = []): Line[] => [
  ...rows.map(
    (row, i): Line =>
      row
        .map((text, k): Run => {
          const font = i < headerRows ? 'F2' : 'F1';
          return rightAligned.includes(k) && i >= headerRows
            ? { right: xs[k]!, text, size, font }
            : { x: xs[k]!, text, size, font };
        })
        .filter((r) => r.text !== ''),
  ),
  8,
];
export const amounts = (rows: [string, string, Run['font']?][], x: number, right: number, size = 10): Line[] =>
  rows.map(
    ([l, v, font]): Line => [
      { x, text: l, size, font: font ?? 'F1' },
      { right, text: v, size, font: font ?? 'F1' },
    ],
  );
/** The issuer's letterhead on the left and the document title flush right on the same line. */
export const letterhead = (issuer: string, docTitle: string, sub: string[]): Line[] => [
  [
    { x: 72, text: issuer, font: 'F2', size: 14 },
    { right: 540, text: docTitle, font: 'F2', size: 14 },
  ],
  ...sub.map((text): Line => [{ x: 72, text, size: 8 }]),
  { rule: [72, 540] },
  8,
];

export const freshVariant14Docs = (): BusinessDoc[] => {
  const docs: Omit<BusinessDoc, 'name'>[] = [
    {
      kind: 'contract',
      layout: 'offer letter prose letterhead title beside',
      schema: {
        employer: '',
        candidate: 'Person receiving the offer',
        job_title: '',
        base_salary: 'Annual gross salary',
        start_date: '',
        notice_period: 'Notice after probation',
        probation_period: '',
        weekly_hours: '',
        signing_bonus: '',
        relocation_allowance: '',
      },
      expected: {
        employer: 'Corvane Analytics Ltd',
        candidate: 'Priya Natarajan',
        job_title: 'Senior Data Engineer',
        base_salary: '\u00a368,500',
        start_date: '11 January 2027',
        notice_period: '8 weeks',
        probation_period: '6 months',
        weekly_hours: '37.5',
        signing_bonus: null,
        relocation_allowance: null,
      },
      pdf: sheet([
        ...letterhead('Corvane Analytics Ltd', 'Offer of Employment', [
          '14 Wharf Lane, Leeds LS1 4DT  \u2022  people@corvane.example',
        ]),
        ...para('Ms Priya Natarajan', '27 Glebe Terrace', 'York YO24 1EL', '', '20 November 2026'),
        ...para('Dear Priya,'),
        ...para(
          'Following your interviews, we are delighted to offer you the position of Senior Data Engineer in our',
          'Platform team, reporting to the Head of Data. Your salary will be \u00a368,500 per annum, before tax, paid',
          'monthly in arrears. We would like you to start on 11 January 2027 at our Leeds office.',
        ),
        ...para(
          'Your normal working week is 37.5 hours, Monday to Friday. The first 6 months are a probationary period,',
          'during which either side may end the employment with 1 week of notice. Once you have passed probation,',
          'the notice period on either side is 8 weeks.',
        ),
        ...para(
          'You will be eligible to join the annual bonus scheme, which is discretionary and reviewed each April.',
          'Relocation support is considered case by case for roles outside Yorkshire; this role is Leeds based.',
          'You will receive 27 days of annual leave plus bank holidays.',
        ),
        ...para('Please sign and return a copy of this letter by 4 December 2026.'),
        ...para('Yours sincerely,', '', 'Hannah Oduya', 'Head of People, Corvane Analytics Ltd'),
      ]),
    },
    {
      kind: 'contract',
      layout: 'commercial lease heads of terms table',
      schema: {
        lessor: 'The landlord',
        lessee: 'The tenant',
        premises: '',
        lease_term: '',
        annual_rent: '',
        rent_free_period: '',
        break_option: 'When the tenant may break the lease',
        rent_deposit: '',
        service_charge_cap: '',
      },
      expected: {
        lessor: 'Aldwick Property Holdings Ltd',
        lessee: 'Kinetic Physio Clinics Ltd',
        premises: 'Unit 4, Tannery Yard, Bristol BS2 0JR',
        lease_term: '10 years',
        annual_rent: '\u00a342,000',
        rent_free_period: '4 months',
        break_option: 'end of year 5',
        rent_deposit: '\u00a310,500',
        service_charge_cap: null,
      },
      pdf: sheet([
        ...title('HEADS OF TERMS', 16),
        ...para('Proposed letting  \u2014  subject to contract and to survey'),
        ...grid(
          [
            ['Item', 'Agreed terms'],
            ['Landlord', 'Aldwick Property Holdings Ltd'],
            ['Tenant', 'Kinetic Physio Clinics Ltd'],
            ['Property', 'Unit 4, Tannery Yard, Bristol BS2 0JR'],
            ['Term', '10 years from completion'],
            ['Rent', '\u00a342,000 per annum exclusive, payable quarterly in advance'],
            ['Rent free', '4 months from completion'],
            ['Rent review', 'Upward only, at the end of year 5'],
            ['Break', 'Tenant only, at the end of year 5 on 6 months notice'],
            ['Rent deposit', '\u00a310,500, held for the first 3 years'],
            ['Service charge', 'Fair proportion of estate costs, payable quarterly'],
            ['Repair', 'Internal repairing only, limited by a schedule of condition'],
            ['Use', 'Class E(e): medical and health services'],
          ],
          [72, 190],
          1,
          10,
        ),
        ...para('Agents: Marsh & Pell Chartered Surveyors. Each party bears its own legal costs.'),
      ]),
    },
    {
      kind: 'contract',
      layout: 'sponsorship agreement instalment schedule',
      schema: {
        sponsor: '',
        rights_holder: 'The club or organiser being sponsored',
        event: '',
        total_fee: 'Total sponsorship fee',
        instalments: 'Number of instalments',
        first_instalment_amount: '',
        final_payment_date: '',
        governing_law: '',
        termination_fee: '',
      },
      expected: {
        sponsor: 'Brightlane Energy plc',
        rights_holder: 'Ravensworth Rowing Club',
        event: 'Ravensworth Regatta 2027',
        total_fee: '\u00a390,000',
        instalments: '3',
        first_instalment_amount: '\u00a345,000',
        final_payment_date: '31 August 2027',
        governing_law: 'England and Wales',
        termination_fee: null,
      },
      pdf: sheet([
        ...title('Sponsorship Agreement', 16),
        ...para(
          'This agreement is made on 2 November 2026 between Brightlane Energy plc (the Sponsor) and Ravensworth',
          'Rowing Club, an unincorporated association acting by its committee (the Club).',
        ),
        ...heading('Sponsored event'),
        ...para(
          'The Club grants the Sponsor title sponsorship of the Ravensworth Regatta 2027, to be held on 17 and',
          '18 July 2027, including naming rights, branding on 12 boats and 40 hospitality passes.',
        ),
        ...heading('Fee'),
        ...para('The Sponsor shall pay a total fee of \u00a390,000 plus VAT in 3 instalments as follows:'),
        ...grid(
          [
            ['Instalment', 'Due on', 'Amount'],
            ['1', 'signature of this agreement', '\u00a345,000'],
            ['2', '1 May 2027', '\u00a327,000'],
            ['3', '31 August 2027', '\u00a318,000'],
          ],
          [90, 180, 420],
          1,
          10,
        ),
        ...heading('Term and termination'),
        ...para(
          'This agreement ends on 30 September 2027. Either party may terminate it on written notice if the other',
          'commits a material breach. Instalments already paid are not refundable unless the Regatta is cancelled.',
        ),
        ...heading('Law'),
        ...para('This agreement is governed by the laws of England and Wales.'),
      ]),
    },
    {
      kind: 'contract',
      layout: 'data processing agreement parties in signature block',
      schema: {
        controller: '',
        processor: '',
        effective_date: '',
        breach_notification_period: 'How soon the processor must report a personal data breach',
        audit_notice: '',
        sub_processor_objection_period: '',
        governing_law: '',
        data_protection_officer: '',
        liability_cap: '',
      },
      expected: {
        controller: 'Haverleigh Retail Group Ltd',
        processor: 'Stackmint Cloud Services Ltd',
        effective_date: '1 December 2026',
        breach_notification_period: '48 hours',
        audit_notice: '30 days',
        sub_processor_objection_period: '14 days',
        governing_law: 'Northern Ireland',
        data_protection_officer: null,
        liability_cap: null,
      },
      pdf: sheet([
        ...title('DATA PROCESSING AGREEMENT', 15),
        ...para('Effective from 1 December 2026'),
        ...heading('1  Scope'),
        ...para(
          'The Processor processes customer personal data on behalf of the Controller to host the Controller\u2019s',
          'loyalty platform, as described in Annex 1. The Processor acts only on documented instructions.',
        ),
        ...heading('2  Personal data breaches'),
        ...para(
          'The Processor shall notify the Controller without undue delay and in any event within 48 hours after',
          'becoming aware of a personal data breach, with the information listed in Annex 2.',
        ),
        ...heading('3  Sub-processors'),
        ...para(
          'The Processor shall inform the Controller of any new sub-processor. The Controller may object within',
          '14 days of that notice; the Processor shall not use the sub-processor while an objection is open.',
        ),
        ...heading('4  Audits'),
        ...para('The Controller may audit the Processor once a year on 30 days written notice.'),
        ...heading('5  Data Protection Officer'),
        ...para('Each party shall tell the other who its data protection contact is within 10 days of signature.'),
        ...heading('6  Law'),
        ...para('This agreement is governed by the law of Northern Ireland.'),
        12,
        [
          { x: 72, text: 'For and on behalf of the Controller', size: 9, font: 'F2' },
          { x: 320, text: 'For and on behalf of the Processor', size: 9, font: 'F2' },
        ],
        [
          { x: 72, text: 'Haverleigh Retail Group Ltd', size: 9 },
          { x: 320, text: 'Stackmint Cloud Services Ltd', size: 9 },
        ],
        [
          { x: 72, text: 'Name: Colm Brady, General Counsel', size: 9 },
          { x: 320, text: 'Name: Ines Ferreira, Director', size: 9 },
        ],
      ]),
    },
    {
      kind: 'receipt',
      layout: 'e-commerce order confirmation shipping and discount lines',
      schema: {
        retailer: '',
        order_number: '',
        order_date: '',
        subtotal: '',
        discount: 'Promotional discount amount',
        shipping: '',
        total: '',
        vat_included: 'VAT amount',
        tracking_number: '',
      },
      expected: {
        retailer: 'Fernhollow Home',
        order_number: 'FH-2026-558104',
        order_date: '22 November 2026',
        subtotal: '\u00a3186.00',
        discount: '\u00a327.90',
        shipping: '\u00a34.95',
        total: '\u00a3163.05',
        vat_included: '\u00a327.18',
        tracking_number: null,
      },
      pdf: sheet([
        ...letterhead('Fernhollow Home', 'Order Confirmation', ['fernhollow.example  \u2022  0161 555 0142']),
        ...para('Thanks for your order, Joanna! We\u2019ll email you again when it ships.'),
        { frame: 'top', x: [66, 546] },
        ...stacked(
          [
            ['ORDER NO.', 'FH-2026-558104', 'PLACED ON', '22 November 2026'],
            ['DELIVER TO', 'Joanna Reyes, 8 Birch Close, Stockport SK4 3PL', 'DELIVERY', 'Standard, 3-5 working days'],
          ],
          [78, 330],
        ),
        { frame: 'bottom', x: [66, 546] },
        8,
        ...grid(
          [
            ['Item', 'Qty', 'Price'],
            ['Linen duvet cover, double, sage', '1', '\u00a389.00'],
            ['Waffle bath towel, oat', '4', '\u00a372.00'],
            ['Stoneware mug set of 2', '1', '\u00a325.00'],
          ],
          [72, 400, 540],
          1,
          10,
          [2],
        ),
        ...amounts(
          [
            ['Subtotal', '\u00a3186.00'],
            ['Less discount WINTER15 (15%)', '\u00a327.90'],
            ['Shipping', '\u00a34.95'],
            ['Order total', '\u00a3163.05', 'F2'],
            ['Includes VAT of', '\u00a327.18'],
          ],
          330,
          540,
        ),
        10,
        ...para('Paid with Visa ending 0917. Tracking details will follow once your parcel has been dispatched.'),
      ]),
    },
    {
      kind: 'receipt',
      layout: 'utility statement balance summary frame',
      schema: {
        supplier: '',
        account_number: '',
        statement_date: '',
        previous_balance: '',
        payments_received: '',
        new_charges: '',
        amount_due: 'Balance to pay',
        payment_due_date: '',
        standing_charge: 'Daily standing charge',
      },
      expected: {
        supplier: 'Tidewell Water',
        account_number: '7720 4415 09',
        statement_date: '18 November 2026',
        previous_balance: '\u00a354.20',
        payments_received: '\u00a354.20',
        new_charges: '\u00a361.37',
        amount_due: '\u00a361.37',
        payment_due_date: '9 December 2026',
        standing_charge: null,
      },
      pdf: sheet([
        ...letterhead('Tidewell Water', 'Your statement', [
          'Customer services 0800 555 0199  \u2022  tidewell.example',
        ]),
        ...pairs(
          [
            ['Account', '7720 4415 09'],
            ['Statement date', '18 November 2026'],
            ['Period', '19 August 2026 to 17 November 2026'],
          ],
          [72, 200],
        ),
        ...heading('Account summary'),
        { frame: 'top', x: [66, 546] },
        ...amounts(
          [
            ['Balance brought forward', '\u00a354.20'],
            ['Payments received, thank you', '-\u00a354.20'],
            ['Charges this period', '\u00a361.37'],
            ['To pay by 9 December 2026', '\u00a361.37', 'F2'],
          ],
          78,
          536,
        ),
        { frame: 'bottom', x: [66, 546] },
        ...heading('Charges this period'),
        ...grid(
          [
            ['Service', 'Basis', 'Amount'],
            ['Water supply', '31 m\u00b3 at \u00a31.0412', '\u00a332.28'],
            ['Wastewater', '29.45 m\u00b3 at \u00a30.9878', '\u00a329.09'],
          ],
          [72, 240, 540],
          1,
          10,
          [2],
        ),
        ...para('Meter readings: 1184 (previous) and 1215 (current). Water is zero-rated for VAT.'),
      ]),
    },
    {
      kind: 'receipt',
      layout: 'cafe receipt service charge card tip',
      schema: {
        merchant: '',
        date: '',
        table: 'Table number',
        subtotal: '',
        service_charge: '',
        tip: 'Card tip',
        total_paid: '',
        card_last_digits: '',
        vat_registration: '',
        cashier: '',
      },
      expected: {
        merchant: 'Little Quay Coffee House',
        date: '23/11/2026',
        table: '7',
        subtotal: '\u00a324.60',
        service_charge: '\u00a32.46',
        tip: '\u00a33.00',
        total_paid: '\u00a330.06',
        card_last_digits: '3382',
        vat_registration: null,
        cashier: null,
      },
      pdf: sheet(
        [
          [{ x: 40, text: 'Little Quay Coffee House', font: 'F2', size: 11 }],
          [{ x: 40, text: '2 Harbour Steps, Falmouth', size: 8 }],
          6,
          [{ x: 40, text: '23/11/2026  13:42   Table 7   Covers 2', size: 8 }],
          { rule: [40, 240] },
          ...amounts(
            [
              ['Flat white x2', '\u00a37.40'],
              ['Crab sandwich', '\u00a39.80'],
              ['Saffron bun x2', '\u00a37.40'],
              ['Subtotal', '\u00a324.60'],
              ['Service 10% (optional)', '\u00a32.46'],
              ['Bill', '\u00a327.06', 'F2'],
              ['Tip added on card', '\u00a33.00'],
              ['TOTAL CHARGED', '\u00a330.06', 'F2'],
            ],
            40,
            240,
            8,
          ),
          6,
          [{ x: 40, text: 'Mastercard **** 3382  Contactless', size: 8 }],
          [{ x: 40, text: 'Served by: Till 2', size: 8 }],
          [{ x: 40, text: 'All service charge and tips go to the team.', size: 8 }],
        ],
        [0, 0, 280, 420],
        380,
      ),
    },
    {
      kind: 'receipt',
      layout: 'freelancer invoice usd hours rate late fee',
      schema: {
        freelancer: 'Who issued the invoice',
        bill_to: '',
        invoice_number: '',
        invoice_date: '',
        total_hours: '',
        hourly_rate: '',
        amount_due: '',
        late_fee: 'Late payment fee',
        purchase_order: '',
        sales_tax: '',
      },
      expected: {
        freelancer: 'Mara Lindqvist Design',
        bill_to: 'Oxbow Outdoor Co.',
        invoice_number: '2026-041',
        invoice_date: 'November 24, 2026',
        total_hours: '32.5',
        hourly_rate: '$85.00',
        amount_due: '$2,762.50',
        late_fee: '1.5%',
        purchase_order: null,
        sales_tax: null,
      },
      pdf: sheet([
        ...letterhead('Mara Lindqvist Design', 'INVOICE 2026-041', [
          'Portland, OR 97214  \u2022  mara@lindqvist.example',
        ]),
        ...stacked(
          [
            ['BILL TO', 'Oxbow Outdoor Co.', 'DATE', 'November 24, 2026'],
            ['', '', 'TERMS', 'Net 15'],
          ],
          [72, 360],
        ),
        8,
        ...grid(
          [
            ['Description', 'Hours', 'Rate', 'Amount'],
            ['Brand refresh: logo revisions', '12.0', '$85.00', '$1,020.00'],
            ['Catalog layout, 24 pages', '16.5', '$85.00', '$1,402.50'],
            ['Product photo retouching', '4.0', '$85.00', '$340.00'],
            ['Total hours', '32.5', '', ''],
          ],
          [72, 330, 420, 540],
          1,
          10,
          [1, 2, 3],
        ),
        ...amounts([['Amount due (USD)', '$2,762.50', 'F2']], 330, 540),
        10,
        ...para(
          'Payment by ACH to the account on file within 15 days. Invoices unpaid after 15 days incur a late fee of',
          '1.5% per month on the outstanding balance. Design services are not subject to sales tax in Oregon.',
        ),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'stepper driver pin table and absolute maximum table',
      schema: {
        part_number: '',
        supply_voltage_max: 'Absolute maximum motor supply voltage',
        operating_supply_voltage: 'Recommended motor supply range',
        output_current: 'Maximum RMS phase current',
        microstep_resolution: '',
        logic_supply_voltage: '',
        pin_count: '',
        thermal_shutdown: '',
        rds_on: '',
      },
      expected: {
        part_number: 'STX2209',
        supply_voltage_max: '52;V',
        operating_supply_voltage: '8 V to 45 V',
        output_current: '2.0;A',
        microstep_resolution: '1/256',
        logic_supply_voltage: '3.3 V or 5 V',
        pin_count: '28',
        thermal_shutdown: '165;\u00b0C',
        rds_on: null,
      },
      pdf: sheet([
        ...title('STX2209  Bipolar stepper motor driver with 1/256 microstepping'),
        ...para(
          'Drives one bipolar stepper at up to 2.0 A RMS per phase (2.8 A peak) from an 8 V to 45 V supply.',
          'Step/direction interface for 3.3 V or 5 V logic. 28-pin HTSSOP package with exposed pad.',
        ),
        ...heading('Absolute maximum ratings'),
        ...grid(
          [
            ['Parameter', 'Symbol', 'Value', 'Unit'],
            ['Motor supply voltage', 'VM', '-0.3 to 52', 'V'],
            ['Logic input voltage', 'VIN', '-0.3 to 5.5', 'V'],
            ['Peak output current', 'IOUT', '2.8', 'A'],
            ['Junction temperature', 'TJ', '150', '\u00b0C'],
            ['Storage temperature', 'TSTG', '-55 to 150', '\u00b0C'],
          ],
          [72, 250, 330, 430],
        ),
        ...heading('Thermal protection'),
        ...para('Outputs switch off when the die reaches 165 \u00b0C and restart after it cools by 20 \u00b0C.'),
        ...heading('Pin functions'),
        ...grid(
          [
            ['Pin', 'Name', 'Type', 'Function'],
            ['1', 'VM', 'Power', 'Motor supply'],
            ['4', 'STEP', 'Input', 'Step pulse, one microstep per rising edge'],
            ['5', 'DIR', 'Input', 'Direction'],
            ['9', 'MS1', 'Input', 'Microstep select bit 1'],
            ['10', 'MS2', 'Input', 'Microstep select bit 2'],
            ['14', 'GND', 'Power', 'Ground'],
            ['28', 'nSLEEP', 'Input', 'Sleep, active low'],
          ],
          [72, 110, 180, 250],
        ),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'pressure transducer output options per order code',
      schema: {
        output_signal: {},
        supply_voltage: {},
        pressure_range: '',
        accuracy: 'Total accuracy, % of full scale',
        process_connection: '',
        ingress_protection: '',
        burst_pressure: '',
        response_time: '',
      },
      expected: {
        output_signal: { 'PX40-A': '4-20 mA', 'PX40-V': '0-10 V', 'PX40-R': '0.5-4.5 V ratiometric' },
        supply_voltage: { 'PX40-A': '9-32 VDC', 'PX40-V': '12-32 VDC', 'PX40-R': '5 VDC' },
        pressure_range: '0 to 16 bar',
        accuracy: '0.5;%',
        process_connection: 'G1/4 male',
        ingress_protection: 'IP67',
        burst_pressure: '80;bar',
        response_time: null,
      },
      pdf: sheet([
        ...title('PX40 series  Industrial pressure transducer'),
        ...para('Stainless steel thin-film sensor for hydraulics, compressors and pumps. Range 0 to 16 bar gauge.'),
        ...heading('Output options'),
        ...grid(
          [
            ['Order code', 'Output', 'Supply', 'Load'],
            ['PX40-A', '4-20 mA', '9-32 VDC', 'max. 600 Ohm at 24 V'],
            ['PX40-V', '0-10 V', '12-32 VDC', 'min. 10 kOhm'],
            ['PX40-R', '0.5-4.5 V ratiometric', '5 VDC', 'min. 5 kOhm'],
          ],
          [72, 160, 300, 390],
        ),
        ...heading('Performance'),
        ...pairs(
          [
            ['Total accuracy', '\u00b1 0.5 % FS (includes non-linearity, hysteresis, repeatability)'],
            ['Overpressure', '32 bar (2 x range)'],
            ['Burst pressure', '80 bar'],
            ['Long-term stability', 'max. 0.2 % FS per year'],
            ['Compensated range', '-20 \u00b0C to +85 \u00b0C'],
          ],
          [72, 210],
        ),
        ...heading('Mechanical'),
        ...pairs(
          [
            ['Process connection', 'G1/4 male, DIN EN ISO 1179-2'],
            ['Electrical connection', 'M12 x 1, 4-pin'],
            ['Protection', 'IP67 (with mating connector fitted)'],
            ['Wetted parts', 'Stainless steel 1.4404'],
          ],
          [72, 210],
        ),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'power relay contact ratings matrix',
      schema: {
        coil_voltage: '',
        contact_arrangement: '',
        rated_current_resistive: 'Rated current at 250 VAC resistive load',
        max_switching_voltage: '',
        contact_material: '',
        mechanical_life: '',
        electrical_life: '',
        dielectric_strength: 'Between coil and contacts',
        operate_time: '',
      },
      expected: {
        coil_voltage: '24;VDC',
        contact_arrangement: '1 Form A',
        rated_current_resistive: '30;A',
        max_switching_voltage: '277;VAC',
        contact_material: 'AgSnO2',
        mechanical_life: '10,000,000 operations',
        electrical_life: '100,000 operations',
        dielectric_strength: '4000;VAC',
        operate_time: null,
      },
      pdf: sheet([
        ...title('HPR-30  30 A power relay, 1 Form A'),
        ...para('PCB relay for inverters, EV chargers and HVAC compressors. Coil 24 VDC, 1.4 W.'),
        ...heading('Contact ratings'),
        ...grid(
          [
            ['Load', '120 VAC', '250 VAC', '277 VAC', '30 VDC'],
            ['Resistive', '30 A', '30 A', '25 A', '20 A'],
            ['Inductive (cos phi 0.4)', '20 A', '15 A', '12 A', '-'],
            ['Motor', '2 HP', '3 HP', '-', '-'],
          ],
          [72, 230, 310, 390, 470],
        ),
        ...heading('Contact data'),
        ...pairs(
          [
            ['Arrangement', '1 Form A (SPST-NO)'],
            ['Max. switching voltage', '277 VAC / 30 VDC'],
            ['Material', 'AgSnO2'],
            ['Initial contact resistance', '100 mOhm max. at 1 A 6 VDC'],
          ],
          [72, 230],
        ),
        ...heading('Life expectancy'),
        ...pairs(
          [
            ['Mechanical', '10,000,000 operations'],
            ['Electrical', '100,000 operations at 30 A 250 VAC resistive'],
          ],
          [72, 230],
        ),
        ...heading('Insulation'),
        ...pairs(
          [
            ['Coil to contacts', '4000 VAC for 1 minute'],
            ['Open contacts', '1500 VAC for 1 minute'],
            ['Release time', '10 ms max.'],
          ],
          [72, 230],
        ),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'wifi module rf table conditions in cell',
      schema: {
        module: 'Model name',
        frequency_range: '',
        tx_power: 'Maximum transmit power',
        rx_sensitivity: 'Receive sensitivity at the lowest rate',
        supply_voltage: '',
        flash: 'Flash memory size',
        antenna: '',
        bluetooth_version: '',
        sleep_current: '',
        operating_temperature: '',
      },
      expected: {
        module: 'WM-N21',
        frequency_range: '2412 MHz to 2484 MHz',
        tx_power: '20;dBm',
        rx_sensitivity: '-98;dBm',
        supply_voltage: '3.3;V',
        flash: '4;MB',
        antenna: 'PCB trace antenna',
        bluetooth_version: null,
        sleep_current: null,
        operating_temperature: '-40 \u00b0C to +85 \u00b0C',
      },
      pdf: sheet([
        ...title('WM-N21  2.4 GHz Wi-Fi module'),
        ...para('802.11 b/g/n single-band module with PCB trace antenna, 4 MB flash, 18 x 25.5 mm, castellated pads.'),
        ...heading('RF characteristics'),
        ...grid(
          [
            ['Parameter', 'Value'],
            ['Frequency range', '2412 MHz to 2484 MHz'],
            ['Output power', '20 dBm @ 802.11b 1 Mbps; 17 dBm @ 802.11g 54 Mbps; 15 dBm @ 802.11n MCS7'],
            ['Sensitivity', '-98 dBm @ 802.11b 1 Mbps; -75 dBm @ 802.11g 54 Mbps; -72 dBm @ 802.11n MCS7'],
            ['Adjacent channel rejection', '35 dB @ 802.11b 11 Mbps'],
          ],
          [72, 210],
        ),
        ...heading('Electrical'),
        ...pairs(
          [
            ['Supply', '3.3 V (3.0 V to 3.6 V)'],
            ['Current, transmitting', '320 mA peak at 20 dBm'],
            ['Current, receiving', '80 mA'],
            ['Low power modes', 'Modem sleep and light sleep; see application note AN-14'],
          ],
          [72, 210],
        ),
        ...heading('Environment'),
        ...pairs(
          [
            ['Operating temperature', '-40 \u00b0C to +85 \u00b0C'],
            ['Certifications', 'CE RED, FCC ID 2AX7Q-WMN21'],
          ],
          [72, 210],
        ),
      ]),
    },
  ];
  return docs.map((doc) => ({ ...doc, name: `fresh-14-${doc.kind}-${doc.layout.replace(/\s+/g, '-')}.pdf` }));
};
