// SPDX-License-Identifier: AGPL-3.0-or-later
// Table detection in a page's text lines, for page-layout.ts (runs in the mupdf worker threads). The table
// shape is typed in tables.ts (TableBlock), which also renders it.
//
// Finds tabular layouts without ruling lines: runs of consecutive rows that hold two or more horizontally
// separated cells whose x-ranges line up into columns. Hand-written: mupdf exposes no table finder to
// JavaScript, and the heuristic is small. Guards keep numbered paragraphs, footnotes and two-column body text
// out (a "table" of markers + prose, or of long prose lines, is not one).

import type { RawLine } from './pdf-page.protocol.js';
import type { TableBlock } from './tables.js';

/** Horizontally close fragments of one row: one table cell. */
interface Cell {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  lines: RawLine[];
}

/** Lines sharing a baseline, split into cells at wide gaps. */
interface Row {
  y0: number;
  y1: number;
  cells: Cell[];
}

type XRange = { x0: number; x1: number };

/** A list item's marker: a number, a letter or numeral, a bullet (Symbol's and Wingdings' in private use too). */
const MARKER = /^(\(?\d{1,3}[.)]?|\(?[a-z][.)]|\(?[ivxl]{1,5}[.)]|[•●▪■◦‣·\-–*\uF0B7\uF0A7])$/i;

/** A rule set in type (a row of underscores, dashes or dots): a separator, not a cell. */
const RULE = /^[\s_\-–—=.·…]{3,}$/;

/**
 * The tables among a region's lines, the lines they took (the rest is text), and the side-by-side blocks of a
 * form (`formBlock`): each column's lines top to bottom, read as text, not as a table.
 */
export function detectTables(all: RawLine[]): { tables: TableBlock[]; used: Set<RawLine>; forms: RawLine[][][] } {
  const lines = all.filter((l) => l.text.trim().length > 0 && !RULE.test(l.text));
  const rows = groupRows(lines);
  const tables: TableBlock[] = [];
  const forms: RawLine[][][] = [];
  const used = new Set<RawLine>();
  // whether a form starts at row j (formBlock(rows, j, true), which reads `rows` only): asked again for the same
  // row by every later start whose run is no table
  const formAt: (boolean | undefined)[] = [];
  let i = 0;
  while (i < rows.length) {
    const first = rows[i];
    if (!first || first.cells.length < 2) {
      i += 1;
      continue;
    }
    const form = formBlock(rows, i);
    if (form) {
      for (const column of form.columns) {
        forms.push(column);
        for (const l of column.flat()) used.add(l);
      }
      i = form.end;
      continue;
    }
    const run = [first];
    let j = i + 1;
    while (j < rows.length) {
      const r = rows[j];
      const prev = run[run.length - 1];
      if (!r || !prev) break;
      const lineH = Math.max(4, prev.y1 - prev.y0);
      if (r.y0 - prev.y1 > 2.2 * lineH) break;
      if (r.cells.length < 2 && !isContinuation(r, run)) break;
      if (r.cells.length >= 2 && startsAnotherTable(r, run)) break;
      // a form's blocks of `label  value` lines right under the table are not its rows (what follows a table's
      // two-cell rows says nothing there: a table's key-value part under its wider part looks the same)
      if (r.cells.length === 2 && (formAt[j] ??= formBlock(rows, j, true) !== null)) break;
      run.push(r);
      j += 1;
    }
    const table = toTable(run);
    if (table) {
      tables.push(table);
      for (const r of run) for (const c of r.cells) for (const l of c.lines) used.add(l);
      i = j;
    } else i += 1;
  }
  return { tables, used, forms };
}

/** Two words with a wide gap between them inside one text line ("Invoice No.  INV-20417"): a label and its value. */
const WIDE_GAP = /\S {2,}\S/;

const near = (a: number, b: number): boolean => Math.abs(a - b) <= 2;

/**
 * Two blocks of lines side by side, each left-aligned at its own x (a form's "Invoice to" address on the left and
 * "Invoice No.  INV-20417 / Issue date  05 Jan 2026" on the right; a provider's and a customer's blocks), starting
 * at row `i`: not a table, though its rows hold two cells. Told from a two-column table by either what follows it
 * (rows of another table right under it, none of whose cells starts where the right block does: the item table
 * below an invoice's header would otherwise join it, and its cells be read as the blocks' values; not counted for
 * rows inside a table, `inTable`) or by its lines
 * (half of them a label and a value with a wide gap inside one line). Its columns (each its cells' lines, top to
 * bottom), and the row after it.
 */
