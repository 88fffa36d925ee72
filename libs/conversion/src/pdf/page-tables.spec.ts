// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePdf, pdfTextAt } from '@lectern/testing';
import { createConversionEngine } from '../index.js';
import { detectTables } from './page-tables.js';
import type { RawLine } from './pdf-page.protocol.js';
import { line, stack } from './page-fixtures.testkit.js';
import { tableToMarkdown } from './tables.js';

/** One table row: a fragment per cell at the columns' x positions (mupdf splits a text line at wide gaps). */
const row = (cells: string[], xs: number[], y: number): RawLine[] =>
  cells.flatMap((text, k) => (text ? [line(text, xs[k] as number, y)] : []));

const COLS = [72, 220, 320];

describe('detectTables (page-tables.ts)', () => {
  it('finds an aligned three-column table with its rows and cells, header first', () => {
    const lines = [
      ...row(['Part', 'Quantity', 'Price'], COLS, 100),
      ...row(['Bolt', '10', '0.50'], COLS, 114),
      ...row(['Nut', '200', '0.10'], COLS, 128),
      ...row(['Washer', '5', '0.05'], COLS, 142),
    ];
    const { tables, used } = detectTables(lines);
    expect(tables).toHaveLength(1);
    expect(tables[0]?.rows).toEqual([
      ['Part', 'Quantity', 'Price'],
      ['Bolt', '10', '0.50'],
      ['Nut', '200', '0.10'],
      ['Washer', '5', '0.05'],
    ]);
    expect(tables[0]).toMatchObject({ kind: 'table', x0: 72, y0: 100 });
    expect(used.size).toBe(lines.length);
  });

  it('keeps an empty cell in its column and a wrapped cell in its row', () => {
    const lines = [
      ...row(['Part', 'Description', 'Price'], COLS, 100),
      ...row(['Bolt', 'Steel hex bolt,', '0.50'], COLS, 114),
      line('zinc plated', COLS[1] as number, 128), // the description wraps under its own column
      ...row(['Nut', '', '0.10'], COLS, 142),
      ...row(['Washer', 'Flat', '0.05'], COLS, 156),
    ];
    const { tables } = detectTables(lines);
    expect(tables.map((t) => t.rows)).toEqual([
      [
        ['Part', 'Description', 'Price'],
        ['Bolt', 'Steel hex bolt, zinc plated', '0.50'],
        ['Nut', '', '0.10'],
        ['Washer', 'Flat', '0.05'],
      ],
    ]);
  });

  it('splits tables at a wide vertical gap and leaves a following paragraph alone', () => {
    const after = stack(['The prices above exclude delivery and are valid until the end of the year.'], 72, 260);
    const lines = [
      ...row(['Part', 'Quantity', 'Price'], COLS, 100),
      ...row(['Bolt', '10', '0.50'], COLS, 114),
      ...row(['Nut', '200', '0.10'], COLS, 128),
      // four lines' height further down: another table
      ...row(['Service', 'Hours', 'Rate'], COLS, 184),
      ...row(['Fitting', '2', '40'], COLS, 198),
      ...row(['Survey', '1', '60'], COLS, 212),
      ...after,
    ];
    const { tables, used } = detectTables(lines);
    expect(tables.map((t) => t.rows.map((r) => r[0]))).toEqual([
      ['Part', 'Bolt', 'Nut'],
      ['Service', 'Fitting', 'Survey'],
    ]);
    expect(used.has(after[0] as RawLine)).toBe(false);
  });

  it('does not take prose for a table', () => {
    const prose = stack(
      [
        'Planning decisions should take account of the character of the area',
        'and of the need to provide housing, employment and community',
        'facilities, while protecting the natural and historic environment.',
      ],
      72,
      100,
    );
    expect(detectTables(prose)).toEqual({ tables: [], used: new Set(), forms: [] });
  });

  it('does not take a code listing for a table', () => {
    const listing = [
      line('function total(items) {', 72, 100),
      line('let sum = 0;', 92, 112),
      line('for (const item of items) {', 92, 124),
      line('sum += item.price * item.quantity;', 112, 136),
      line('}', 92, 148),
      line('return sum;', 92, 160),
      line('}', 72, 172),
    ];
    expect(detectTables(listing).tables).toEqual([]);
  });

  it('does not take a numbered list (markers apart from their text) for a table', () => {
    const list = [
      ...row(['1.', 'Sites allocated for housing'], [72, 90], 100),
      ...row(['2.', 'Employment land and retail'], [72, 90], 114),
      ...row(['3.', 'Green belt boundaries'], [72, 90], 128),
    ];
    expect(detectTables(list).tables).toEqual([]);
  });

  it('does not take a list with Symbol-font bullets (private-use U+F0B7, apart from their text) for a table', () => {
    const list = [
      ...row(['\uF0B7', 'Hi-Tech industry use'], [72, 90], 100),
      ...row(['\uF0B7', 'Research and Development activity'], [72, 90], 114),
      ...row(['\uF0B7', 'Residential provisions'], [72, 90], 128),
    ];
    expect(detectTables(list).tables).toEqual([]);
  });

  it('does not take two columns of hyphenated prose for a table', () => {
    const left = ['Programming lan-', 'guages differ in', 'how their mod-', 'ules are named'];
    const right = ['while the run-', 'time decides the', 'order of evalu-', 'ation at startup'];
    const lines = left.flatMap((t, k) => [line(t, 72, 100 + 14 * k), line(right[k] as string, 320, 100 + 14 * k)]);
    expect(detectTables(lines).tables).toEqual([]);
  });
});

