// SPDX-License-Identifier: AGPL-3.0-or-later
import { detectTables } from './page-tables.js';
import type { RawLine } from './pdf-page.protocol.js';
import { line, stack } from './page-fixtures.testkit.js';

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
    expect(detectTables(prose)).toEqual({ tables: [], used: new Set() });
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

  it('does not take two columns of hyphenated prose for a table', () => {
    const left = ['Programming lan-', 'guages differ in', 'how their mod-', 'ules are named'];
    const right = ['while the run-', 'time decides the', 'order of evalu-', 'ation at startup'];
    const lines = left.flatMap((t, k) => [line(t, 72, 100 + 14 * k), line(right[k] as string, 320, 100 + 14 * k)]);
    expect(detectTables(lines).tables).toEqual([]);
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