function formBlock(rows: Row[], i: number, inTable = false): { columns: RawLine[][][]; end: number } | null {
  const first = rows[i];
  if (!first || first.cells.length !== 2) return null;
  const [left, right] = first.cells as [Cell, Cell];
  const [L, R] = [left.x0, right.x0];
  const size = Math.max(...first.cells.flatMap((c) => c.lines.map((l) => l.size)));
  if (R - L < 12 * size) return null;
  let end = i + 1;
  while (end < rows.length) {
    const r = rows[end] as Row;
    const prev = rows[end - 1] as Row;
    if (r.y0 - prev.y1 > 2.2 * Math.max(4, prev.y1 - prev.y0)) break;
    if (r.cells.length > 2) break;
    // one cell per block, each where its block starts, the left one short of the right block
    const inLeft = r.cells.filter((c) => near(c.x0, L) && c.x1 < R - size);
    const inRight = r.cells.filter((c) => near(c.x0, R));
    if (inLeft.length + inRight.length !== r.cells.length || inLeft.length > 1 || inRight.length > 1) break;
    end += 1;
  }
  const seg = rows.slice(i, end);
  if (seg.filter((r) => r.cells.length === 2).length < 2) return null;
  if (seg.some((r) => r.cells.some((c) => !near(c.x0, R) && c.x1 >= R - size))) return null;
  const cells = seg.flatMap((r) => r.cells);
  const gapped = cells.filter((c) => WIDE_GAP.test(c.text)).length;
  const next = rows[end];
  const last = seg[seg.length - 1] as Row;
  const tableBelow =
    next !== undefined &&
    next.cells.length >= 2 &&
    next.y0 - last.y1 <= 2.2 * Math.max(4, last.y1 - last.y0) &&
    rows.slice(end, end + 3).every((r) => r.cells.every((c) => !near(c.x0, R)));
  if (!(tableBelow && !inTable) && gapped < 0.5 * cells.length) return null;
  const columns = [L, R].map((x) => seg.flatMap((r) => r.cells.filter((c) => near(c.x0, x)).map((c) => c.lines)));
  return { columns, end };
}

function groupRows(lines: RawLine[]): Row[] {
  const sorted = [...lines].sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
  const rows: { y0: number; y1: number; lines: RawLine[] }[] = [];
  for (const l of sorted) {
    const r = rows[rows.length - 1];
    const h = l.y1 - l.y0;
    // A line joins the row it overlaps vertically, unless it sits above or below one of the row's lines (their
    // x-ranges overlap): text stacked in one column is two rows, however tight the table is set. Without this,
    // values set larger than their labels chain the rows' extents and merge two rows into one
    // ("No-load Speed (RPM) Rated torque (Nm) | 10000 0.145", issue 26).
    if (
      r &&
      Math.min(r.y1, l.y1) - Math.max(r.y0, l.y0) > 0.5 * Math.min(h, r.y1 - r.y0) &&
      !r.lines.some((o) => overlapX(o, l) > 0)
    ) {
      r.lines.push(l);
      r.y0 = Math.min(r.y0, l.y0);
      r.y1 = Math.max(r.y1, l.y1);
    } else rows.push({ y0: l.y0, y1: l.y1, lines: [l] });
  }
  return rows.map((r) => {
    const ls = r.lines.length > 1 ? [...r.lines].sort((a, b) => a.x0 - b.x0) : r.lines;
    const cells: Cell[] = [];
    for (const l of ls) {
      const c = cells[cells.length - 1];
      // mupdf already splits a text line only at wide gaps: fragments nearly touching are one cell
      if (c && l.x0 - c.x1 < 0.3 * l.size) {
        c.text += ` ${l.text.trim()}`;
        c.x1 = Math.max(c.x1, l.x1);
        c.lines.push(l);
      } else cells.push({ text: l.text.trim(), x0: l.x0, x1: l.x1, y0: l.y0, y1: l.y1, lines: [l] });
    }
    return { y0: r.y0, y1: r.y1, cells };
  });
}

/**
 * A run's row pitch, the step from one row's bottom to the next one's, when it is steady (the largest step at most a
 * quarter more than the smallest; a wrapped cell's lines are rows of the run too); null for a run of one row or an
 * unsteady one (a datasheet's grid of cells centred on rows of several lines, whose pitch says nothing).
 */