describe("detectTables: a form's side-by-side blocks (issue 26)", () => {
  /** Two left-aligned blocks of lines side by side, 15 pt apart, from y. */
  const blocks = (left: string[], right: string[], y: number): RawLine[] =>
    left.flatMap((t, k) => [
      ...(t ? [line(t, 72, y + 15 * k)] : []),
      ...(right[k] ? [line(right[k] as string, 330, y + 15 * k)] : []),
    ]);
  const ITEMS = [
    ['Qty', 'Description', 'Unit price', 'Line total'],
    ['1', 'Jarrah bench top', '1,100.00', '1,100.00'],
    ['4', 'Floating shelf', '100.00', '400.00'],
  ];
  const ITEM_XS = [72, 189, 306, 423];
  const texts = (forms: RawLine[][][]) => forms.map((col) => col.map((cell) => cell.map((l) => l.text).join(' ')));

  it('an address block beside a block of numbers, right above the item table, is two blocks of text and the table', () => {
    const lines = [
      ...blocks(
        ['Invoice to', 'Coastal Living Interiors', '3/88 Marine Parade'],
        ['Invoice No. INV-20417', 'Issue date 05 Jan 2026', 'Payment terms 14 days'],
        100,
      ),
      ...ITEMS.flatMap((cells, k) => row(cells, ITEM_XS, 153 + 16 * k)),
    ];
    const { tables, forms, used } = detectTables(lines);
    expect(texts(forms)).toEqual([
      ['Invoice to', 'Coastal Living Interiors', '3/88 Marine Parade'],
      ['Invoice No. INV-20417', 'Issue date 05 Jan 2026', 'Payment terms 14 days'],
    ]);
    // the item table alone: no row of it holds a line of the blocks above
    expect(tables.map((t) => t.rows)).toEqual([ITEMS]);
    expect(used.size).toBe(lines.length);
  });

  it('two blocks of `label  value` lines right under the item table are not rows of it', () => {
    const right = ['Carrier  Nordfracht', 'Incoterms  DAP', 'Weight  120 kg'];
    const lines = [
      ...ITEMS.flatMap((cells, k) => row(cells, ITEM_XS, 100 + 16 * k)),
      ...blocks(['Ship to  Werft Ostsee GmbH', 'Kai 12, 24149 Kiel', 'Germany'], right, 156),
    ];
    const { tables, forms } = detectTables(lines);
    expect(tables.map((t) => t.rows)).toEqual([ITEMS]);
    expect(texts(forms)).toEqual([['Ship to  Werft Ostsee GmbH', 'Kai 12, 24149 Kiel', 'Germany'], right]);
  });

  it("a table's key-value rows under its wider rows stay in it (a datasheet's basic specifications)", () => {
    const lines = [
      ...ITEMS.flatMap((cells, k) => row(cells, ITEM_XS, 100 + 16 * k)),
      ...blocks(['Rating', 'Insulation grade', 'Mounting'], ['Continuous', 'Type B', 'Flange-mounted'], 148),
    ];
    const { tables, forms } = detectTables(lines);
    expect(forms).toEqual([]);
    expect(tables).toHaveLength(1);
    expect(tables[0]?.rows.map((r) => r.filter(Boolean))).toContainEqual(['Insulation grade', 'Type B']);
  });

  it('two blocks of `label  value` lines (a wide gap inside each line) are text, even with nothing below', () => {
    const left = ['Port size  G 1/2', 'Orifice  13 mm', 'Pressure range  0.5 - 16 bar'];
    const right = ['Coil voltage  24 V DC', 'Power consumption  8 W'];
    const { tables, forms } = detectTables(blocks(left, right, 100));
    expect(tables).toEqual([]);
    expect(texts(forms)).toEqual([left, right]);
  });

  it('two blocks of plain lines with nothing under them stay a two-column table (signatures, a key-value table)', () => {
    const lines = blocks(
      ['ALTAMIRA ROBOTICS, INC.', 'By: Laura Chen', 'Title: CEO'],
      ['KESTREL VISION AB', 'By: Erik Lund', 'Title: VD'],
      100,
    );
    const { tables, forms } = detectTables(lines);
    expect(forms).toEqual([]);
    expect(tables.map((t) => t.rows)).toEqual([
      [
        ['ALTAMIRA ROBOTICS, INC.', 'KESTREL VISION AB'],
        ['By: Laura Chen', 'By: Erik Lund'],
        ['Title: CEO', 'Title: VD'],
      ],
    ]);
  });

  it('a table whose first rows have two cells where its own columns start stays one table', () => {
    const lines = [
      ...row(['Model', 'Unit price'], [72, 306], 100),
      ...row(['Series', 'AUD'], [72, 306], 115),
      ...ITEMS.slice(1).flatMap((cells, k) => row(cells, ITEM_XS, 130 + 15 * k)),
    ];
    const { tables, forms } = detectTables(lines);
    expect(forms).toEqual([]);
    expect(tables).toHaveLength(1);
    expect(tables[0]?.rows[0]).toEqual(['Model', '', 'Unit price', '']);
  });
});

