// SPDX-License-Identifier: AGPL-3.0-or-later
/*
 * Fresh variant 21's Word documents, built with the `docx` package (fresh-docs-21.generate.ts writes them under
 * libs/testing/fixtures/fresh-21; fresh-docs-21.spec.ts builds them again and compares their XML parts with the
 * committed files'). Real Word structure: tables with header rows and merged cells (column and row spans),
 * tab-stop aligned label/value lines with bold labels, headings, a bulleted list, a two-column section, text in the
 * page header and footer.
 */
import {
  AlignmentType,
  BorderStyle,
  Document,
  Footer,
  Header,
  HeadingLevel,
  Packer,
  Paragraph,
  SectionType,
  Tab,
  Table,
  TableCell,
  TableRow,
  TabStopType,
  TextRun,
  WidthType,
} from 'docx';

/** A bold label, a tab, the value (a tab stop at 2.2 inches: the values line up in a column). */
const tabLine = (label: string, value: string, at = 3200): Paragraph =>
  new Paragraph({
    tabStops: [{ type: TabStopType.LEFT, position: at }],
    children: [new TextRun({ text: label, bold: true }), new TextRun({ children: [new Tab(), value] })],
  });

const para = (text: string, opts: { bold?: boolean; align?: 'right' | 'center' } = {}): Paragraph =>
  new Paragraph({
    alignment:
      opts.align === 'right' ? AlignmentType.RIGHT : opts.align === 'center' ? AlignmentType.CENTER : undefined,
    children: [new TextRun({ text, bold: opts.bold })],
  });

const h1 = (text: string): Paragraph => new Paragraph({ heading: HeadingLevel.HEADING_1, text });
const h2 = (text: string): Paragraph => new Paragraph({ heading: HeadingLevel.HEADING_2, text });
const bullet = (text: string): Paragraph => new Paragraph({ bullet: { level: 0 }, text });

interface CellSpec {
  text: string;
  bold?: boolean;
  span?: number;
  rows?: number;
  right?: boolean;
}
type C = string | CellSpec;

const cell = (c: C): TableCell => {
  const s: CellSpec = typeof c === 'string' ? { text: c } : c;
  return new TableCell({
    columnSpan: s.span,
    rowSpan: s.rows,
    children: [
      new Paragraph({
        alignment: s.right ? AlignmentType.RIGHT : undefined,
        children: [new TextRun({ text: s.text, bold: s.bold })],
      }),
    ],
  });
};

/** A table: the first `headerRows` rows repeat as the header and are bold. */
const table = (rows: C[][], headerRows = 1): Table =>
  new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: rows.map(
      (r, i) =>
        new TableRow({
          tableHeader: i < headerRows,
          children: r.map((c) =>
            cell(i < headerRows ? { ...(typeof c === 'string' ? { text: c } : c), bold: true } : c),
          ),
        }),
    ),
  });

/** A table without borders (a signature block laid out in two columns). */
const plainTable = (rows: string[][]): Table => {
  const none = { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' };
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    borders: { top: none, bottom: none, left: none, right: none, insideHorizontal: none, insideVertical: none },
    rows: rows.map((r) => new TableRow({ children: r.map((t) => cell(t)) })),
  });
};

const band = (text: string): Paragraph =>
  new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun({ text, size: 14, color: '555555' })] });

type Child = Paragraph | Table;
interface Section {
  children: Child[];
  columns?: number;
}

/** A Word document: sections in order (the later ones continuous), one header and footer line for all. */
const word = (title: string, sections: Section[], header?: string, footer?: string): Document =>
  new Document({
    creator: 'fresh-21',
    title,
    styles: { default: { document: { run: { font: 'Calibri', size: 21 } } } },
    sections: sections.map((s, i) => ({
      properties: {
        ...(i > 0 ? { type: SectionType.CONTINUOUS } : {}),
        ...(s.columns ? { column: { count: s.columns, space: 567 } } : {}),
      },
      ...(header ? { headers: { default: new Header({ children: [band(header)] }) } } : {}),
      ...(footer ? { footers: { default: new Footer({ children: [band(footer)] }) } } : {}),
      children: s.children,
    })),
  });