function steadyPitch(run: Row[]): number | null {
  let most = -Infinity;
  let least = Infinity;
  for (let k = 1; k < run.length; k++) {
    const step = (run[k] as Row).y1 - (run[k - 1] as Row).y1;
    most = Math.max(most, step);
    least = Math.min(least, step);
  }
  return run.length > 1 && least > 0 && most <= 1.25 * least ? most : null;
}

/** Farther below the run's last row than its rows are from each other (a third more than its steady pitch). */
const pastPitch = (r: Row, run: Row[]): boolean => {
  const pitch = steadyPitch(run);
  const prev = run[run.length - 1];
  return pitch !== null && prev !== undefined && r.y1 - prev.y1 > 1.35 * pitch;
};

/**
 * A row of cells after a wider gap than the run's row pitch, some of whose cells neither start nor end where a cell of
 * the run does: another table (a bill's charges under its meter readings, an order's item table under its `label
 * value` lines), whose cells would otherwise be put in the columns of the first and its own columns merged with them
 * ("Order number PW-5590-2718" in one cell, issue 26). Rows in the run's columns after a wider gap (a table's group
 * of rows set apart, its totals) stay in it.
 */
function startsAnotherTable(r: Row, run: Row[]): boolean {
  const prev = run[run.length - 1];
  if (!prev || !pastPitch(r, run)) return false;
  // ...and blank space between them (three quarters of the text's size): a ruled grid's rows of different heights
  // follow each other closely
  const size = Math.max(...[...prev.cells, ...r.cells].flatMap((c) => c.lines.map((l) => l.size)));
  if (r.y0 - prev.y1 < 0.75 * size) return false;
  const cells = run.flatMap((x) => x.cells);
  return r.cells.some((c) => !cells.some((o) => near(o.x0, c.x0) || near(o.x1, c.x1)));
}

/**
 * A one-cell row inside a run continues a multi-line cell when it sits under a column other than the page margin,
 * inside the table: not left of its first column (a lease's particulars table, its labels indented, took the
 * letter's closing paragraphs into its last row, issue 26), not farther below than the table's steady row pitch (a
 * drawing's labels under a dimensions table). (A line across two cells of the row above was tried as a third sign:
 * the engines' different grouping of a formula list in R-intro.pdf then made a table with one engine only.)
 */
function isContinuation(r: Row, run: Row[]): boolean {
  const cell = r.cells[0];
  const prev = run[run.length - 1];
  if (!cell || !prev || run.length < 1) return false;
  const firstColX0 = Math.min(...run.map((x) => x.cells[0]?.x0 ?? Infinity));
  const size = Math.max(...cell.lines.map((l) => l.size));
  if (cell.x0 < firstColX0 - size) return false;
  // (in a table of one-line rows: a cell of several paragraphs is set apart inside a table of wrapped cells)
  if (run.every((x) => x.cells.length >= 2) && pastPitch(r, run)) return false;
  if (Math.abs(cell.x0 - firstColX0) < 2 && prev.cells.length >= 2) {
    // under the first column: a new label (a row whose other cells are empty), unless it is set so tight under
    // the previous row that it overlaps it: the second line of a wrapped label whose value is centred on both
    return r.y0 < prev.y1 - 0.25 * (r.y1 - r.y0);
  }
  return prev.cells.some((c) => overlapX(c, cell) > 0.5 * Math.min(c.x1 - c.x0, cell.x1 - cell.x0));
}

const overlapX = (a: XRange, b: XRange): number => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);

/**
 * The columns of a table's fullest rows: the x-ranges their cells cover, split where only a few rows bridge a
 * gutter the others leave open. A cell the PDF's text extraction fused across columns ("MSO-2 x T12 MSO-2 x T20
 * MSO-2 x T21 MSO-2 x T25", printed in four cells set close together) would otherwise fuse those columns for the
 * whole table (issue 26: Contactors' model list read "T10 | T12 T20 T21 T25 | T32" once rows stopped merging).
 */
