// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePdf, pdfString } from '@lectern/testing';
import { createConversionEngine } from '../index.js';
import { tableToMarkdown } from './tables.js';

// Issue 26: datasheet tables whose rows the converter merged ("No-load Speed (RPM) Rated torque (Nm) | 10000
// 0.145 | …"). Generated PDFs set like the datasheet: small labels, values in a larger font, rows tight.
const engine = createConversionEngine({ pdfWorkers: 1 });
afterAll(() => engine.close());

const show = (x: number, y: number, text: string, size: number): string =>
  `BT /F1 ${size} Tf ${x} ${y} Td (${pdfString(text)}) Tj ET`;
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
});