describe('detectTables: a long label over a mostly empty column (issue 26)', () => {
  it('a Min/Typ/Max/Unit table keeps its Min column when the labels overhang it', () => {
    const XS = [72, 166, 259, 353, 446];
    const rows = [
      ['Parameter', 'Min', 'Typ', 'Max', 'Unit'],
      ['Supply voltage', '2.4', '3.3', '5.5', 'V'],
      ['Supply current, measuring', '', '320', '450', 'uA'],
      ['Temperature accuracy', '', '±0.2', '', '°C'],
      ['Response time (tau 63%)', '', '8', '', 's'],
    ];
    // the labels run past the Min column's left edge (set wider than textWidth's estimate)
    const lines = rows.flatMap((cells, k) =>
      row(cells, XS, 100 + 16 * k).map((l) => (l.x0 === 72 && l.text.length > 20 ? { ...l, x1: 72 + 116 } : l)),
    );
    expect(lines.some((l) => l.x0 === 72 && l.x1 > 166)).toBe(true);
    const { tables } = detectTables(lines);
    expect(tables.map((t) => t.rows)).toEqual([rows]);
  });
});

describe('detectTables: no tables where there are none', () => {
  const PROSE = [
    'It is a story about the law and the culture it shapes, told through the people it touches.',
    'Every chapter follows one of them, from the inventors of the camera to the makers of films.',
    'Their work was built on the work of others, and the law once let it be so for a good reason.',
  ];

  it('a band of rules set in type over two columns, under a running header, makes no table', () => {
    const lines = [
      line('FREE CULTURE', 72, 30),
      line('12', 520, 30),
      // a band of rules over two columns, set in type (underscores, dashes, dots)
      ...row(['____________________________', '______________'], [72, 400], 50),
      ...row(['----------------------------', '--------------'], [72, 400], 58),
      ...row(['. . . . . . . . . . . . . . .', '. . . . . . .'], [72, 400], 66),
      ...stack(PROSE, 72, 80),
    ];
    const { tables, used } = detectTables(lines);
    expect(tables).toEqual([]);
    expect(used.size).toBe(0);
  });

  it('a running header and folio above the text make no table', () => {
    const lines = [line('INTRODUCTION', 72, 40), line('xiv', 500, 40), ...stack(PROSE, 72, 58)];
    expect(detectTables(lines).tables).toEqual([]);
  });
});