/** The five Word documents, by fixture name (without the directory). */
export const FRESH_21_WORD: Record<string, () => Document> = {
  'fresh-21-contract-mutual-nda-word-tab-stop-parties-numbered-clauses.docx': () =>
    word(
      'Mutual Non-Disclosure Agreement',
      [
        {
          children: [
            h1('MUTUAL NON-DISCLOSURE AGREEMENT'),
            tabLine('Agreement date:', '22 February 2027'),
            tabLine('Effective from:', '1 March 2027'),
            tabLine('First Party:', 'Harrowgate Biotech Ltd, 9 Quarry Lane, Leeds LS6 2DX'),
            tabLine('Second Party:', 'Quenby Instruments GmbH, Hafenstrasse 12, 28217 Bremen'),
            h2('1. Purpose'),
            para(
              'The parties wish to evaluate a joint development of a benchtop assay reader (the Purpose) and will ' +
                'exchange information for that Purpose only.',
            ),
            h2('2. Obligations of the recipient'),
            para('Each party receiving Confidential Information shall:'),
            bullet('keep it secret using no less than reasonable care;'),
            bullet('use it only for the Purpose and copy it only as the Purpose needs;'),
            bullet('return or destroy it within 30 days of a written request from the other party.'),
            h2('3. Duration'),
            para(
              'This Agreement runs for 2 years from the date it takes effect. Either party may end it earlier on ' +
                'not less than 60 days written notice. The duty of confidence survives for 5 years after this ' +
                'Agreement ends.',
            ),
            h2('4. Non-solicitation'),
            para('Nothing in this Agreement restricts either party from hiring staff of the other party.'),
            h2('5. Law'),
            para(
              'This Agreement is governed by the laws of Scotland and the parties submit to the exclusive ' +
                'jurisdiction of the Scottish courts.',
            ),
            plainTable([
              ['For Harrowgate Biotech Ltd', 'For Quenby Instruments GmbH'],
              ['Name: Imogen Strachan', 'Name: Lukas Brenner'],
              ['Title: Chief Operating Officer', 'Title: Managing Director'],
            ]),
          ],
        },
      ],
      'Harrowgate Biotech Ltd - Mutual Non-Disclosure Agreement - Ref. HB-NDA-0419',
      'Confidential - 2 pages maximum - Version 3',
    ),

  'fresh-21-contract-employment-offer-letter-word-terms-table-merged-notice-rows.docx': () =>
    word('Offer of employment', [
      {
        children: [
          para('Calderbrook Engineering Ltd', { bold: true, align: 'right' }),
          para('Unit 5, Riverside Park, Stockport SK4 2JP', { align: 'right' }),
          para('11 January 2027', { align: 'right' }),
          para('Ms Adaeze Okonkwo-Hart'),
          para('18 Elm Grove, Didsbury, Manchester M20 6RT'),
          h2('Offer of employment'),
          para('Dear Ms Okonkwo-Hart,'),
          para(
            'Following your interview on 6 January we are pleased to offer you employment on the terms below. ' +
              'Your contract of employment will follow within 2 weeks of your acceptance.',
          ),
          table(
            [
              [{ text: 'Summary of terms', span: 3 }],
              [{ text: 'Job title', span: 2 }, 'Senior Controls Engineer'],
              [{ text: 'First day of employment', span: 2 }, '3 May 2027'],
              [{ text: 'Reporting to', span: 2 }, 'Head of Automation'],
              [{ text: 'Base pay', span: 2 }, '\u00a358,500 per annum, paid monthly in arrears'],
              [{ text: 'Place of work', span: 2 }, 'Stockport (hybrid, 3 days on site each week)'],
              [{ text: 'Trial period', span: 2 }, '6 months'],
              [{ text: 'Annual leave', span: 2 }, '25 days plus bank holidays'],
              [{ text: 'Notice', rows: 2 }, 'During trial period', '1 week'],
              ['After trial period', '3 months'],
              [{ text: 'Bonus', span: 2 }, 'Discretionary annual bonus under the company scheme'],
              [{ text: 'Relocation', span: 2 }, 'Not applicable'],
            ],
            1,
          ),
          para('Pension: the company matches your contributions up to 5% of base pay in the group personal pension.'),
          para(
            'This offer is subject to two satisfactory references and the right to work in the UK. It is governed ' +
              'by the law of England and Wales.',
          ),
          para('Yours sincerely,'),
          para('Fiona MacLeod, HR Business Partner'),
        ],
      },
    ]),

  'fresh-21-receipt-dentist-invoice-word-treatment-table-merged-total-rows.docx': () =>
    word(
      'Invoice',
      [
        {
          children: [
            h1('INVOICE'),
            tabLine('Invoice No.', 'LDP-27-03318'),
            tabLine('Date of issue', '17/03/2027'),
            tabLine('Patient', 'Mr Tomasz Wierzbicki'),
            tabLine('Treating dentist', 'Dr Helen Achebe'),
            tabLine('NHS / private', 'Private'),
            table([
              ['Date', 'Code', 'Treatment', { text: 'Fee', right: true }],
              ['02/03/2027', 'E1', 'Examination and bitewing x-rays', { text: '\u00a365.00', right: true }],
              ['02/03/2027', 'S2', 'Scale and polish', { text: '\u00a358.00', right: true }],
              ['09/03/2027', 'R4', 'Composite filling, lower left 6', { text: '\u00a3145.00', right: true }],
              [
                { text: 'Total treatment', span: 3, bold: true },
                { text: '\u00a3268.00', right: true },
              ],
              [
                { text: 'Less: paid on account 02/03/2027', span: 3 },
                { text: '(\u00a350.00)', right: true },
              ],
              [
                { text: 'Balance to pay', span: 3, bold: true },
                { text: '\u00a3218.00', right: true },
              ],
            ]),
            para('Please pay within 14 days of the date of issue by bank transfer or card at reception.'),
            para('Linden Dental Practice, sort code 20-45-77, account 60311942, reference LDP-27-03318.'),
            para('Dental treatment is exempt from VAT. Insurance claim forms are available on request.'),
          ],
        },
      ],
      'Linden Dental Practice - 41 Kingsway, Hove BN3 4FA - 01273 555 018',
      'Registered with the Care Quality Commission - Practice No. 1-4410297',
    ),

  'fresh-21-datasheet-led-driver-word-product-specification-two-model-table-two-column-features.docx': () =>
    word(
      'Product Specification LDX-40',
      [
        {
          children: [
            h1('Product Specification: LDX-40 Series Constant-Current LED Driver'),
            tabLine('Document', 'PS-LDX40 rev. B'),
            tabLine('Issued by', 'Velmora Lighting Components'),
            tabLine('Date', '08/02/2027'),
            h2('Features'),
          ],
        },
        {
          columns: 2,
          children: [
            bullet('Constant-current output'),
            bullet('Dimming: 0-10 V and PWM'),
            bullet('Class II, IP67 potted enclosure'),
            bullet('Short-circuit and open-load protection'),
            bullet('Surge immunity 4 kV line to line'),
            bullet('Power factor above 0.95 at full load'),
          ],
        },
        {
          children: [
            h2('Electrical and mechanical data'),
            table(
              [
                [
                  { text: 'Parameter', rows: 2 },
                  { text: 'Model', span: 2 },
                ],
                ['LDX-40-700', 'LDX-40-1050'],
                ['Output current', '700 mA', '1050 mA'],
                ['Output voltage range', '28-57 V', '19-38 V'],
                ['Rated power', { text: '40 W', span: 2 }],
                ['Efficiency (typ.)', '90 %', '89 %'],
                ['Input voltage', { text: '100-277 VAC', span: 2 }],
                ['Operating case temperature', { text: '-30 to +70 \u00b0C', span: 2 }],
                ['Dimensions', { text: '150 x 42 x 32 mm', span: 2 }],
                ['Weight', { text: '260 g', span: 2 }],
              ],
              2,
            ),
            para('Warranty: 5 years when operated within the rated case temperature.'),
            para('Lifetime figures are available from Velmora on request.'),
          ],
        },
      ],
      'Velmora Lighting Components - LDX-40 product specification',
      'Specifications subject to change without notice - PS-LDX40 rev. B',
    ),

  'fresh-21-datasheet-ups-specification-word-sectioned-table-merged-section-rows.docx': () =>
    word(
      'PowerLine 3000 specification',
      [
        {
          children: [
            h1('PowerLine 3000 Online UPS'),
            para('Technical data sheet TDS-PL3000, edition 2027-01', { bold: true }),
            para(
              'Double-conversion online UPS for servers and network cabinets, 2U rack or tower, with hot-swappable ' +
                'batteries.',
            ),
            table([
              ['Characteristic', 'Value'],
              [{ text: 'INPUT', span: 2, bold: true }],
              ['Nominal voltage', '230 VAC'],
              ['Voltage window', '160-280 VAC'],
              ['Frequency', '50/60 Hz'],
              [{ text: 'OUTPUT', span: 2, bold: true }],
              ['Capacity', '3000 VA / 2700 W'],
              ['Output voltage', '230 VAC \u00b11%'],
              ['Transfer time', '0 ms'],
              [{ text: 'BATTERY', span: 2, bold: true }],
              ['Battery', '6 x 12 V 9 Ah'],
              ['Runtime at half load', '14 min'],
              ['Runtime at full load', '5 min'],
              ['Recharge time', '4 h to 90 %'],
              [{ text: 'PHYSICAL', span: 2, bold: true }],
              ['Dimensions (H x W x D)', '88 x 438 x 630 mm'],
              ['Weight', '29.5 kg'],
              ['Audible noise', '< 50 dBA at 1 m'],
              ['ECO mode', 'Selectable'],
            ]),
          ],
        },
      ],
      'Ostrava Power Systems s.r.o. - Technical data sheet',
      'TDS-PL3000 - Data are typical values at 25 \u00b0C',
    ),
};

/** A Word document's bytes (`docx`'s packer). */
export const wordBytes = async (name: string): Promise<Buffer> =>
  Buffer.from(await Packer.toBuffer(FRESH_21_WORD[name]!()));
