// SPDX-License-Identifier: AGPL-3.0-or-later
import type { BusinessDoc } from './business-docs.js';
import { makePdf, type PdfPageSpec } from './make-pdf.js';

/**
 * Fresh variant 11 (issue 26, a blind held-out set): written by someone who had not read the offline extractor, and
 * committed before its first run. Layouts and wordings none of variants 1-10 use, drawn run by run: boxes and ruled
 * tables drawn as lines, labels set small above their values (the value on the line below), a narrow till roll in a
 * monospaced font, a contract over two pages, numbered paragraphs with the numbers in the margin, an e-mail printout.
 *
 * Contracts: a consultancy agreement whose parties are defined in its opening recital ("This Agreement is made on …
 * between … ("Client") and … ("Consultant")") with the clause numbers in the left margin; a licence certificate whose
 * particulars sit in boxes with the label above the value (the term in words, "three (3) years", only in the terms
 * below); an offer of employment as a printed e-mail whose numbered terms put each value on the line below its
 * label; a one-way non-disclosure agreement on two pages with the parties in a two-column table and the governing law
 * in its last clause on page 2. Receipts: a fuel station till roll (a page 230 points wide, Courier, the total printed
 * again as the card payment, net and VAT on one line); a water bill whose balance summary is a box of labels with the
 * amounts below them (previous balance, payment, brought forward, this bill's charges, amount due); a freelancer's
 * invoice with a ruled item table and the net, VAT and total in a box; a ferry booking confirmation with the booking
 * reference in a box and the sailings as "port time - port time". Datasheets: an AC/DC power supply with an input
 * table and an output table in Min./Typ./Max. columns (the field wants the typical or the maximum); a relay with coil
 * data per nominal voltage, one model a row, the header cells wrapped over two rows with the units in parentheses
 * (per-model dicts); a stepper motor whose specifications are a two-column list of label/value pairs with qualifiers
 * ("min. 0.55 N·m", "approx. 0.36 kg"); a temperature sensor with a key-specifications box (accuracy "±0.5 °C" over
 * one range and "±1.0 °C" over a wider one) and a table with section rows.
 *
 * Schemas as users write them: some fields bare, some with a description, per-model fields as `{}`; several field
 * names are synonyms of the printed labels (`consultant` / "Consultant" in the recital, `commencement_date` /
 * "Start Date", `employee_name` / "To:", `number_of_users` / "Named Users", `pump_number` / "Pump", `litres` / "L",
 * `previous_balance` / "Previous balance", `net_total` / "Net total", `lead_passenger` / "Lead passenger",
 * `nominal_current_per_model` / "Rated current", `current_per_phase` / "Rated current", `quiescent_current` /
 * "Supply current"). Twenty fields are not stated (expected null). `expected` is what the page prints for the value
 * ("value;unit" where the value is one number and a unit).
 */

/** One text run: `text` drawn from (`x`, the line's y). */
interface Run {
  x: number;
  text: string;
  font?: 'F1' | 'F2' | 'F3';
  size?: number;
}
/**
 * A line of runs at one height, vertical space in points, or lines drawn inside a box from `x0` to `x1` (with a
 * rule under each line but the last when `rules` is set).
 */
type Line = Run[] | number | { box: Line[]; x0: number; x1: number; rules?: boolean };

/** WinAnsiEncoding's characters outside Latin-1 that these documents use. */
const WIN_ANSI: Record<string, number> = { '\u20ac': 0x80, '\u2022': 0x95, '\u2013': 0x96, '\u2014': 0x97 };

/** A PDF string literal's contents in WinAnsiEncoding; a character the fonts cannot print is a mistake here. */
const encode = (text: string): string =>
  text.replace(/[\\()]|[^\x20-\x7e]/g, (c) => {
    if (c === '\\' || c === '(' || c === ')') return `\\${c}`;
    const code = WIN_ANSI[c] ?? c.charCodeAt(0);
    if (code < 0x80 || (code > 0xff && !(c in WIN_ANSI)))
      throw new Error(`fresh-docs-11: cannot print ${JSON.stringify(c)}`);
    return `\\${code.toString(8)}`;
  });

/** The page's operators for `lines`, top to bottom from y = `top`; returns the next free y. */
const draw = (lines: Line[], ops: string[], top: number): number => {
  let y = top;
  for (const line of lines) {
    if (typeof line === 'number') {
      y -= line;
      continue;
    }
    if (!Array.isArray(line)) {
      const boxTop = y + 13;
      const inner = line.box;
      let yy = y;
      inner.forEach((l, i) => {
        yy = draw([l], ops, yy);
        if (line.rules && i < inner.length - 1 && Array.isArray(l))
          ops.push(`${line.x0} ${yy + 11} m ${line.x1} ${yy + 11} l S`);
      });
      const boxBottom = yy + 8;
      ops.push(`0.6 w ${line.x0} ${boxBottom} ${line.x1 - line.x0} ${boxTop - boxBottom} re S`);
      y = yy - 10;
      continue;
    }
    const height = Math.max(...line.map((r) => r.size ?? 10));
    for (const run of line) {
      const size = run.size ?? 10;
      ops.push(`BT ${run.x} ${y} Td /${run.font ?? 'F1'} ${size} Tf (${encode(run.text)}) Tj ET`);
    }
    y -= height + 5;
  }
  return y;
};

/** A PDF of one or more pages of lines, each from y = 700 (below the band where running headers are dropped). */
const sheets = (pages: Line[][], mediaBox?: PdfPageSpec['mediaBox']): Buffer =>
  makePdf(
    pages.map((lines): PdfPageSpec => {
      const ops: string[] = [];
      const y = draw(lines, ops, 700);
      if (y < 40) throw new Error('fresh-docs-11: page overflow');
      return { content: ops.join('\n'), ...(mediaBox ? { mediaBox } : {}) };
    }),
  );