describe('detectTables: where a table ends (issue 26, generated PDFs)', () => {
  const engine = createConversionEngine({ pdfWorkers: 1 });
  afterAll(() => engine.close());
  const show = pdfTextAt;
  /** Rows of cells at `xs`, the first at `y`, `pitch` apart. */
  const grid = (rows: string[][], xs: number[], y: number, pitch: number, size = 10): string[] =>
    rows.flatMap((row, i) =>
      row.flatMap((cell, k) => (cell ? [show(xs[k] as number, y - i * pitch, cell, size)] : [])),
    );
  const convert = async (content: string[]): Promise<string> =>
    (
      await engine.convert(
        { bytes: makePdf([{ content: content.join('\n') }]), filename: 'page.pdf' },
        { enableOcr: false },
      )
    ).markdown;
  const tableLines = (markdown: string): string[] => markdown.split('\n').filter((l) => l.startsWith('|'));

  it("a lease's particulars table ends where the letter's paragraphs start, left of its first column", async () => {
    const terms = [
      ['New term', '5 years'],
      ['Commencing', '30 June 2026'],
      ['Rent', '21,600 per annum exclusive of VAT, payable quarterly in advance'],
      ['Service charge', 'as under the existing lease'],
    ];
    const markdown = await convert([
      show(72, 700, 'Dear Ms Raman,'),
      ...grid(terms, [90, 200], 679, 15),
      show(72, 613, 'All other terms will follow the existing lease. This offer is made subject to contract and'),
      show(72, 598, 'remains open for acceptance until 31 December 2025. Please sign and return the copy.'),
      show(72, 577, 'Yours sincerely,'),
      show(72, 542, 'Tom Aldous MRICS'),
    ]);
    expect(markdown).toContain(tableToMarkdown(terms));
    expect(tableLines(markdown).join('\n')).not.toMatch(/subject to contract|sincerely|Aldous/);
    expect(markdown).toMatch(/remains open for acceptance until 31 December 2025/);
  });

  it("a line at the table's row pitch that starts left of its first column is not a wrapped cell's line", async () => {
    const terms = [
      ['New term', '5 years'],
      ['Commencing', '30 June 2026'],
      ['Service charge', 'as under the existing lease'],
    ];
    // the closing line 15 pt under the last row, as the rows are, starting 18 pt left of the labels
    const markdown = await convert([...grid(terms, [90, 200], 700, 15), show(72, 655, 'Yours sincerely,')]);
    expect(markdown).toContain(tableToMarkdown(terms));
    expect(markdown).toMatch(/\n\nYours sincerely,/);
  });

  it('a table under another after a wider gap than its row pitch, in other columns, is a table of its own', async () => {
    const meter = [
      ['Meter', 'Previous', 'Current', 'Units used'],
      ['E12Z004417', '31882', '32294', '412 kWh'],
    ];
    const charges = [
      ['Electricity 412 kWh @ 24.50p', '100.94'],
      ['Standing charge 31 days', '16.64'],
      ['VAT at 5%', '5.88'],
      ['Total amount due', '123.46'],
    ];
    // rows 16 pt apart; the second table 26 pt under the first, its values at x 240 (the first's columns: 72, 189,
    // 306, 423)
    const markdown = await convert([
      ...grid(meter, [72, 189, 306, 423], 700, 16),
      ...grid(charges, [72, 240], 658, 16),
    ]);
    expect(markdown).toContain(tableToMarkdown(meter));
    expect(markdown).toContain(tableToMarkdown(charges));
  });

  it("rows in a table's own columns after a wider gap (its totals) stay in it", async () => {
    const fees = [
      ['Posted', 'Fee description', 'Amount'],
      ['10/03', 'Outgoing domestic wire', '$25.00'],
      ['10/14', 'Overdraft item fee', '$34.00'],
      ['10/31', 'Paper statement fee', '$3.00'],
    ];
    const totals = [
      ['', 'Total fees for this period', '$107.00'],
      ['', 'Total fees year-to-date', '$162.00'],
    ];
    const markdown = await convert([...grid(fees, [72, 140, 420], 700, 14), ...grid(totals, [72, 140, 420], 636, 14)]);
    expect(markdown).toContain(tableToMarkdown([...fees, ...totals]));
  });

  it("a ruled grid's taller row, close under the others, stays in the table (its cells centred elsewhere)", async () => {
    // 7 pt rows 9 pt apart, then one 13 pt lower (a taller ruled cell) whose value is centred at another x
    const rows = [
      ['Frame', 'T10', 'T20'],
      ['Rated voltage [V]', '690', '690'],
      ['Rated frequency [Hz]', '50/60', '50/60'],
    ];
    const markdown = await convert([
      ...grid(rows, [72, 200, 300], 700, 9, 7),
      show(72, 700 - 18 - 13, 'Pollution degree', 7),
      show(204, 700 - 18 - 13, '3', 7),
      show(304, 700 - 18 - 13, '3', 7),
    ]);
    expect(markdown).toContain(tableToMarkdown([...rows, ['Pollution degree', '3', '3']]));
  });

  it("a wrapped cell's second paragraph, set apart inside a table of wrapped cells, stays in its row", async () => {
    // lines 14 pt apart; the second objective's comment has a second paragraph 22 pt under its first
    const markdown = await convert([
      show(72, 700, 'Objective 9'),
      show(200, 700, 'No real biodiversity losses or gains:'),
      show(200, 686, 'some areas are affected by development.'),
      show(72, 672, 'Objective 10'),
      show(200, 672, 'Long term possibility of a high quality'),
      show(200, 658, 'built environment through new development.'),
      show(200, 636, 'Design policies would support it.'),
      show(72, 622, 'Objective 11'),
      show(200, 622, 'No effect.'),
    ]);
    expect(markdown).toContain(
      tableToMarkdown([
        ['Objective 9', 'No real biodiversity losses or gains: some areas are affected by development.'],
        [
          'Objective 10',
          'Long term possibility of a high quality built environment through new development. Design policies would support it.',
        ],
        ['Objective 11', 'No effect.'],
      ]),
    );
  });

  it("a label set farther under a steady table than its row pitch (a drawing's) is not a wrapped cell's line", async () => {
    const rows = [
      ['Model', 'LL', 'LR'],
      ['R88M-G20030', '79.5', '30'],
      ['R88M-G40030', '99', '30'],
      ['R88M-G75030', '112.2', '35'],
    ];
    // rows 14 pt apart; the label 26 pt under the last row, under the LL column
    const markdown = await convert([...grid(rows, [72, 200, 300], 700, 14), show(195, 632, 'Brake connector')]);
    expect(markdown).toContain(tableToMarkdown(rows));
    expect(markdown).toMatch(/\n\nBrake connector/);
  });
});
