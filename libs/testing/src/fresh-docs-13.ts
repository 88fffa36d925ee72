// SPDX-License-Identifier: AGPL-3.0-or-later
import type { BusinessDoc } from './business-docs.js';
import { makePdf, type PdfPageSpec } from './make-pdf.js';

/**
 * Fresh variant 13 (issue 26, a blind held-out set): written by someone who had not read the offline extractor, and
 * committed before its first run. Layouts none of variants 1-12 use, drawn run by run: thin ruled lines under
 * headings, small bold labels with their values on the line below (a two-column hirer/owner block), a cover page
 * before the particulars, a framed particulars box, a Courier ticket 200 points wide, a hotel folio with one row per
 * night and debit/credit columns, a builder's invoice in labour and materials sections with a retention line after
 * the VAT, a credit note whose amounts are negative, a Conditions/Min/Typ/Max/Unit table, an accuracy table by
 * temperature range, a pump table with one row per model, and a connector's spec list in two label/value columns.
 *
 * Contracts: a consultancy agreement whose parties are defined in clause 1 "Parties" (1.1, 1.2); a software licence
 * with a cover page and a particulars box on page 2; a vehicle hire agreement with the hirer and the owner side by
 * side, labels above values; a mutual NDA whose governing law is phrased passively ("is to be governed by the law
 * of Scotland"). Receipts: a hotel folio (three nights, a city tax line per night, garage and minibar, a payment
 * that repeats the total as a credit); a builder's invoice (labour, materials, VAT, retention, amount now due); a
 * parking ticket in Courier (the fee printed twice, as the fee and as paid); a credit note (negative lines and a
 * negative total). Datasheets: a DC-DC converter (input/output characteristics by Conditions/Min/Typ/Max); a digital
 * temperature sensor (accuracy by range, typical and maximum); a centrifugal pump range (per-model dicts from rows);
 * an M8 connector (two columns of label/value pairs; 100 printed as MOhm and as mating cycles).
 *
 * Schemas as users write them: bare names, some descriptions, per-model fields as `{}`; synonyms of printed labels
 * (`consultant` / "the Consultant" in 1.2, `commencement_date` / "Start Date", `hire_company` / "Owner",
 * `effective_date` / "Licence Start", `receiving_party` / "Recipient", `guest_name` / "Guest", `site_address` /
 * "Site", `amount_payable` / "Amount now due", `entry_time` / "IN", `vehicle_registration` / "PLATE",
 * `original_invoice` / "Relates to invoice", `protection_rating` / "Sealing"). Values printed with qualifiers
 * ("(excl. VAT)", "per day", "min.", "max.", "when mated", "I2C compatible") are expected bare. `expected` is what
 * the page prints for the value ("value;unit" where the value is one number and a unit); null where the page does
 * not state it, several of them beside a label that resembles the field.
 */

/** One text run at `x` on its line; `right` sets it flush right, ending at `right`. */
interface Run {
  x?: number;
  right?: number;
  text: string;
  font?: 'F1' | 'F2' | 'F3';
  size?: number;
}
/** A line of runs, vertical space in points, a thin rule from x0 to x1, or the top or bottom of a framed box. */
type Line = Run[] | number | { rule: [number, number] } | { frame: 'top' | 'bottom'; x: [number, number] };

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
      throw new Error(`fresh-docs-13: cannot print ${JSON.stringify(c)}`);
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
    if (line.length === 0) throw new Error('fresh-docs-13: an empty line (use a number for space)');
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
const page = (lines: Line[], mediaBox?: PdfPageSpec['mediaBox'], top = 700): PdfPageSpec => {
  const ops: string[] = [];
  const y = draw(lines, ops, top);
  if (y < 40) throw new Error('fresh-docs-13: page overflow');
  return { content: ops.join('\n'), ...(mediaBox ? { mediaBox } : {}) };
};
const sheet = (lines: Line[], mediaBox?: PdfPageSpec['mediaBox'], top?: number): Buffer =>
  makePdf([page(lines, mediaBox, top)]);