// Line builders.
const heading = (text: string, size = 15, x = 72): Line[] => [[{ x, text, font: 'F2', size }], 6];
const para = (...texts: string[]): Line[] => [...texts.map((text): Line => [{ x: 72, text }]), 6];
/** A paragraph with its number in the left margin. */
const numbered = (number: string, ...texts: string[]): Line[] => [
  ...texts.map(
    (text, i): Line =>
      i === 0
        ? [
            { x: 50, text: number, font: 'F2' },
            { x: 90, text },
          ]
        : [{ x: 90, text }],
  ),
  5,
];
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
/** A small label with its value on the line below, at `x`. */
const stacked = (label: string, value: string, x = 72, valueFont: Run['font'] = 'F1'): Line[] => [
  [{ x, text: label, size: 7 }],
  [{ x, text: value, font: valueFont }],
];
/** Rows of cells at the given x positions; the first `headerRows` rows in bold. */
const grid = (rows: string[][], xs: number[], headerRows = 1, size = 9): Line[] =>
  rows.map(
    (row, i): Line =>
      row
        .map((text, k): Run => ({ x: xs[k]!, text, size, font: i < headerRows ? 'F2' : 'F1' }))
        .filter((r) => r.text !== ''),
  );
/** Till-roll lines in Courier: each line a list of [x, text]. */
const till = (...rows: [number, string][][]): Line[] =>
  rows.map((row): Line => row.map(([x, text]): Run => ({ x, text, font: 'F3', size: 8 })));

