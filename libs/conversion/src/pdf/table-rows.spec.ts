// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePdf, pdfTextAt } from '@lectern/testing';
import { createConversionEngine } from '../index.js';
import { tableToMarkdown } from './tables.js';

// Issue 26: datasheet tables whose rows the converter merged ("No-load Speed (RPM) Rated torque (Nm) | 10000
// 0.145 | …"). Generated PDFs set like the datasheet: small labels, values in a larger font, rows tight.
const engine = createConversionEngine({ pdfWorkers: 1 });
afterAll(() => engine.close());

const show = (x: number, y: number, text: string, size: number): string => pdfTextAt(x, y, text, size);
const COLUMNS = [72, 220, 300];
const convert = async (content: string): Promise<string> =>
  (await engine.convert({ bytes: makePdf([{ content }]), filename: 'sheet.pdf' }, { enableOcr: false })).markdown;

const ROWS = [
  ['Parameter', 'D35', 'D50'],
  ['No-load Speed (RPM)', '10000', '8000'],
  ['Rated torque (Nm)', '0.145', '0.31'],
  ['Peak torque (Nm)', '0.457', '0.98'],
  ['Weight (kg)', '0.104', '0.2'],
];

describe('tight datasheet tables (page-tables.ts)', () => {
  it('keeps two rows apart when the values, set larger than the labels, overlap the next row', async () => {
    // labels 7 pt, values 12 pt, rows 9 pt apart; the first row's values sit 3 pt low (centred in a taller cell)
    const content = [
      show(72, 700, 'D Series motors', 18),
      ...ROWS.flatMap((row, i) =>
        row.map((cell, k) => show(COLUMNS[k]!, 660 - i * 9 - (k > 0 && i === 1 ? 3 : 0), cell, k > 0 ? 12 : 7)),
      ),
    ].join('\n');
    const markdown = await convert(content);
    expect(markdown).toContain(tableToMarkdown(ROWS));
    expect(markdown).not.toMatch(/10000 0\.145/);
  });

  it('keeps a wrapped label in its row when its value is centred on both lines', async () => {
    // "No-load Speed" / "(RPM)" on two 7 pt lines 7.5 pt apart; the values centred between them
    const content = [
      show(72, 700, 'D Series motors', 18),
      ...ROWS[0]!.map((cell, k) => show(COLUMNS[k]!, 660, cell, 9)),
      show(72, 646, 'No-load Speed', 7),
      show(72, 638.5, '(RPM)', 7),
      show(COLUMNS[1]!, 642, '10000', 9),
      show(COLUMNS[2]!, 642, '8000', 9),
      ...ROWS.slice(2).flatMap((row, i) => row.map((cell, k) => show(COLUMNS[k]!, 626 - i * 12, cell, k > 0 ? 9 : 7))),
    ].join('\n');
    const markdown = await convert(content);
    expect(markdown).toContain(tableToMarkdown(ROWS));
  });

  it('keeps one model per column when a row prints models close enough to be read as one fragment', async () => {
    // Contactors.pdf's model list: eight frames 34 pt apart in 6.4 pt type; in one row two model names sit so
    // close that the text extraction reads "MS-T20 MS-T21" as one fragment spanning two columns. The columns come
    // from the rows that leave the gutter between them open (without that, T20 and T21 were one column for the
    // whole table), and the fused fragment, two look-alike codes over two empty columns, is split between them;
    // a note spanning columns in another row stays whole.
    const models = ['T10', 'T12', 'T20', 'T21', 'T25', 'T32', 'T35', 'T50'];
    const x = (k: number) => 200 + 34 * k;
    const rows: string[][] = [
      ['Frame', ...models],
      ['Contactor', ...models.map((m) => `S-${m}`)],
      ['Starter', ...models.map((m) => `MS-${m}`)],
      ['Rated current [A]', '9', '12', '18', '21', '25', '32', '35', '50'],
      ['Coil [VA]', '7', '7', '4.5', '4.5', '10', '10', '12', '12'],
      ['Options', '2 for UT-AX2 1 for UT-AX11', '', '', '', '', '', '', ''],
    ];
    const content = [
      show(72, 700, 'Model list', 18),
      ...rows.flatMap((row, i) =>
        row.flatMap((cell, k) => {
          const y = 660 - i * 9;
          if (k === 0) return [show(72, y, cell, 6.4)];
          // the starter row: T20's and T21's names in one string, the gap between them one space wide
          if (i === 2 && k === 3) return [show(x(2), y, 'MS-T20 MS-T21', 6.4)];
          if ((i === 2 && k === 4) || !cell) return [];
          return [show(x(k - 1), y, cell, 6.4)];
        }),
      ),
    ].join('\n');
    const markdown = await convert(content);
    expect(markdown).toContain(tableToMarkdown(rows.slice(0, 5)));
    expect(markdown).toMatch(/\| Options \| 2 for UT-AX2 1 for UT-AX11 \|/);
  });
});