// Line builders.
const title = (text: string, size = 15, x = 72): Line[] => [[{ x, text, font: 'F2', size }], 6];
const heading = (text: string, x0 = 72, x1 = 540): Line[] => [
  6,
  [{ x: x0, text, font: 'F2', size: 11 }],
  { rule: [x0, x1] },
  4,
];
const para = (...texts: string[]): Line[] => [...texts.map((text): Line => [{ x: 72, text }]), 6];
const pairs = (rows: [string, string][], at: [number, number] = [72, 220], size = 10): Line[] => [
  ...rows.map(
    ([l, v]): Line => [
      { x: at[0], text: l, size },
      { x: at[1], text: v, size },
    ],
  ),
  6,
];
/** Two label/value columns side by side (four runs a line). */
const twoColumns = (
  rows: [string, string, string, string][],
  xs: [number, number, number, number],
  size = 9,
): Line[] => [
  ...rows.map((row): Line => row.map((text, k): Run => ({ x: xs[k]!, text, size })).filter((r) => r.text !== '')),
  6,
];
/** Small bold labels with their values on the line below, in two columns. */
const stacked = (rows: [string, string, string, string][], xs: [number, number]): Line[] =>
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
const grid = (rows: string[][], xs: number[], headerRows = 1, size = 9, rightAligned: number[] = []): Line[] => [
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
const amounts = (rows: [string, string, Run['font']?][], x: number, right: number, size = 10): Line[] =>
  rows.map(
    ([l, v, font]): Line => [
      { x, text: l, size, font: font ?? 'F1' },
      { right, text: v, size, font: font ?? 'F1' },
    ],
  );
/** Courier ticket lines (label padded to a fixed width, the value after it). */
const ticket = (rows: (string | [string, string])[], x = 14, size = 8, cols = 28): Line[] =>
  rows.map((row): Line => {
    const text = typeof row === 'string' ? row : `${row[0].padEnd(cols - row[1].length)}${row[1]}`;
    return [{ x, text, font: 'F3', size }];
  });

export const freshVariant13Docs = (): BusinessDoc[] => {
  const docs: Omit<BusinessDoc, 'name'>[] = [
    {
      kind: 'contract',
      layout: 'consultancy agreement clause 1 parties',
      schema: {
        consultant: '',
        client: 'The company engaging the consultant',
        commencement_date: '',
        term: 'Length of the engagement',
        day_rate: '',
        fee_cap: 'Maximum total fees',
        notice_period: '',
        governing_law: '',
        liability_cap: '',
        vat_number: "Consultant's VAT registration number",
      },
      expected: {
        consultant: 'Harrow & Vance Advisory LLP',
        client: 'Bellmere Foods plc',
        commencement_date: '3 August 2026',
        term: '6 months',
        day_rate: '\u00a3950',
        fee_cap: '\u00a357,000',
        notice_period: '30 days',
        governing_law: 'England and Wales',
        liability_cap: null,
        vat_number: null,
      },
      pdf: sheet([
        ...title('CONSULTANCY AGREEMENT', 16),
        [{ x: 72, text: 'This Agreement is dated 21 July 2026.', size: 10 }],
        ...heading('1.  Parties'),
        ...para(
          '1.1  Bellmere Foods plc, a company incorporated in England (company number 01188734), whose registered',
          '       office is at Bellmere House, Station Road, Market Harborough LE16 7NS (the Client); and',
          '1.2  Harrow & Vance Advisory LLP, a limited liability partnership (registered number OC412233), of',
          '       9 Cheapside Court, Nottingham NG1 2HS (the Consultant).',
        ),
        ...heading('2.  Services and Term'),
        ...para(
          '2.1  The Consultant shall review the Client\u2019s cold-chain distribution network and recommend changes.',
          '2.2  Start Date: 3 August 2026. The engagement lasts 6 months from the Start Date unless ended earlier',
          '       under clause 6. The Consultant shall provide the Services on up to 60 days in that period.',
        ),
        ...heading('3.  Fees'),
        ...para(
          '3.1  The Client shall pay the Consultant \u00a3950 per day (exclusive of VAT) for each day worked.',
          '3.2  Total fees under this Agreement shall not exceed \u00a357,000 without the Client\u2019s written consent.',
          '3.3  The Consultant invoices monthly in arrears; invoices are payable within 30 days of receipt.',
        ),
        ...heading('4.  Insurance'),
        ...para(
          '4.1  The Consultant shall hold professional indemnity insurance of at least \u00a32,000,000 for each claim',
          '       during the engagement and for 6 years after it.',
        ),
        ...heading('6.  Termination'),
        ...para(
          '6.1  Either party may end this Agreement by giving 30 days written notice to the other.',
          '6.2  The Client may end it at once if the Consultant commits a material breach it does not remedy.',
        ),
        ...heading('7.  Law'),
        ...para('7.1  This Agreement is governed by the law of England and Wales.'),
        10,
        [
          { x: 72, text: 'Signed for the Client', size: 9 },
          { x: 320, text: 'Signed for the Consultant', size: 9 },
        ],
        [
          { x: 72, text: 'Ruth Ellingham, Chief Operating Officer', size: 9 },
          { x: 320, text: 'Simon Vance, Designated Member', size: 9 },
        ],
      ]),
    },
    {
      kind: 'contract',
      layout: 'software licence cover page and particulars box',
      schema: {
        licensor: '',
        licensee: '',
        agreement_reference: '',
        product: 'Licensed software',
        effective_date: 'Date the licence starts',
        initial_term: '',
        named_users: 'Number of licensed users',
        annual_licence_fee: '',
        support_fee: '',
        governing_law: '',
        escrow_agent: '',
        data_hosting_location: '',
      },
      expected: {
        licensor: 'Quillfeather Software GmbH',
        licensee: 'Rotherfield County Council',
        agreement_reference: 'LSA-44190',
        product: 'Quillfeather Records Suite 7',
        effective_date: '1 February 2026',
        initial_term: '3 years',
        named_users: 250,
        annual_licence_fee: 'EUR 38,500.00',
        support_fee: 'EUR 6,930.00',
        governing_law: 'Ireland',
        escrow_agent: null,
        data_hosting_location: null,
      },
      pdf: makePdf([
        page(
          [
            120,
            [{ x: 150, text: 'SOFTWARE LICENCE AGREEMENT', font: 'F2', size: 20 }],
            30,
            [{ x: 230, text: 'between', size: 12 }],
            12,
            [{ x: 170, text: 'QUILLFEATHER SOFTWARE GMBH', font: 'F2', size: 13 }],
            12,
            [{ x: 240, text: 'and', size: 12 }],
            12,
            [{ x: 170, text: 'ROTHERFIELD COUNTY COUNCIL', font: 'F2', size: 13 }],
            60,
            [{ x: 215, text: 'Dated 12 January 2026', size: 11 }],
            [{ x: 225, text: 'Reference LSA-44190', size: 11 }],
          ],
          undefined,
          740,
        ),
        page([
          ...title('Particulars', 14),
          { frame: 'top', x: [66, 546] },
          ...pairs(
            [
              ['Licensor', 'Quillfeather Software GmbH, Kaiserstra\u00dfe 41, 60329 Frankfurt, Germany'],
              ['Licensee', 'Rotherfield County Council, County Hall, Rotherfield RF1 2AA'],
              ['Licensed Software', 'Quillfeather Records Suite 7 (on-premises edition)'],
              ['Licensed users', '250 named users'],
              ['Licence Start', '1 February 2026'],
              ['Initial Term', '3 years, renewable for further 1 year periods'],
              ['Annual licence fee', 'EUR 38,500.00 (excl. VAT)'],
              ['Support and maintenance', 'EUR 6,930.00 per year, invoiced with the licence fee'],
              ['Law and courts', 'Ireland; the courts of Dublin'],
            ],
            [78, 205],
          ),
          { frame: 'bottom', x: [66, 546] },
          6,
          ...para(
            'The Particulars and the General Terms (version 2025.2) attached form one agreement. If they conflict,',
            'the Particulars prevail. The Licensee may make one backup copy and one test installation.',
          ),
          ...heading('Escrow'),
          ...para(
            'No source code escrow applies to this licence. The Licensor shall give 12 months notice before it',
            'withdraws support for version 7.',
          ),
          ...heading('Signatures'),
          [
            { x: 72, text: 'for the Licensor: Dr. Jonas Reiter', size: 9 },
            { x: 320, text: 'for the Licensee: Alison Markby', size: 9 },
          ],
        ]),
      ]),
    },
    {
      kind: 'contract',
      layout: 'vehicle hire agreement hirer and owner side by side labels above values',
      schema: {
        hire_company: 'The company hiring out the vehicle',
        hirer_name: '',
        hirer_licence_number: 'Driving licence number',
        vehicle_registration: '',
        vehicle: 'Make and model',
        hire_start: '',
        hire_end: '',
        daily_rate: '',
        deposit: '',
        mileage_allowance: 'Miles included per day',
        damage_excess: '',
        hirer_date_of_birth: '',
        insurance_policy_number: '',
      },
      expected: {
        hire_company: 'Tarnside Van & Car Hire Ltd',
        hirer_name: 'Oluwaseun Adeyemi',
        hirer_licence_number: 'ADEYE805125O99MT',
        vehicle_registration: 'YR24 KZP',
        vehicle: 'Ford Transit Custom 280 L1',
        hire_start: '06/07/2026',
        hire_end: '09/07/2026',
        daily_rate: '\u00a374.00',
        deposit: '\u00a3250.00',
        mileage_allowance: '200;miles',
        damage_excess: '\u00a31,000',
        hirer_date_of_birth: null,
        insurance_policy_number: null,
      },
      pdf: sheet([
        ...title('VEHICLE RENTAL AGREEMENT  No. 118276', 14),
        [{ x: 72, text: 'Please check every detail before you sign and drive away.', size: 8 }],
        8,
        [
          { x: 72, text: 'HIRER', font: 'F2', size: 11 },
          { x: 320, text: 'OWNER', font: 'F2', size: 11 },
        ],
        { rule: [72, 300] },
        ...stacked(
          [
            ['Name', 'Oluwaseun Adeyemi', 'Company', 'Tarnside Van & Car Hire Ltd'],
            ['Address', '22 Saltaire Road, Shipley BD18 3HN', 'Branch', 'Canal Road Depot, Bradford BD2 1AU'],
            ['Driving licence', 'ADEYE805125O99MT', 'Telephone', '01274 559 210'],
            ['Licence issued', '14/03/2019', 'VAT registration', 'GB 221 4478 09'],
          ],
          [72, 320],
        ),
        8,
        [{ x: 72, text: 'VEHICLE AND HIRE PERIOD', font: 'F2', size: 11 }],
        { rule: [72, 540] },
        ...stacked(
          [
            ['Registration', 'YR24 KZP', 'Make / model', 'Ford Transit Custom 280 L1'],
            ['Out', '06/07/2026 08:30', 'Due back', '09/07/2026 18:00'],
            ['Fuel out', 'Full', 'Mileage out', '18,402'],
          ],
          [72, 320],
        ),
        8,
        [{ x: 72, text: 'CHARGES', font: 'F2', size: 11 }],
        { rule: [72, 540] },
        ...amounts(
          [
            ['Daily rate', '\u00a374.00 per day'],
            ['Days', '3'],
            ['Hire charge', '\u00a3222.00'],
            ['Refundable deposit (taken on card)', '\u00a3250.00'],
          ],
          72,
          400,
        ),
        8,
        ...para(
          'Included mileage: 200 miles per day; extra miles at 22p per mile. Fuel policy: full to full, or a',
          'refuelling charge applies. Collision damage waiver is included; the hirer pays the first \u00a31,000',
          'of any damage claim (the excess). The vehicle must not leave the United Kingdom. Drivers must be aged',
          '23 or over and have held a full licence for at least 2 years.',
        ),
        12,
        [
          { x: 72, text: 'Hirer signature', size: 9 },
          { x: 320, text: 'For the Owner', size: 9 },
        ],
        [
          { x: 72, text: 'O. Adeyemi   06/07/2026', size: 9 },
          { x: 320, text: 'K. Barraclough, branch manager', size: 9 },
        ],
      ]),
    },
    {
      kind: 'contract',
      layout: 'nda discloser recipient governing law passive',
      schema: {
        disclosing_party: '',
        receiving_party: '',
        effective_date: '',
        purpose: 'What the confidential information may be used for',
        confidentiality_period: 'How long the obligations last',
        return_period: 'Time allowed to return or destroy materials',
        governing_law: '',
        signatory_for_receiving_party: '',
        liquidated_damages: '',
        non_solicitation_period: '',
      },
      expected: {
        disclosing_party: 'Fennick Robotics Inc.',
        receiving_party: 'Ardgowan Precision Engineering Ltd',
        effective_date: 'March 2, 2026',
        purpose: 'evaluating a joint bid for the Clydeport crane retrofit',
        confidentiality_period: '5 years',
        return_period: '10 business days',
        governing_law: 'Scotland',
        signatory_for_receiving_party: 'Morag Linklater',
        liquidated_damages: null,
        non_solicitation_period: null,
      },
      pdf: sheet([
        ...title('CONFIDENTIALITY AGREEMENT', 15, 190),
        [{ x: 240, text: '(one-way)', size: 10 }],
        10,
        ...para(
          'Effective Date   March 2, 2026',
          '',
          'Discloser   Fennick Robotics Inc., 1800 Liberty Avenue, Pittsburgh, PA 15222, USA',
          'Recipient   Ardgowan Precision Engineering Ltd, 7 Inchinnan Drive, Renfrew PA4 9LH, Scotland',
        ),
        ...heading('Purpose'),
        ...para(
          'The Discloser will give the Recipient drawings, software and pricing solely for the purpose of',
          'evaluating a joint bid for the Clydeport crane retrofit (the Purpose).',
        ),
        ...heading('Obligations'),
        ...para(
          '(a)  Confidential Information is to be used only for the Purpose and is not to be disclosed to anyone',
          '      except employees and advisers who need it for the Purpose and are bound by like duties.',
          '(b)  These obligations continue for 5 years from the Effective Date; for trade secrets, for as long as',
          '      the information remains a trade secret.',
          '(c)  On written request all materials are to be returned or destroyed within 10 business days, and',
          '      their destruction confirmed in writing by an officer of the Recipient.',
          '(d)  No licence under any patent or copyright is granted by this Agreement. Either side may end talks',
          '      at any time; no obligation to enter into any further agreement is created.',
        ),
        ...heading('Law'),
        ...para(
          'This Agreement is to be governed by and construed in accordance with the law of Scotland, and the',
          'Court of Session in Edinburgh is to have exclusive jurisdiction over any dispute arising from it.',
        ),
        ...heading('Remedies'),
        ...para(
          'Damages alone may not be an adequate remedy; the Discloser may seek interdict or specific performance.',
        ),
        12,
        [
          { x: 72, text: 'FENNICK ROBOTICS INC.', font: 'F2', size: 9 },
          { x: 320, text: 'ARDGOWAN PRECISION ENGINEERING LTD', font: 'F2', size: 9 },
        ],
        [
          { x: 72, text: 'By: Carl J. Whitmore, VP Business Development', size: 9 },
          { x: 320, text: 'By: Morag Linklater, Managing Director', size: 9 },
        ],
      ]),
    },
    {
      kind: 'receipt',
      layout: 'hotel folio nights city tax debit credit columns',
      schema: {
        hotel: '',
        guest_name: '',
        room_number: '',
        arrival: 'Arrival date',
        departure: '',
        nights: 'Number of nights',
        room_rate: 'Price per night',
        city_tax: 'Total city tax charged',
        total: '',
        vat_total: '',
        payment_method: '',
        company_name: 'Company the bill is made out to',
        loyalty_number: '',
      },
      expected: {
        hotel: 'Hotel Lindenhof',
        guest_name: 'Daniel Okafor',
        room_number: '214',
        arrival: '12.05.2026',
        departure: '15.05.2026',
        nights: 3,
        room_rate: '142.00',
        city_tax: '14.40',
        total: '485.90',
        vat_total: '46.31',
        payment_method: 'Mastercard',
        company_name: null,
        loyalty_number: null,
      },
      pdf: sheet([
        [
          { x: 72, text: 'Hotel Lindenhof', font: 'F2', size: 18 },
          { right: 540, text: 'Linzer Gasse 17 \u2022 5020 Salzburg \u2022 Austria', size: 8 },
        ],
        [{ right: 540, text: 'ATU 58114402', size: 8 }],
        10,
        [{ x: 72, text: 'Rechnung / Folio  Nr. 2026-08817', font: 'F2', size: 12 }],
        6,
        ...twoColumns(
          [
            ['Guest', 'Daniel Okafor', 'Room', '214'],
            ['Company', '\u2014', 'Arrival', '12.05.2026'],
            ['Persons', '2', 'Departure', '15.05.2026'],
            ['', '', 'Nights', '3'],
          ],
          [72, 150, 330, 400],
          10,
        ),
        { rule: [72, 540] },
        ...grid([['Date', 'Description', 'Debit', 'Credit']], [72, 140, 440, 500], 1, 9),
        ...grid(
          [
            ['12.05.26', 'Logis / Accommodation', '142.00', ''],
            ['12.05.26', 'Ortstaxe / City tax 2 x 2.40', '4.80', ''],
            ['13.05.26', 'Logis / Accommodation', '142.00', ''],
            ['13.05.26', 'Ortstaxe / City tax 2 x 2.40', '4.80', ''],
            ['13.05.26', 'Minibar', '9.50', ''],
            ['13.05.26', 'Garage', '18.00', ''],
            ['14.05.26', 'Logis / Accommodation', '142.00', ''],
            ['14.05.26', 'Ortstaxe / City tax 2 x 2.40', '4.80', ''],
            ['14.05.26', 'Garage', '18.00', ''],
            ['15.05.26', 'Mastercard xxxx 7731', '', '485.90'],
          ],
          [72, 140, 470, 530],
          0,
          9,
          [2, 3],
        ),
        { rule: [72, 540] },
        ...amounts(
          [
            ['Total charges EUR', '485.90', 'F2'],
            ['Paid EUR', '485.90'],
            ['Balance EUR', '0.00', 'F2'],
          ],
          300,
          530,
        ),
        10,
        [{ x: 72, text: 'Tax summary', font: 'F2', size: 10 }],
        ...grid(
          [
            ['Rate', 'Net', 'VAT', 'Gross'],
            ['10 %', '387.27', '38.73', '426.00'],
            ['20 %', '37.92', '7.58', '45.50'],
            ['City tax (no VAT)', '14.40', '', '14.40'],
            ['Total', '439.59', '46.31', '485.90'],
          ],
          [72, 240, 310, 380],
          1,
          9,
        ),
        ...para('Thank you for staying with us. Check-out is until 11:00; late check-out on request.'),
      ]),
    },
    {
      kind: 'receipt',
      layout: 'builder invoice labour materials retention',
      schema: {
        contractor: '',
        invoice_number: '',
        invoice_date: '',
        customer: '',
        site_address: 'Address where the work was done',
        labour_total: '',
        materials_total: '',
        vat_amount: '',
        invoice_total: 'Total including VAT',
        retention_amount: '',
        amount_payable: '',
        payment_terms: 'Days allowed for payment',
        purchase_order_number: '',
        retention_release_date: '',
      },
      expected: {
        contractor: 'Pennock & Daughters Building Ltd',
        invoice_number: 'PD-2026-0318',
        invoice_date: '30 September 2026',
        customer: 'Fiona Hallworth',
        site_address: '4 Orchard Rise, Ludlow SY8 1QE',
        labour_total: '3,240.00',
        materials_total: '2,186.40',
        vat_amount: '1,085.28',
        invoice_total: '6,511.68',
        retention_amount: '271.32',
        amount_payable: '6,240.36',
        payment_terms: '14 days',
        purchase_order_number: null,
        retention_release_date: null,
      },
      pdf: sheet([
        [
          { x: 72, text: 'PENNOCK & DAUGHTERS', font: 'F2', size: 16 },
          { right: 540, text: 'INVOICE', font: 'F2', size: 16 },
        ],
        [{ x: 72, text: 'Pennock & Daughters Building Ltd \u2022 Corve Street Yard, Ludlow SY8 1DA', size: 8 }],
        [{ x: 72, text: 'VAT no. GB 402 1187 63 \u2022 Registered in England 08833120', size: 8 }],
        10,
        ...twoColumns(
          [
            ['Invoice', 'PD-2026-0318', 'Bill to', 'Fiona Hallworth'],
            ['Date', '30 September 2026', 'Site', '4 Orchard Rise, Ludlow SY8 1QE'],
            ['Quote ref', 'Q-1190', 'Stage', 'Valuation 2 of 3'],
          ],
          [72, 140, 320, 370],
        ),
        ...para('Rear extension: blockwork to wall plate, roof structure and tiling.'),
        ...heading('Labour'),
        ...grid(
          [
            ['Description', 'Qty', 'Rate', 'Amount'],
            ['Bricklayers (2) - days', '12', '210.00', '2,520.00'],
            ['General labourer - days', '4', '180.00', '720.00'],
          ],
          [72, 330, 400, 470],
        ),
        ...amounts([['Labour total', '3,240.00', 'F2']], 330, 520),
        ...heading('Materials'),
        ...grid(
          [
            ['Description', 'Qty', 'Rate', 'Amount'],
            ['Concrete blocks 7N 440x215x100', '440', '1.62', '712.80'],
            ['Sand, cement, lime (bulk)', '1', '348.60', '348.60'],
            ['C24 timber 47x150 4.8 m', '18', '22.50', '405.00'],
            ['Clay plain tiles', '400', '1.80', '720.00'],
          ],
          [72, 330, 400, 470],
        ),
        ...amounts([['Materials total', '2,186.40', 'F2']], 330, 520),
        { rule: [320, 540] },
        ...amounts(
          [
            ['Subtotal', '5,426.40'],
            ['VAT @ 20%', '1,085.28'],
            ['Invoice total', '6,511.68', 'F2'],
            ['Less retention 5% of subtotal', '271.32'],
            ['Amount now due', '6,240.36', 'F2'],
          ],
          330,
          520,
        ),
        10,
        ...para(
          'Payment within 14 days of the invoice date by bank transfer: Pennock & Daughters Building Ltd,',
          'sort code 30-94-11, account 40117733. Retention is released at the end of the 6 month defects period.',
        ),
      ]),
    },
    {
      kind: 'receipt',
      layout: 'parking ticket narrow courier',
      schema: {
        operator: '',
        car_park: '',
        ticket_number: '',
        vehicle_registration: '',
        entry_time: '',
        exit_time: '',
        duration: 'Length of stay',
        amount_paid: '',
        vat: '',
        payment_method: '',
        bay_number: '',
        validation_code: '',
      },
      expected: {
        operator: 'CITYPARK',
        car_park: 'Harbourside Multi-Storey',
        ticket_number: '000481137',
        vehicle_registration: 'WK19 ODV',
        entry_time: '18/10/26 09:14',
        exit_time: '18/10/26 13:52',
        duration: '4h 38m',
        amount_paid: '8.50',
        vat: '1.42',
        payment_method: 'CARD',
        bay_number: null,
        validation_code: null,
      },
      pdf: sheet(
        [
          ...ticket([
            '        CITYPARK',
            '  Harbourside Multi-Storey',
            ' Harbour St, Plymouth PL1 3EA',
            '----------------------------',
            ['TICKET', '000481137'],
            ['PLATE', 'WK19 ODV'],
            ['IN', '18/10/26 09:14'],
            ['OUT', '18/10/26 13:52'],
            ['STAY', '4h 38m'],
            ['TARIFF', 'UP TO 5 HRS'],
            '----------------------------',
            ['FEE', '8.50'],
            ['PAID CARD', '8.50'],
            ['CHANGE', '0.00'],
            ['INCL VAT 20%', '1.42'],
            '----------------------------',
            '  VAT REG GB 198 2231 40',
            ' KEEP THIS TICKET AS RECEIPT',
            '   NO VALIDATION REQUIRED',
          ]),
        ],
        [0, 0, 200, 760],
        720,
      ),
    },
    {
      kind: 'receipt',
      layout: 'credit note negative lines and total',
      schema: {
        supplier: '',
        credit_note_number: '',
        date: 'Credit note date',
        original_invoice: 'Invoice being credited',
        customer: '',
        customer_reference: '',
        reason: '',
        net_amount: '',
        vat: '',
        total: '',
        currency: '',
        due_date: '',
      },
      expected: {
        supplier: 'Lumora Lighting B.V.',
        credit_note_number: 'CN-26-0093',
        date: '2026-09-14',
        original_invoice: 'INV-26-1187',
        customer: 'Brightwater Interiors Ltd',
        customer_reference: 'BW/PO/5521',
        reason: 'Goods returned damaged in transit',
        net_amount: '-1,015.00',
        vat: '-213.15',
        total: '-1,228.15',
        currency: 'EUR',
        due_date: null,
      },
      pdf: sheet([
        [
          { x: 72, text: 'Lumora Lighting B.V.', font: 'F2', size: 15 },
          { right: 540, text: 'CREDIT NOTE', font: 'F2', size: 15 },
        ],
        [{ x: 72, text: 'Strijpsestraat 84, 5616 GS Eindhoven, Netherlands \u2022 BTW NL861120447B01', size: 8 }],
        12,
        [{ x: 72, text: 'Brightwater Interiors Ltd', size: 10 }],
        [{ x: 72, text: '58 Wellington Street', size: 10 }],
        [{ x: 72, text: 'Belfast BT1 6HN, United Kingdom', size: 10 }],
        10,
        ...pairs(
          [
            ['Credit note no.', 'CN-26-0093'],
            ['Date', '2026-09-14'],
            ['Relates to invoice', 'INV-26-1187 of 2026-08-29'],
            ['Your reference', 'BW/PO/5521'],
            ['Reason', 'Goods returned damaged in transit'],
            ['Payment terms', 'n/a'],
          ],
          [72, 190],
        ),
        ...grid(
          [
            ['Article', 'Description', 'Qty', 'Unit price', 'Amount EUR'],
            ['LP-6060-40', 'LED panel 600x600 40W 4000K', '-10', '71.50', '-715.00'],
            ['TS-30-WH', 'Track spot 3000K white', '-4', '75.00', '-300.00'],
          ],
          [72, 150, 350, 400, 480],
        ),
        { rule: [330, 540] },
        ...amounts(
          [
            ['Net', '-1,015.00'],
            ['VAT 21%', '-213.15'],
            ['Total credit EUR', '-1,228.15', 'F2'],
          ],
          340,
          530,
        ),
        12,
        ...para(
          'The credit will be set off against your next invoice. Intra-Community transactions: the customer',
          'accounts for VAT where the reverse charge applies.',
        ),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'dc-dc converter conditions min typ max unit table',
      schema: {
        nominal_input_voltage: '',
        maximum_input_voltage: 'Highest continuous input voltage',
        output_voltage: '',
        output_current: 'Maximum output current',
        efficiency: 'Typical efficiency at full load',
        ripple_and_noise: 'Output ripple and noise, maximum',
        switching_frequency: '',
        isolation_voltage: '',
        no_load_input_current: '',
        operating_temperature: '',
        weight: '',
        load_regulation: '',
        mtbf: '',
      },
      expected: {
        nominal_input_voltage: '24;V',
        maximum_input_voltage: '36;V',
        output_voltage: '12;V',
        output_current: '2.5;A',
        efficiency: '91;%',
        ripple_and_noise: '100;mV',
        switching_frequency: '300;kHz',
        isolation_voltage: '1500;VDC',
        no_load_input_current: '12;mA',
        operating_temperature: '-40 \u00b0C to +85 \u00b0C',
        weight: '28;g',
        load_regulation: null,
        mtbf: null,
      },
      pdf: sheet([
        ...title('RDX30-24S12  30 W isolated DC-DC converter'),
        ...para('2:1 input range, 12 V single output, 1.6 x 1.0 inch metal case, six-sided shielding.'),
        ...heading('Input characteristics'),
        ...grid(
          [
            ['Parameter', 'Conditions', 'Min', 'Typ', 'Max', 'Unit'],
            ['Input voltage', 'continuous', '18', '24', '36', 'V'],
            ['Input surge', '100 ms', '', '', '50', 'V'],
            ['Under-voltage lockout', 'turn-on', '', '17', '', 'V'],
            ['No-load input current', 'Vin nominal', '', '12', '20', 'mA'],
          ],
          [72, 200, 330, 380, 430, 480],
        ),
        ...heading('Output characteristics'),
        ...grid(
          [
            ['Parameter', 'Conditions', 'Min', 'Typ', 'Max', 'Unit'],
            ['Output voltage', 'full load', '11.88', '12', '12.12', 'V'],
            ['Output current', '', '0', '', '2.5', 'A'],
            ['Line regulation', 'low line to high line', '', '0.1', '0.2', '%'],
            ['Ripple and noise', '20 MHz bandwidth', '', '75', '100', 'mV'],
            ['Efficiency', 'Vin nominal, full load', '', '91', '', '%'],
            ['Switching frequency', '', '', '300', '', 'kHz'],
          ],
          [72, 200, 330, 380, 430, 480],
        ),
        ...heading('General'),
        ...pairs(
          [
            ['Isolation voltage', '1500 VDC, input to output, 60 s'],
            ['Operating temperature', '-40 \u00b0C to +85 \u00b0C (derating above 70 \u00b0C)'],
            ['Cooling', 'free air convection'],
            ['Case material', 'nickel-coated copper'],
            ['Weight', '28 g'],
          ],
          [72, 210],
        ),
        ...para(
          'All figures at 25 \u00b0C ambient, nominal input and rated load unless stated otherwise. The output',
          'may be trimmed by 10 % with an external resistor; see application note AN-12.',
        ),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'temperature sensor accuracy by range table',
      schema: {
        supply_voltage: '',
        max_error_minus10_to_85: 'Maximum accuracy error from -10 \u00b0C to +85 \u00b0C',
        typical_error_minus40_to_125: 'Typical accuracy error from -40 \u00b0C to +125 \u00b0C',
        resolution: '',
        conversion_time: 'Maximum conversion time',
        supply_current: 'Active supply current, typical',
        shutdown_current: '',
        interface: '',
        package: '',
        i2c_addresses: '',
        operating_temperature: '',
        long_term_drift: '',
        self_heating: '',
      },
      expected: {
        supply_voltage: '1.8 V to 5.5 V',
        max_error_minus10_to_85: '\u00b10.4',
        typical_error_minus40_to_125: '\u00b10.5',
        resolution: '0.0625;\u00b0C',
        conversion_time: '35;ms',
        supply_current: '45;\u00b5A',
        shutdown_current: '0.1;\u00b5A',
        interface: 'I2C',
        package: 'WSON-6',
        i2c_addresses: '0x48 to 0x4B',
        operating_temperature: '-55 \u00b0C to +150 \u00b0C',
        long_term_drift: null,
        self_heating: null,
      },
      pdf: sheet([
        ...title('QT-118  Digital temperature sensor'),
        ...para('A 12-bit sensor for battery packs, cold-chain loggers and thermostats, calibrated at the factory.'),
        ...heading('Key data'),
        ...pairs(
          [
            ['Supply voltage', '1.8 V to 5.5 V'],
            ['Interface', '2-wire, I2C compatible, up to 400 kHz'],
            ['Bus address', '0x48 to 0x4B, set by the ADD0 pin'],
            ['Package', 'WSON-6 (2 mm x 2 mm)'],
            ['Operating range', '-55 \u00b0C to +150 \u00b0C'],
          ],
          [72, 200],
        ),
        ...heading('Accuracy'),
        ...grid(
          [
            ['Temperature range', 'Typ (\u00b0C)', 'Max (\u00b0C)'],
            ['-10 \u00b0C to +85 \u00b0C', '\u00b10.25', '\u00b10.4'],
            ['-40 \u00b0C to +125 \u00b0C', '\u00b10.5', '\u00b11.0'],
            ['-55 \u00b0C to +150 \u00b0C', '\u00b10.75', '\u00b11.5'],
          ],
          [72, 230, 320],
        ),
        ...heading('Electrical characteristics'),
        ...grid(
          [
            ['Parameter', 'Conditions', 'Typ', 'Max', 'Unit'],
            ['Resolution', '12-bit', '0.0625', '', '\u00b0C'],
            ['Conversion time', 'one-shot', '25', '35', 'ms'],
            ['Supply current', 'converting, 3.3 V', '45', '70', '\u00b5A'],
            ['Shutdown current', '', '0.1', '1', '\u00b5A'],
            ['Hysteresis', '', '0.02', '', '\u00b0C'],
          ],
          [72, 200, 330, 390, 450],
        ),
        ...para(
          'Mount the sensor close to the heat source with a short copper pour; keep it away from regulators.',
          'Accuracy figures apply after soldering with the reflow profile in section 9.',
        ),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'pump range per model rows',
      schema: {
        motor_power: {},
        max_flow: {},
        max_head: {},
        weight: {},
        max_liquid_temperature: '',
        max_operating_pressure: '',
        frequency: 'Mains frequency',
        protection_class: '',
        insulation_class: '',
        max_ambient_temperature: '',
        noise_level: '',
        impeller_material: '',
      },
      expected: {
        motor_power: { 'CM 3-4': '0.55;kW', 'CM 5-6': '1.1;kW', 'CM 10-4': '1.5;kW' },
        max_flow: { 'CM 3-4': '4.2;m\u00b3/h', 'CM 5-6': '7.0;m\u00b3/h', 'CM 10-4': '13.5;m\u00b3/h' },
        max_head: { 'CM 3-4': '38;m', 'CM 5-6': '52;m', 'CM 10-4': '41;m' },
        weight: { 'CM 3-4': '14.5;kg', 'CM 5-6': '19.0;kg', 'CM 10-4': '23.5;kg' },
        max_liquid_temperature: '110;\u00b0C',
        max_operating_pressure: '10;bar',
        frequency: '50;Hz',
        protection_class: 'IP55',
        insulation_class: 'F',
        max_ambient_temperature: '40;\u00b0C',
        noise_level: null,
        impeller_material: null,
      },
      pdf: sheet([
        ...title('AquaTorr CM  horizontal multistage centrifugal pumps'),
        ...para('For clean, thin liquids without solids: water supply, pressure boosting, washing and irrigation.'),
        ...heading('Performance'),
        ...grid(
          [
            ['Model', 'P2 (kW)', 'Qmax (m\u00b3/h)', 'Hmax (m)', 'Ports', 'Weight (kg)'],
            ['CM 3-4', '0.55', '4.2', '38', 'G 1 / G 1', '14.5'],
            ['CM 5-6', '1.1', '7.0', '52', 'G 1 1/4 / G 1', '19.0'],
            ['CM 10-4', '1.5', '13.5', '41', 'G 1 1/2 / G 1 1/4', '23.5'],
          ],
          [72, 140, 200, 280, 340, 450],
        ),
        ...heading('Operating limits'),
        ...twoColumns(
          [
            ['Liquid temperature', '-15 to 110 \u00b0C', 'Ambient temperature', 'max. 40 \u00b0C'],
            ['Operating pressure', 'max. 10 bar', 'Starts per hour', 'max. 100'],
          ],
          [72, 190, 320, 430],
        ),
        ...heading('Motor'),
        ...twoColumns(
          [
            ['Supply', '3 x 400 V', 'Frequency', '50 Hz'],
            ['Enclosure', 'IP55', 'Insulation class', 'F'],
            ['Efficiency class', 'IE3 (from 0.75 kW)', 'Poles', '2'],
          ],
          [72, 190, 320, 430],
        ),
        ...heading('Materials'),
        ...pairs(
          [
            ['Pump housing', 'cast iron EN-GJL-250'],
            ['Shaft', 'stainless steel 1.4301'],
            ['Mechanical seal', 'carbon / ceramic / EPDM'],
          ],
          [72, 190],
        ),
        ...para('Curves to ISO 9906 grade 3B, measured with water at 20 \u00b0C.'),
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'm8 connector two column key value spec list',
      schema: {
        rated_current: '',
        rated_voltage: '',
        contact_resistance: '',
        insulation_resistance: '',
        mating_cycles: 'Mechanical operations',
        protection_rating: '',
        number_of_contacts: '',
        coupling_nut_material: '',
        operating_temperature: '',
        pollution_degree: '',
        wire_size: 'Conductor cross-section',
        weight: '',
      },
      expected: {
        rated_current: '4;A',
        rated_voltage: '60;V',
        contact_resistance: '5;mOhm',
        insulation_resistance: '100;MOhm',
        mating_cycles: 100,
        protection_rating: 'IP67',
        number_of_contacts: 4,
        coupling_nut_material: 'Brass, nickel-plated',
        operating_temperature: '-25 \u00b0C to +85 \u00b0C',
        pollution_degree: 3,
        wire_size: null,
        weight: null,
      },
      pdf: sheet([
        ...title('KX8 series  M8 circular connectors, A-coded'),
        ...para('Field-attachable female connector, straight, screw clamp terminals, 4 positions.'),
        { rule: [72, 540] },
        ...twoColumns(
          [
            ['Mechanical', '', 'Electrical', ''],
            ['Positions', '4', 'Rated current', '4 A (at 40 \u00b0C)'],
            ['Coding', 'A', 'Rated voltage', '60 V AC/DC'],
            ['Locking', 'M8 x 1 screw', 'Contact resistance', 'max. 5 mOhm'],
            ['Mating cycles', 'min. 100', 'Insulation resistance', 'min. 100 MOhm'],
            ['Cable outer diameter', '3.5 to 5 mm', 'Pollution degree', '3'],
          ],
          [72, 180, 320, 440],
        ),
        ...twoColumns(
          [
            ['Materials', '', 'Environment', ''],
            ['Housing', 'PA66, black', 'Sealing', 'IP67 when mated and locked'],
            ['Coupling nut', 'Brass, nickel-plated', 'Operating temperature', '-25 \u00b0C to +85 \u00b0C'],
            ['Contacts', 'CuZn, gold-plated', 'Flammability', 'UL 94 V-0'],
          ],
          [72, 180, 320, 440],
        ),
        { rule: [72, 540] },
        ...para(
          'Tighten the coupling nut to 0.4 N\u00b7m by hand. Order numbers: KX8-F4-S (straight), KX8-F4-A (angled).',
        ),
      ]),
    },
  ];
  return docs.map((doc) => ({ ...doc, name: `fresh-13-${doc.kind}-${doc.layout.replace(/\s+/g, '-')}.pdf` }));
};