function columnsOf(full: Row[]): XRange[] {
  const cells = full.flatMap((r) => r.cells);
  const xs = [...new Set(cells.flatMap((c) => [c.x0, c.x1]))].sort((a, b) => a - b);
  // elementary segments between cell edges, each with the number of rows that have ink over it
  const segs: { x0: number; x1: number; cov: number }[] = [];
  for (let i = 0; i + 1 < xs.length; i++) {
    const x0 = xs[i] as number;
    const x1 = xs[i + 1] as number;
    const mid = (x0 + x1) / 2;
    const cov = full.filter((r) => r.cells.some((c) => c.x0 <= mid && c.x1 >= mid)).length;
    segs.push({ x0, x1, cov });
  }
  const cols: XRange[] = [];
  const split = (part: typeof segs): void => {
    // the least covered inner segment splits the range when the rows on both sides far outnumber its own
    let cut = -1;
    // the most rows over any segment left of k (before[k]) and right of k (after[k]), in one pass each (issue 28:
    // they were recomputed from slices for every k)
    const before: number[] = [];
    const after: number[] = new Array<number>(part.length);
    let most = -Infinity;
    for (let k = 0; k < part.length; k++) {
      before.push(most);
      most = Math.max(most, (part[k] as (typeof segs)[number]).cov);
    }
    most = -Infinity;
    for (let k = part.length - 1; k >= 0; k--) {
      after[k] = most;
      most = Math.max(most, (part[k] as (typeof segs)[number]).cov);
    }
    for (let k = 1; k < part.length - 1; k++) {
      const s = part[k] as (typeof segs)[number];
      const left = before[k] as number;
      const right = after[k] as number;
      if (Math.min(left, right) >= 3 && s.cov <= 0.25 * Math.min(left, right))
        if (cut < 0 || s.cov < (part[cut] as (typeof segs)[number]).cov) cut = k;
    }
    if (cut < 0) {
      cols.push({ x0: (part[0] as (typeof segs)[number]).x0, x1: (part[part.length - 1] as (typeof segs)[number]).x1 });
      return;
    }
    split(part.slice(0, cut));
    split(part.slice(cut + 1));
  };
  let start = 0;
  for (let k = 0; k <= segs.length; k++) {
    if (k < segs.length && (segs[k] as (typeof segs)[number]).cov > 0) continue;
    if (k > start) split(segs.slice(start, k));
    start = k + 1;
  }
  return cols;
}

/**
 * A column split where cells of two rows or more start inside it while the only cells across that x are labels of
 * the column's own, most of each to the left of it: a long label overhanging a mostly empty column ("Supply current,
 * measuring" over the Min column of a Min/Typ/Max/Unit table) would otherwise fuse the two ("Parameter Min",
 * "Supply voltage 2.4"). A cell mostly to the right of that x (a numbered list's long entry over its marker and
 * text columns) keeps them one.
 */
function splitOverhangs(cols: XRange[], rows: Row[]): void {
  for (let k = 0; k < cols.length; k++) {
    const col = cols[k] as XRange;
    const inside = rows.flatMap((r) => r.cells).filter((c) => overlapX(c, col) > 0);
    const size = Math.max(...inside.flatMap((c) => c.lines.map((l) => l.size)));
    const starts = inside.filter((c) => c.x0 > col.x0 + size);
    for (const s of [...new Set(starts.map((c) => c.x0))].sort((a, b) => a - b)) {
      const there = rows.filter((r) => r.cells.some((c) => near(c.x0, s) && overlapX(c, col) > 0));
      if (there.length < 2) continue;
      const across = inside.filter((c) => c.x0 < s - 1 && c.x1 > s + 1);
      if (across.length === 0) continue;
      if (!across.every((c) => near(c.x0, col.x0) && s - c.x0 > 2 * (c.x1 - s))) continue;
      if (inside.some((c) => c.x0 > col.x0 + size && c.x0 < s - 1)) continue;
      cols.splice(k, 1, { x0: col.x0, x1: s - 1 }, { x0: s, x1: col.x1 });
      break;
    }
  }
}

// (\p{...} expressions as module constants: esbuild writes such a literal as `new RegExp(...)`, built per call)
const LETTER_RUN = /\p{L}+/gu;
const LOWER_WORD = /^\p{Ll}{3,}$/u;
const LOWER_HYPHEN = /\p{Ll}-$/u;
/** A word's shape: digit runs (with decimals) as 0, letter runs as a, punctuation kept ("MSO-2" -> "a-0"). */
const shape = (word: string): string => word.replace(/\d+(?:[.,]\d+)?/g, '0').replace(LETTER_RUN, 'a');

/**
 * A fragment's text as `k` cells, when its words split into `k` runs of equal length and identical shape, codes
 * and numbers with no word of prose ("MSO-2 x T12 MSO-2 x T20" -> "MSO-2 x T12", "MSO-2 x T20"); else null (a
 * spanning note or a merged value stays whole).
 */
