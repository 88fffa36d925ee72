// SPDX-License-Identifier: AGPL-3.0-or-later
import { createConversionEngine, tableToMarkdown } from '@lectern/conversion';
import { makePdf, pdfString } from '@lectern/testing';
import { splitRow } from './markdown-table.js';

// Issue 26: a `|` inside a table cell is escaped by the converter's Markdown writer and unescaped by the
// extractor's table reader, so the cell stays one cell both ways.
const TRICKY = [
  ['Parameter', 'Value', 'Note'],
  ['Supply', 'AC 230 V | 50/60 Hz', 'a | b | c'],
  ['Path', 'C:\\drivers\\', ''],
  ['Escaped', 'already \\| escaped', '|edge|'],
];

const readTable = (markdown: string): string[][] =>
  markdown
    .split('\n')
    .map(splitRow)
    .filter((cells): cells is string[] => cells !== undefined && !cells.every((c) => /^-+$/.test(c)));

describe('Markdown table cells with pipes: writer and reader agree', () => {
  it('rows -> Markdown -> rows gives the same cells', () => {
    const markdown = tableToMarkdown(TRICKY);
    expect(markdown.split('\n')[1]).toBe('| --- | --- | --- |');
    expect(markdown).toContain('AC 230 V \\| 50/60 Hz');
    expect(readTable(markdown)).toEqual(TRICKY);
  });

  it('Markdown -> rows -> Markdown gives the same text', () => {
    const written = ['| a \\| b | c |', '| --- | --- |', '| 1 | x \\| y \\| z |'].join('\n');
    const rows = readTable(written);
    expect(rows).toEqual([
      ['a | b', 'c'],
      ['1', 'x | y | z'],
    ]);
    expect(tableToMarkdown(rows)).toBe(written);
  });

  it('a pipe in a PDF table cell comes back as one cell through the converter', async () => {
    const engine = createConversionEngine({ pdfWorkers: 1 });
    try {
      const show = (x: number, y: number, text: string) => `BT /F1 10 Tf ${x} ${y} Td (${pdfString(text)}) Tj ET`;
      const rows = [
        ['Parameter', 'Unit', 'W-100'],
        ['Supply', 'V | Hz', '230 | 50'],
        ['Rated current', 'A', '1.6'],
        ['Rated power', 'W', '200'],
      ];
      const content = rows.flatMap((row, i) => row.map((cell, k) => show([72, 220, 320][k]!, 660 - i * 16, cell)));
      const { markdown } = await engine.convert(
        { bytes: makePdf([{ content: content.join('\n') }]), filename: 'pipes.pdf' },
        { enableOcr: false },
      );
      expect(markdown).toContain('| Supply | V \\| Hz | 230 \\| 50 |');
      expect(readTable(markdown)).toEqual(rows);
    } finally {
      await engine.close();
    }
  });
});
