// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePdf, type PdfPageSpec } from './make-pdf.js';

/*
 * The run-by-run page drawing the blind extraction sets from variant 13 on share (fresh-docs-13, -14, -15): text runs
 * at absolute positions in the standard fonts (F1 Helvetica, F2 Helvetica-Bold, F3 Courier), thin rules and framed
 * boxes, and the line builders their layouts are made of. Each set keeps its own document definitions.
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
export const WIN_ANSI: Record<string, number> = {
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
      throw new Error(`fresh-docs-draw: cannot print ${JSON.stringify(c)}`);
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
    if (line.length === 0) throw new Error('fresh-docs-draw: an empty line (use a number for space)');
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
  if (y < 40) throw new Error('fresh-docs-draw: page overflow');
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

/** Framed boxes in a row, each with a small bold label and its value below (a printed form). */
export const boxes = (row: [string, string][], xs: number[], right: number): Line[] => [
  { frame: 'top', x: [xs[0]! - 4, right] },
  [...row.map(([label], i) => ({ x: xs[i]!, text: label, font: 'F2' as const, size: 7 }))],
  [...row.map(([, value], i) => ({ x: xs[i]!, text: value, size: 10 }))],
  { frame: 'bottom', x: [xs[0]! - 4, right] },
  4,
];