function fusedParts(text: string, k: number): string[] | null {
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  if (words.length < k || words.length % k !== 0) return null;
  // codes and numbers only: a phrase ("2 for UT-AX2 1 for UT-AX11") may repeat a shape and still be one cell
  if (words.some((w) => LOWER_WORD.test(w))) return null;
  const n = words.length / k;
  const parts = Array.from({ length: k }, (_, i) => words.slice(i * n, (i + 1) * n));
  const first = (parts[0] as string[]).map(shape).join(' ');
  if (!/0/.test(first) || parts.some((p) => p.map(shape).join(' ') !== first)) return null;
  return parts.map((p) => p.join(' '));
}

/** A run of rows as a table, or null when its columns do not line up or it reads as a list or as prose. */
function toTable(run: Row[]): TableBlock | null {
  const multi = run.filter((r) => r.cells.length >= 2);
  const maxCells = Math.max(...multi.map((r) => r.cells.length));
  if (multi.length < 3 && !(multi.length >= 2 && maxCells >= 3)) return null;
  // columns: merge the overlapping x-ranges of the cells of the fullest rows (a cell spanning several columns,
  // in a row with fewer cells, would otherwise fuse them); every other cell goes to the column it overlaps most
  const full = multi.filter((r) => r.cells.length >= Math.max(2, 0.8 * maxCells));
  const cols = columnsOf(full);
  // ...unless many rows bridge two neighbouring columns with one cell: then those two are one column
  // ("1." | "Introduction" above "10. Supporting high quality communications")
  for (let k = cols.length - 2; k >= 0; k--) {
    const a = cols[k];
    const b = cols[k + 1];
    if (!a || !b) continue;
    const bridging = run.filter((r) => r.cells.some((c) => c.x0 <= a.x1 && c.x1 >= b.x0 + 0.5 * (b.x1 - b.x0))).length;
    if (bridging >= 0.3 * run.length) cols.splice(k, 2, { x0: a.x0, x1: Math.max(a.x1, b.x1) });
  }
  splitOverhangs(cols, multi);
  if (cols.length < 2) return null;
  const cellsAll = multi.flatMap((r) => r.cells);
  // prose wraps words across lines ("Lan-" / "guages"): tables do not
  // (the last character first: an end-anchored expression is tried at every position)
  if (cellsAll.filter((c) => c.text.endsWith('-') && LOWER_HYPHEN.test(c.text)).length >= 2) return null;
  const avgLen = cellsAll.reduce((s, c) => s + c.text.length, 0) / cellsAll.length;
  if (cols.length === 2) {
    const firsts = multi.map((r) => r.cells[0]?.text ?? '');
    if (firsts.every((t) => MARKER.test(t))) return null; // a numbered / bulleted list, footnotes
    if (avgLen > 40) return null; // two columns of prose
  } else if (avgLen > 60) return null;
  const colOf = (c: XRange): number => {
    let best = 0;
    let bestOv = -Infinity;
    cols.forEach((col, k) => {
      const ov = overlapX(col, c);
      if (ov > bestOv) [best, bestOv] = [k, ov];
    });
    return best;
  };
  const rows: string[][] = [];
  for (const r of run) {
    if (r.cells.length >= 2 || rows.length === 0) {
      const row = cols.map(() => '');
      const taken = new Set(r.cells.map(colOf));
      for (const c of r.cells) {
        // a fragment over several columns, each of which its row leaves empty, made of as many look-alike parts
        // ("MS-2 x T35 MS-2 x T50"): the text extraction fused one cell per column, so each part goes to its own
        const spanned = cols.flatMap((col, k) =>
          c.x0 <= (col.x0 + col.x1) / 2 && c.x1 >= (col.x0 + col.x1) / 2 ? [k] : [],
        );
        const parts = spanned.length >= 2 ? fusedParts(c.text, spanned.length) : null;
        if (parts && spanned.every((k) => k === colOf(c) || !taken.has(k))) {
          spanned.forEach((k, n) => (row[k] = row[k] ? `${row[k]} ${parts[n]}` : (parts[n] as string)));
          continue;
        }
        const k = colOf(c);
        row[k] = row[k] ? `${row[k]} ${c.text}` : c.text;
      }
      rows.push(row);
    } else {
      const row = rows[rows.length - 1];
      const c = r.cells[0];
      if (row && c) {
        const k = colOf(c);
        row[k] = row[k] ? `${row[k]} ${c.text}` : c.text;
      }
    }
  }
  const all = run.flatMap((r) => r.cells);
  return {
    kind: 'table',
    x0: Math.min(...all.map((c) => c.x0)),
    y0: Math.min(...all.map((c) => c.y0)),
    x1: Math.max(...all.map((c) => c.x1)),
    y1: Math.max(...all.map((c) => c.y1)),
    rows,
  };
}