export const freshVariant11Docs = (): BusinessDoc[] => {
  const docs: Omit<BusinessDoc, 'name'>[] = [
    {
      kind: 'contract',
      layout: 'consultancy agreement margin numbers',
      schema: {
        client: '',
        consultant: 'The adviser providing the services',
        agreement_date: '',
        services_start_date: 'When the consultant starts work',
        daily_fee: 'Fee per working day',
        maximum_days: '',
        termination_notice: '',
        governing_law: '',
        liability_cap: '',
        consultant_vat_number: '',
      },
      expected: {
        client: 'Halden Ridge Analytics Ltd',
        consultant: 'Lindgren Data Advisory AB',
        agreement_date: '3rd February 2026',
        services_start_date: '16 February 2026',
        daily_fee: '\u00a3850',
        maximum_days: 40,
        termination_notice: 'fourteen (14) days',
        governing_law: 'Scotland',
        liability_cap: null,
        consultant_vat_number: null,
      },
      pdf: sheets([
        [
          ...heading('CONSULTANCY AGREEMENT', 16, 200),
          14,
          [
            {
              x: 72,
              text: 'This Agreement is made on 3rd February 2026 between Halden Ridge Analytics Ltd, a company registered',
            },
          ],
          [
            {
              x: 72,
              text: 'in Scotland (SC612094) whose registered office is at 40 Queen Street, Edinburgh EH2 3NH ("Client")',
            },
          ],
          [
            {
              x: 72,
              text: 'and Lindgren Data Advisory AB, of Sveav\u00e4gen 44, 111 34 Stockholm, Sweden ("Consultant").',
            },
          ],
          10,
          ...numbered(
            '1.',
            "Services. The Consultant shall review the Client's demand forecasting models and recommend",
            'changes, as described in the Annex. The Consultant shall provide the Services from 16 February 2026',
            'until they are completed or this Agreement ends.',
          ),
          ...numbered(
            '2.',
            'Fees. The Client shall pay the Consultant at \u00a3850 per working day, exclusive of VAT, invoiced monthly in',
            "arrears. The days charged shall not exceed forty (40) without the Client's prior written approval.",
            'Reasonable travel expenses agreed in advance are reimbursed at cost.',
          ),
          ...numbered(
            '3.',
            'Status. The Consultant is an independent contractor and nothing in this Agreement makes it an',
            'employee, worker, agent or partner of the Client.',
          ),
          ...numbered(
            '4.',
            'Intellectual property. Reports and code written for the Client under this Agreement belong to the',
            'Client on payment; the Consultant keeps its pre-existing tools and methods.',
          ),
          ...numbered(
            '5.',
            'Termination. Either party may end this Agreement by giving the other fourteen (14) days notice in',
            'writing, or at once if the other commits a material breach it does not remedy within 7 days.',
          ),
          ...numbered('6.', 'Law. This Agreement is governed by the law of Scotland.'),
          18,
          [
            { x: 72, text: 'Signed for Halden Ridge Analytics Ltd', font: 'F2', size: 9 },
            { x: 330, text: 'Signed for Lindgren Data Advisory AB', font: 'F2', size: 9 },
          ],
          [
            { x: 72, text: 'Callum Reid, Chief Operating Officer', size: 9 },
            { x: 330, text: 'Karin Lindgren, Managing Director', size: 9 },
          ],
        ],
      ]),
    },
    {
      kind: 'contract',
      layout: 'licence certificate boxed particulars',
      schema: {
        parties: [],
        order_number: '',
        licensed_software: 'Name of the product licensed',
        commencement_date: '',
        licence_term: 'How long the licence lasts',
        number_of_users: '',
        annual_licence_fee: '',
        renewal_period: '',
        support_level: '',
        governing_law: '',
      },
      expected: {
        parties: ['Tessellate Systems Oy', 'Brightwater Housing Association'],
        order_number: 'TS-ORD-26-0193',
        licensed_software: 'Tessellate Asset Planner Enterprise',
        commencement_date: '1 April 2026',
        licence_term: 'three (3) years',
        number_of_users: 120,
        annual_licence_fee: '\u20ac38,400.00',
        renewal_period: 'twelve (12) months',
        support_level: 'Gold',
        governing_law: null,
      },
      pdf: sheets([
        [
          ...heading('Licence Certificate and Order', 17),
          [{ x: 72, text: 'Issued under the Tessellate Master Licence Terms v4.2', size: 9 }],
          12,
          {
            x0: 66,
            x1: 546,
            rules: true,
            box: [
              [
                { x: 72, text: 'Licensor', size: 7 },
                { x: 310, text: 'Licensee (Customer)', size: 7 },
              ],
              [
                { x: 72, text: 'Tessellate Systems Oy', font: 'F2' },
                { x: 310, text: 'Brightwater Housing Association', font: 'F2' },
              ],
              [
                { x: 72, text: 'Order No.', size: 7 },
                { x: 310, text: 'Start Date', size: 7 },
              ],
              [
                { x: 72, text: 'TS-ORD-26-0193' },
                { x: 310, text: '1 April 2026' },
              ],
              [
                { x: 72, text: 'Product', size: 7 },
                { x: 310, text: 'Named Users', size: 7 },
              ],
              [
                { x: 72, text: 'Tessellate Asset Planner Enterprise' },
                { x: 310, text: '120' },
              ],
              [
                { x: 72, text: 'Annual Fee (excl. VAT)', size: 7 },
                { x: 310, text: 'Support plan', size: 7 },
              ],
              [
                { x: 72, text: '\u20ac38,400.00' },
                { x: 310, text: 'Gold (24x7, 2-hour response)' },
              ],
            ],
          },
          8,
          ...para(
            'First-year total including onboarding and data migration: \u20ac42,900.00, invoiced on the Start Date.',
            'Later years are invoiced annually in advance at the Annual Fee, adjusted by the agreed index.',
          ),
          [{ x: 72, text: 'Terms', font: 'F2', size: 11 }],
          4,
          ...para(
            'The Licence is granted for a term of three (3) years from the Start Date. It then renews for successive',
            'periods of twelve (12) months unless either party gives ninety (90) days notice before the end of the',
            'current period. The Named Users may be reassigned no more than once per quarter. Hosting is in the',
            'EU (Frankfurt region). All other terms are those of the Master Licence Terms named above.',
          ),
          14,
          [
            { x: 72, text: 'For Tessellate Systems Oy', size: 9 },
            { x: 310, text: 'For Brightwater Housing Association', size: 9 },
          ],
          [
            { x: 72, text: 'Eero Lindqvist, Head of Sales', size: 9 },
            { x: 310, text: 'Monica Achebe, Director of IT', size: 9 },
          ],
        ],
      ]),
    },
    {
      kind: 'contract',
      layout: 'offer of employment email printout',
      schema: {
        employer: '',
        employee_name: 'Person the job is offered to',
        job_title: '',
        start_date: '',
        annual_salary: 'Gross base salary per year',
        target_bonus: '',
        probation_period: '',
        annual_leave: 'Paid holiday days per year',
        acceptance_deadline: '',
        company_car: '',
        pension_contribution: 'Employer pension contribution',
      },
      expected: {
        employer: 'Ostwind Robotics GmbH',
        employee_name: 'Malik Osei',
        job_title: 'Senior Controls Engineer',
        start_date: '2 March 2026',
        annual_salary: '\u20ac64,500',
        target_bonus: '8;%',
        probation_period: 'six (6) months',
        annual_leave: '30;days',
        acceptance_deadline: '23 January 2026',
        company_car: null,
        pension_contribution: null,
      },
      pdf: sheets([
        [
          ...pairs(
            [
              ['From:', 'Ostwind Robotics Recruiting <jobs@ostwind-robotics.de>'],
              ['To:', 'Malik Osei <m.osei@mailbox.org>'],
              ['Date:', 'Mon, 12 Jan 2026 09:14'],
              ['Subject:', 'Your offer - Controls Engineer (m/f/d), ref. 2025-117'],
            ],
            [72, 130],
            9,
          ),
          [{ x: 72, text: '____________________________________________________________________________', size: 9 }],
          10,
          ...para(
            'Dear Malik,',
            '',
            'thank you for your time during the interviews. We are delighted to offer you a position at',
            'Ostwind Robotics GmbH. The main terms are below; your contract will follow by post.',
          ),
          [{ x: 72, text: '1)  Position', font: 'F2' }],
          [{ x: 92, text: 'Senior Controls Engineer, reporting to Dr. Ines Kaltenbach (Head of Automation)' }],
          [{ x: 72, text: '2)  Start date', font: 'F2' }],
          [{ x: 92, text: 'Monday, 2 March 2026' }],
          [{ x: 72, text: '3)  Place of work', font: 'F2' }],
          [{ x: 92, text: 'Hafenstra\u00dfe 12, 28217 Bremen (hybrid, up to 2 days remote per week)' }],
          [{ x: 72, text: '4)  Base salary', font: 'F2' }],
          [{ x: 92, text: '\u20ac64,500 gross per year, paid in 12 monthly instalments' }],
          [{ x: 72, text: '5)  Bonus', font: 'F2' }],
          [{ x: 92, text: 'target approx. 8 % of base salary, depending on company and personal goals' }],
          [{ x: 72, text: '6)  Probation', font: 'F2' }],
          [{ x: 92, text: 'six (6) months, with two weeks notice on either side during probation' }],
          [{ x: 72, text: '7)  Holiday', font: 'F2' }],
          [{ x: 92, text: '30 days per calendar year (pro rata in 2026)' }],
          [{ x: 72, text: '8)  Notice period after probation', font: 'F2' }],
          [{ x: 92, text: 'three (3) months to the end of a calendar month' }],
          10,
          ...para(
            'Please confirm by 23 January 2026 by replying to this email. If you have any questions, call me',
            'on +49 421 555 0183.',
            '',
            'Best regards,',
            'Jana Hoffmeister',
            'Talent Acquisition, Ostwind Robotics GmbH',
          ),
        ],
      ]),
    },
    {
      kind: 'contract',
      layout: 'one-way nda two pages',
      schema: {
        disclosing_party: '',
        receiving_party: '',
        effective_date: '',
        purpose: 'What the information may be used for',
        confidentiality_period: 'How long the obligations last',
        governing_law: '',
        jurisdiction: 'Court that hears disputes',
        contractual_penalty: '',
      },
      expected: {
        disclosing_party: 'Kestrel Photonics B.V.',
        receiving_party: 'Arbor Fine Mechanics Ltd',
        effective_date: '9th day of March 2026',
        purpose: 'evaluating a joint development of laser beam delivery optics',
        confidentiality_period: 'five (5) years',
        governing_law: 'Kingdom of the Netherlands',
        jurisdiction: 'District Court of Rotterdam',
        contractual_penalty: null,
      },
      pdf: sheets([
        [
          ...heading('NON-DISCLOSURE AGREEMENT (ONE-WAY)', 15),
          ...grid(
            [
              ['', 'Disclosing Party', 'Receiving Party'],
              ['Name', 'Kestrel Photonics B.V.', 'Arbor Fine Mechanics Ltd'],
              ['Address', 'Marconistraat 16, 3029 AK Rotterdam', '11 Forge Lane, Sheffield S9 2RR'],
              ['Registration', 'KvK 58213377', 'Company no. 09932181'],
              ['Represented by', 'Dr. Willemijn Baas, CEO', 'Owen Pritchard, Director'],
            ],
            [72, 170, 370],
            1,
            9,
          ),
          10,
          ...para('This Agreement takes effect on the 9th day of March 2026 (the "Effective Date").'),
          [{ x: 72, text: '1. Purpose', font: 'F2' }],
          ...para(
            'The Disclosing Party will share information with the Receiving Party solely for the purpose of',
            'evaluating a joint development of laser beam delivery optics (the "Purpose").',
          ),
          [{ x: 72, text: '2. Confidential Information', font: 'F2' }],
          ...para(
            'Confidential Information means all technical and commercial information disclosed by the Disclosing',
            'Party, in any form, whether or not marked confidential, including drawings, samples and test data.',
          ),
          [{ x: 72, text: '3. Obligations', font: 'F2' }],
          ...para(
            'The Receiving Party shall keep the Confidential Information secret, use it only for the Purpose and',
            'disclose it only to those of its employees who need to know it for the Purpose and are bound by',
            'written obligations no less strict than these.',
          ),
          [{ x: 72, text: '4. Exceptions', font: 'F2' }],
          ...para(
            'The obligations do not apply to information that is or becomes public other than through the',
            'Receiving Party, that it already lawfully held, or that it must disclose by law.',
          ),
          [{ x: 72, text: '5. Duration', font: 'F2' }],
          ...para('The obligations in clause 3 continue for five (5) years after the date of each disclosure.'),
          [{ x: 72, text: '6. Return of information', font: 'F2' }],
          ...para('On request the Receiving Party shall return or destroy all Confidential Information and copies.'),
          20,
          [{ x: 280, text: 'Page 1 of 2', size: 8 }],
        ],
        [
          [{ x: 72, text: '7. No licence', font: 'F2' }],
          ...para('No licence under any patent, copyright or other right is granted by this Agreement.'),
          [{ x: 72, text: '8. No obligation to proceed', font: 'F2' }],
          ...para('Neither party is obliged to enter into any further agreement about the Purpose.'),
          [{ x: 72, text: '9. Entire agreement', font: 'F2' }],
          ...para(
            'This Agreement is the entire agreement between the parties about its subject and may be changed',
            'only in writing signed by both parties.',
          ),
          [{ x: 72, text: '10. Governing law and forum', font: 'F2' }],
          ...para(
            'This Agreement is governed by the laws of the Kingdom of the Netherlands. Any dispute arising',
            'from it shall be submitted exclusively to the District Court of Rotterdam.',
          ),
          24,
          [
            { x: 72, text: 'Kestrel Photonics B.V.', font: 'F2', size: 9 },
            { x: 330, text: 'Arbor Fine Mechanics Ltd', font: 'F2', size: 9 },
          ],
          [
            { x: 72, text: 'Dr. Willemijn Baas', size: 9 },
            { x: 330, text: 'Owen Pritchard', size: 9 },
          ],
          [
            { x: 72, text: 'Rotterdam, 6 March 2026', size: 9 },
            { x: 330, text: 'Sheffield, 9 March 2026', size: 9 },
          ],
          30,
          [{ x: 280, text: 'Page 2 of 2', size: 8 }],
        ],
      ]),
    },
    {
      kind: 'receipt',
      layout: 'fuel station till roll',
      schema: {
        merchant: '',
        station_address: '',
        transaction_date: '',
        receipt_number: '',
        pump_number: '',
        fuel_grade: 'Type of fuel bought',
        litres: 'Volume of fuel dispensed',
        unit_price: 'Price per litre',
        total: '',
        vat_amount: '',
        loyalty_points: '',
      },
      expected: {
        merchant: 'Greyhound Fuels',
        station_address: 'Naas Road, Kill, Co. Kildare W91 X2P4',
        transaction_date: '2026-01-14',
        receipt_number: '0417-2-88213',
        pump_number: 7,
        fuel_grade: 'Diesel',
        litres: '48.62;L',
        unit_price: '1.689;EUR/L',
        total: '82.12',
        vat_amount: '15.36',
        loyalty_points: null,
      },
      pdf: sheets(
        [
          [
            [{ x: 60, text: 'GREYHOUND FUELS', font: 'F2', size: 11 }],
            ...till(
              [[52, 'Service Station Kill']],
              [[12, 'Naas Road, Kill,']],
              [[12, 'Co. Kildare W91 X2P4']],
              [[12, 'VAT No. IE 6388047V']],
              [[12, '--------------------------------------']],
              [
                [12, '2026-01-14'],
                [75, '18:42'],
                [120, 'Till 2'],
              ],
              [
                [12, 'Receipt'],
                [75, '0417-2-88213'],
              ],
              [[12, '--------------------------------------']],
              [
                [12, 'Pump 7'],
                [75, 'Diesel'],
              ],
              [
                [24, '48.62 L'],
                [80, 'x'],
                [92, '1.689 EUR/L'],
              ],
              [
                [12, 'DIESEL'],
                [170, '82.12'],
              ],
              [[12, '--------------------------------------']],
              [
                [12, 'TOTAL EUR'],
                [170, '82.12'],
              ],
              [
                [12, 'VISA CONTACTLESS'],
                [170, '82.12'],
              ],
              [[12, 'Card ************4417']],
              [[12, 'Auth 661204']],
              [[12, '--------------------------------------']],
              [
                [12, 'VAT 23%'],
                [75, 'Net 66.76'],
                [140, 'VAT 15.36'],
              ],
              [[12, '--------------------------------------']],
              [[12, 'Loyalty card not presented']],
              [[30, 'THANK YOU - DRIVE SAFELY']],
            ),
          ],
        ],
        [0, 0, 230, 792],
      ),
    },
    {
      kind: 'receipt',
      layout: 'water bill balance box',
      schema: {
        supplier: 'Company sending the bill',
        account_number: '',
        customer_name: '',
        supply_address: '',
        bill_date: '',
        previous_balance: '',
        amount_due: 'What the customer must pay now',
        payment_due_date: '',
        water_consumption: 'Water used in the period',
        late_payment_charge: '',
        meter_serial_number: '',
      },
      expected: {
        supplier: 'Tamar Vale Water',
        account_number: '40 1187 3305',
        customer_name: 'Mr Gareth Pengelly',
        supply_address: '7 Chapel Terrace, Calstock PL18 9QT',
        bill_date: '19 January 2026',
        previous_balance: '\u00a396.40',
        amount_due: '\u00a3139.58',
        payment_due_date: '9 February 2026',
        water_consumption: '18;m\u00b3',
        late_payment_charge: null,
        meter_serial_number: null,
      },
      pdf: sheets([
        [
          [
            { x: 72, text: 'Tamar Vale Water', font: 'F2', size: 16 },
            { x: 360, text: 'Your water and sewerage bill', font: 'F2', size: 11 },
          ],
          [{ x: 72, text: 'Freepost TVW, Plymouth PL1 0TV', size: 8 }],
          14,
          [
            { x: 72, text: 'Mr Gareth Pengelly' },
            { x: 360, text: 'Account number', size: 7 },
          ],
          [
            { x: 72, text: '7 Chapel Terrace' },
            { x: 360, text: '40 1187 3305' },
          ],
          [
            { x: 72, text: 'Calstock PL18 9QT' },
            { x: 360, text: 'Date of bill', size: 7 },
          ],
          [{ x: 360, text: '19 January 2026' }],
          16,
          {
            x0: 66,
            x1: 300,
            box: [
              [{ x: 72, text: 'Your balance', font: 'F2', size: 11 }],
              ...stacked('Previous balance', '\u00a396.40'),
              ...stacked('Payment received 2 January - thank you', '-\u00a360.00'),
              ...stacked('Balance brought forward', '\u00a336.40'),
              ...stacked('Charges this bill', '\u00a3103.18'),
              ...stacked('Amount due', '\u00a3139.58', 72, 'F2'),
            ],
          },
          ...para(
            'Please pay the amount due by 9 February 2026. Pay online at tamarvale.example/pay, by phone on',
            '0345 600 4411 or at any Post Office with the payment slip.',
          ),
          [{ x: 72, text: 'Your charges (supply address: 7 Chapel Terrace, Calstock PL18 9QT)', font: 'F2', size: 10 }],
          4,
          ...grid(
            [
              ['Charge', 'Details', 'Amount'],
              ['Water standing charge', '15 Oct 2025 to 14 Jan 2026', '\u00a312.60'],
              ['Water used', '18 m\u00b3 at \u00a32.1150', '\u00a338.07'],
              ['Sewerage standing charge', '15 Oct 2025 to 14 Jan 2026', '\u00a314.30'],
              ['Sewerage', '17.1 m\u00b3 (95 % returned) at \u00a32.2345', '\u00a338.21'],
              ['Total charges', '', '\u00a3103.18'],
            ],
            [72, 230, 450],
          ),
          8,
          [{ x: 72, text: 'Meter readings', font: 'F2', size: 10 }],
          4,
          ...grid(
            [
              ['Previous (14 Oct 2025)', 'Current (14 Jan 2026)', 'Water used'],
              ['0412', '0430', '18 m\u00b3'],
            ],
            [72, 230, 400],
          ),
        ],
      ]),
    },
    {
      kind: 'receipt',
      layout: 'freelancer invoice ruled table and totals box',
      schema: {
        freelancer: 'Who issued the invoice',
        client: '',
        invoice_number: '',
        invoice_date: '',
        net_total: 'Amount before VAT',
        vat: '',
        total_due: '',
        due_date: '',
        iban: '',
        purchase_order: '',
        vat_number: "Supplier's VAT registration number",
      },
      expected: {
        freelancer: 'Ines Carvalho Design',
        client: 'Northfold Press Ltd',
        invoice_number: 'IC-2026-007',
        invoice_date: '27 January 2026',
        net_total: '\u00a32,400.00',
        vat: '\u00a3480.00',
        total_due: '\u00a32,880.00',
        due_date: '26 February 2026',
        iban: 'GB29 NWBK 6016 1331 9268 19',
        purchase_order: null,
        vat_number: 'GB 318 4471 02',
      },
      pdf: sheets([
        [
          [
            { x: 72, text: 'Ines Carvalho Design', font: 'F2', size: 14 },
            { x: 420, text: 'INVOICE', font: 'F2', size: 18 },
          ],
          [{ x: 72, text: 'Studio 5, 29 Stokes Croft, Bristol BS1 3PY', size: 8 }],
          [{ x: 72, text: 'hello@inescarvalho.design  |  VAT reg. GB 318 4471 02', size: 8 }],
          16,
          [
            { x: 72, text: 'Bill to', size: 7 },
            { x: 360, text: 'Invoice', size: 7 },
            { x: 450, text: 'IC-2026-007' },
          ],
          [
            { x: 72, text: 'Northfold Press Ltd', font: 'F2' },
            { x: 360, text: 'Issued', size: 7 },
            { x: 450, text: '27 January 2026' },
          ],
          [
            { x: 72, text: 'Attn. Rosa Pemberton, Production' },
            { x: 360, text: 'Payment due', size: 7 },
            { x: 450, text: '26 February 2026' },
          ],
          [{ x: 72, text: '14 Wharf Street, Leeds LS2 7EQ' }],
          16,
          {
            x0: 66,
            x1: 546,
            rules: true,
            box: grid(
              [
                ['Description', 'Qty', 'Unit', 'Rate', 'Amount'],
                ['Book cover design, "The Salt Road"', '1', 'item', '\u00a31,200.00', '\u00a31,200.00'],
                ['Interior layout, 312 pages', '24', 'hours', '\u00a345.00', '\u00a31,080.00'],
                ['Proof corrections, two rounds', '3', 'hours', '\u00a340.00', '\u00a3120.00'],
              ],
              [72, 300, 340, 400, 480],
            ),
          },
          6,
          {
            x0: 340,
            x1: 546,
            rules: true,
            box: [
              [
                { x: 346, text: 'Net total', size: 9 },
                { x: 480, text: '\u00a32,400.00', size: 9 },
              ],
              [
                { x: 346, text: 'VAT @ 20%', size: 9 },
                { x: 480, text: '\u00a3480.00', size: 9 },
              ],
              [
                { x: 346, text: 'Total due', font: 'F2', size: 10 },
                { x: 480, text: '\u00a32,880.00', font: 'F2', size: 10 },
              ],
            ],
          },
          10,
          ...para(
            'Payment within 30 days by bank transfer, quoting the invoice number.',
            'Account name: Ines Carvalho   IBAN GB29 NWBK 6016 1331 9268 19   BIC NWBKGB2L',
          ),
        ],
      ]),
    },
    {
      kind: 'receipt',
      layout: 'ferry booking confirmation',
      schema: {
        operator: 'Ferry company',
        booking_reference: '',
        lead_passenger: '',
        outbound_date: 'Date of the outward sailing',
        outbound_departure_time: '',
        departure_port: 'Port the outward sailing leaves from',
        arrival_port: '',
        vehicle_registration: '',
        number_of_passengers: '',
        total_paid: '',
        seat_number: '',
        cabin_number: '',
      },
      expected: {
        operator: 'Albion Strait Ferries',
        booking_reference: 'QX7M2P',
        lead_passenger: 'Ms Clara Dunmore',
        outbound_date: '19 Mar 2026',
        outbound_departure_time: '14:35',
        departure_port: 'Dover',
        arrival_port: 'Calais',
        vehicle_registration: 'LK21 XHT',
        number_of_passengers: 3,
        total_paid: '\u00a3244.00',
        seat_number: null,
        cabin_number: null,
      },
      pdf: sheets([
        [
          [{ x: 72, text: 'Albion Strait Ferries', font: 'F2', size: 13 }],
          10,
          ...heading('Your booking is confirmed', 18),
          {
            x0: 66,
            x1: 260,
            box: [
              [{ x: 74, text: 'YOUR BOOKING REFERENCE', size: 7 }],
              // the code's cap height above its baseline
              12,
              [{ x: 74, text: 'QX7M2P', font: 'F2', size: 16 }],
            ],
          },
          ...para('Show this reference at check-in. Check-in closes 45 minutes before departure.'),
          ...pairs(
            [
              ['Lead passenger', 'Ms Clara Dunmore'],
              ['Travellers', '3 passengers (2 adults, 1 child aged 9)'],
              ['Vehicle', 'Car up to 1.85 m high and 5 m long, reg. LK21 XHT'],
            ],
            [72, 190],
          ),
          [{ x: 72, text: 'Outbound', font: 'F2', size: 11 }],
          [
            { x: 72, text: 'Thu 19 Mar 2026' },
            { x: 190, text: 'Dover 14:35 - Calais 17:05' },
            { x: 400, text: '(local times)', size: 8 },
          ],
          8,
          [{ x: 72, text: 'Return', font: 'F2', size: 11 }],
          [
            { x: 72, text: 'Sun 29 Mar 2026' },
            { x: 190, text: 'Calais 10:20 - Dover 10:50' },
            { x: 400, text: '(local times)', size: 8 },
          ],
          12,
          [{ x: 72, text: 'Payment', font: 'F2', size: 11 }],
          4,
          ...pairs(
            [
              ['Return fare, car and 3 passengers', '\u00a3214.00'],
              ['Flexi upgrade', '\u00a330.00'],
              ['Total paid (Mastercard ending 0931)', '\u00a3244.00'],
            ],
            [72, 400],
          ),
          ...para(
            'Seats are not allocated on this route. Lounge access and cabins can be added up to 24 hours',
            'before departure in Manage My Booking.',
          ),
        ],
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'power supply input and output tables',
      schema: {
        model: '',
        output_power: '',
        output_voltage: '',
        max_output_current: '',
        input_voltage_range: '',
        efficiency: 'Typical efficiency',
        max_input_current: '',
        ripple_noise: 'Maximum output ripple and noise',
        hold_up_time: '',
        operating_temperature: '',
        weight: '',
        mtbf: '',
        power_factor: '',
      },
      expected: {
        model: 'LPX-60-24',
        output_power: '60;W',
        output_voltage: '24;V',
        max_output_current: '2.5;A',
        input_voltage_range: '85\u2013264 VAC',
        efficiency: '89;%',
        max_input_current: '1.6;A',
        ripple_noise: '120;mVp-p',
        hold_up_time: '20;ms',
        operating_temperature: '-25 to +70 \u00b0C',
        weight: '0.24;kg',
        mtbf: null,
        power_factor: null,
      },
      pdf: sheets([
        [
          ...heading('LPX-60-24 DIN rail power supply'),
          ...para(
            '60 W single output, 24 V DC. Universal input 85\u2013264 VAC, class II, for control cabinets and',
            'automation equipment. Screw terminals, DIN rail TS35 mounting.',
          ),
          [{ x: 72, text: 'Input', font: 'F2', size: 11 }],
          4,
          ...grid(
            [
              ['Parameter', 'Conditions', 'Min.', 'Typ.', 'Max.', 'Unit'],
              ['Input voltage', 'AC', '85', '', '264', 'VAC'],
              ['Input frequency', '', '47', '', '63', 'Hz'],
              ['Input current', '115 VAC, full load', '', '1.2', '1.6', 'A'],
              ['Inrush current', '230 VAC, cold start', '', '', '40', 'A'],
              ['Efficiency', '230 VAC, full load', '', '89', '', '%'],
            ],
            [72, 190, 330, 380, 430, 480],
          ),
          10,
          [{ x: 72, text: 'Output', font: 'F2', size: 11 }],
          4,
          ...grid(
            [
              ['Parameter', 'Conditions', 'Min.', 'Typ.', 'Max.', 'Unit'],
              ['Output voltage', 'factory setting', '', '24', '', 'V'],
              ['Adjustment range', 'front potentiometer', '21.6', '', '26.4', 'V'],
              ['Output current', '', '0', '', '2.5', 'A'],
              ['Ripple and noise', '20 MHz bandwidth', '', '80', '120', 'mVp-p'],
              ['Hold-up time', '230 VAC, full load', '20', '', '', 'ms'],
            ],
            [72, 190, 330, 380, 430, 480],
          ),
          10,
          [{ x: 72, text: 'General', font: 'F2', size: 11 }],
          4,
          ...pairs(
            [
              ['Operating temperature', '-25 to +70 \u00b0C (derate 2.5 %/K above 55 \u00b0C)'],
              ['Dimensions (W x H x D)', '32 x 90 x 91 mm'],
              ['Weight', 'approx. 0.24 kg'],
              ['Safety', 'IEC 62368-1, EN 61558-2-16'],
            ],
            [72, 210],
          ),
        ],
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'relay coil data per nominal voltage wrapped header',
      schema: {
        coil_resistance_per_model: {},
        nominal_current_per_model: {},
        must_operate_voltage_per_model: {},
        coil_power: 'Nominal coil power consumption',
        contact_rating: '',
        max_switching_voltage: '',
        contact_material: '',
        operate_time: '',
        release_time: '',
        ambient_temperature: '',
        insulation_resistance: '',
        ul_file_number: '',
      },
      expected: {
        coil_resistance_per_model: {
          'KRT-1A-05': '69;Ohm',
          'KRT-1A-12': '400;Ohm',
          'KRT-1A-24': '1600;Ohm',
          'KRT-1A-48': '6400;Ohm',
        },
        nominal_current_per_model: {
          'KRT-1A-05': '72.5;mA',
          'KRT-1A-12': '30.0;mA',
          'KRT-1A-24': '15.0;mA',
          'KRT-1A-48': '7.5;mA',
        },
        must_operate_voltage_per_model: {
          'KRT-1A-05': '3.75;VDC',
          'KRT-1A-12': '9.00;VDC',
          'KRT-1A-24': '18.00;VDC',
          'KRT-1A-48': '36.00;VDC',
        },
        coil_power: '0.36;W',
        contact_rating: '16 A at 250 VAC',
        max_switching_voltage: '440;VAC',
        contact_material: 'AgSnO2',
        operate_time: '10;ms',
        release_time: '5;ms',
        ambient_temperature: '-40 to +85 \u00b0C',
        insulation_resistance: null,
        ul_file_number: null,
      },
      pdf: sheets([
        [
          ...heading('KRT-1A power relay, 1 form A, 16 A'),
          ...para('Sensitive DC coil, approx. 0.36 W nominal power. PCB mounting, flux tight, 5 mm contact pitch.'),
          [{ x: 72, text: 'Contact data', font: 'F2', size: 11 }],
          4,
          ...pairs(
            [
              ['Arrangement', '1 form A (SPST-NO)'],
              ['Rated load', '16 A at 250 VAC, resistive'],
              ['Max. switching voltage', '440 VAC'],
              ['Contact material', 'AgSnO2'],
              ['Operate time', 'max. 10 ms'],
              ['Release time', 'max. 5 ms'],
            ],
            [72, 220],
          ),
          [{ x: 72, text: 'Coil data at 20 \u00b0C', font: 'F2', size: 11 }],
          4,
          ...grid(
            [
              ['Model', 'Nominal', 'Coil', 'Rated', 'Must operate', 'Must release'],
              ['', 'voltage (VDC)', 'resistance (Ohm)', 'current (mA)', 'voltage (VDC) max.', 'voltage (VDC) min.'],
              ['KRT-1A-05', '5', '69', '72.5', '3.75', '0.50'],
              ['KRT-1A-12', '12', '400', '30.0', '9.00', '1.20'],
              ['KRT-1A-24', '24', '1600', '15.0', '18.00', '2.40'],
              ['KRT-1A-48', '48', '6400', '7.5', '36.00', '4.80'],
            ],
            [72, 150, 230, 320, 395, 480],
            2,
          ),
          ...para('Coil resistance tolerance \u00b110 %. Maximum continuous coil voltage 110 % of nominal.'),
          [{ x: 72, text: 'General', font: 'F2', size: 11 }],
          4,
          ...pairs(
            [
              ['Ambient temperature', '-40 to +85 \u00b0C'],
              ['Dielectric strength coil-contact', '5000 Vrms'],
              ['Mechanical endurance', '20 million operations'],
              ['Dimensions', '29 x 12.7 x 15.7 mm'],
            ],
            [72, 250],
          ),
        ],
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'stepper motor two-column spec list',
      schema: {
        frame_size: '',
        step_angle: '',
        holding_torque: '',
        detent_torque: '',
        current_per_phase: 'Rated current per phase',
        phase_resistance: '',
        phase_inductance: '',
        rotor_inertia: '',
        number_of_leads: '',
        shaft_diameter: '',
        insulation_class: '',
        weight: '',
        max_speed: '',
        encoder_resolution: '',
      },
      expected: {
        frame_size: 'NEMA 17',
        step_angle: '1.8\u00b0',
        holding_torque: '0.55;N\u00b7m',
        detent_torque: '0.022;N\u00b7m',
        current_per_phase: '2.0;A',
        phase_resistance: '1.4;Ohm',
        phase_inductance: '3.0;mH',
        rotor_inertia: '82;g\u00b7cm\u00b2',
        number_of_leads: 4,
        shaft_diameter: '5;mm',
        insulation_class: 'B',
        weight: '0.36;kg',
        max_speed: null,
        encoder_resolution: null,
      },
      pdf: sheets([
        [
          ...heading('ST42-55 hybrid stepper motor'),
          ...para(
            'Two-phase hybrid stepper in a NEMA 17 (42 mm) frame, for 3D printers, pick-and-place axes and',
            'camera sliders. Body length 48 mm.',
          ),
          [{ x: 72, text: 'Specifications', font: 'F2', size: 12 }],
          6,
          ...[
            ['Step angle', '1.8\u00b0 \u00b15 %', 'Inductance', '3.0 mH \u00b120 %'],
            ['Phases', '2', 'Rotor inertia', '82 g\u00b7cm\u00b2'],
            ['Holding torque', 'min. 0.55 N\u00b7m', 'Leads', '4 (bipolar)'],
            ['Detent torque', '0.022 N\u00b7m', 'Shaft diameter', '5 mm (D-cut)'],
            ['Rated current', '2.0 A per phase', 'Insulation class', 'B'],
            ['Phase resistance', '1.4 Ohm \u00b110 %', 'Mass', 'approx. 0.36 kg'],
          ].map(
            ([a, b, c, d]): Line => [
              { x: 72, text: a!, font: 'F2', size: 9 },
              { x: 170, text: b!, size: 9 },
              { x: 320, text: c!, font: 'F2', size: 9 },
              { x: 420, text: d!, size: 9 },
            ],
          ),
          10,
          [{ x: 72, text: 'Wiring', font: 'F2', size: 12 }],
          4,
          ...grid(
            [
              ['Lead colour', 'Black', 'Green', 'Red', 'Blue'],
              ['Phase', 'A+', 'A-', 'B+', 'B-'],
            ],
            [72, 170, 230, 290, 350],
          ),
          10,
          ...para(
            'Ambient temperature -20 to +50 \u00b0C. Temperature rise max. 80 K at rated current, two phases on.',
            'Radial play max. 0.02 mm at 450 g load.',
          ),
        ],
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'temperature sensor key specifications box and sectioned table',
      schema: {
        accuracy: 'Accuracy between -10 \u00b0C and +85 \u00b0C',
        temperature_range: 'Measurement range',
        supply_voltage_range: '',
        quiescent_current: 'Typical supply current',
        max_shutdown_current: '',
        resolution: '',
        conversion_time: 'Typical conversion time',
        interface: '',
        package: '',
        max_i2c_clock: '',
        i2c_address: '',
        response_time: '',
      },
      expected: {
        accuracy: '\u00b10.5 \u00b0C',
        temperature_range: '-40 \u00b0C to +125 \u00b0C',
        supply_voltage_range: '1.4 V to 3.6 V',
        quiescent_current: '6;\u00b5A',
        max_shutdown_current: '0.5;\u00b5A',
        resolution: '0.0625;\u00b0C',
        conversion_time: '26;ms',
        interface: 'I2C',
        package: 'SOT-563',
        max_i2c_clock: '400;kHz',
        i2c_address: null,
        response_time: null,
      },
      pdf: sheets([
        [
          ...heading('TSX112 digital temperature sensor'),
          ...para(
            'Measures -40 \u00b0C to +125 \u00b0C with a 12-bit result over an I2C interface; alert output for',
            'thermostat use. For wearables, battery packs and PCB hot spots.',
          ),
          {
            x0: 66,
            x1: 546,
            box: [
              [{ x: 72, text: 'Key specifications', font: 'F2', size: 11 }],
              [
                { x: 80, text: '\u2022' },
                { x: 92, text: 'Accuracy: \u00b10.5 \u00b0C (max.) from -10 \u00b0C to +85 \u00b0C' },
              ],
              [{ x: 92, text: '\u00b11.0 \u00b0C (max.) from -40 \u00b0C to +125 \u00b0C' }],
              [
                { x: 80, text: '\u2022' },
                { x: 92, text: 'Resolution: 0.0625 \u00b0C (12 bit)' },
              ],
              [
                { x: 80, text: '\u2022' },
                { x: 92, text: 'Supply: 1.4 V to 3.6 V, 6 \u00b5A typ. at 1 conversion per second' },
              ],
              [
                { x: 80, text: '\u2022' },
                { x: 92, text: 'Package: SOT-563, 1.6 x 1.6 mm' },
              ],
            ],
          },
          12,
          [
            {
              x: 72,
              text: 'Electrical characteristics (VDD = 3.3 V, TA = 25 \u00b0C unless noted)',
              font: 'F2',
              size: 10,
            },
          ],
          4,
          ...grid(
            [
              ['Parameter', 'Conditions', 'Min.', 'Typ.', 'Max.', 'Unit'],
              ['TEMPERATURE SENSOR'],
              ['Accuracy', '-10 \u00b0C to +85 \u00b0C', '-0.5', '\u00b10.1', '0.5', '\u00b0C'],
              ['Accuracy', '-40 \u00b0C to +125 \u00b0C', '-1.0', '\u00b10.25', '1.0', '\u00b0C'],
              ['Resolution', '', '', '0.0625', '', '\u00b0C'],
              ['Conversion time', 'one shot', '', '26', '35', 'ms'],
              ['POWER SUPPLY'],
              ['Supply voltage', '', '1.4', '3.3', '3.6', 'V'],
              ['Supply current', '1 conversion/s', '', '6', '10', '\u00b5A'],
              ['Shutdown current', '', '', '0.1', '0.5', '\u00b5A'],
              ['DIGITAL INTERFACE'],
              ['Interface', '', 'I2C / SMBus', '', '', ''],
              ['Clock frequency', 'I2C fast mode', '0.001', '', '400', 'kHz'],
              ['Low-level input', '', '', '', '0.3 x VDD', 'V'],
            ],
            [72, 190, 320, 370, 420, 480],
          ),
        ],
      ]),
    },
  ];
  return docs.map((doc) => ({ ...doc, name: `fresh-11-${doc.kind}-${doc.layout.replace(/\s+/g, '-')}.pdf` }));
};
