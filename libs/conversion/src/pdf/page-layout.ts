// SPDX-License-Identifier: AGPL-3.0-or-later
// One page's layout from its raw mupdf lines: column gutter, tables, visual lines, paragraphs, reading order.
// Runs in the mupdf worker threads (pdf-page.worker.ts), next to the extraction, so that a document's pages
// are laid out on both cores while the main thread only assembles the Markdown. The shapes it returns are
// typed in layout.ts (PageLayout, TextBlock, TableBlock), the input in pdf-page.protocol.ts (RawPage).
import type { CodeBlock, Line, PageBlock, PageLayout, TextBlock } from './layout.js';
import {
  collapseSpaces,
  endsWithLetterHyphen,
  endsWithSpace,
  hasThreeDoubledLetters,
  replaceLetterRuns,
  startsWithSpace,
  trimmedLength,
} from './letters.js';
import { detectTables } from './page-tables.js';
import type { RawBlock, RawLine, RawPage } from './pdf-page.protocol.js';
import type { TableBlock } from './tables.js';

/** A box on the page, in points from its top-left corner. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const vOverlap = (a: Box, b: Box): number => Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);

/** TeX-made PDFs print accents as separate spacing marks before the letter ("Br¨oker"): compose them. */
const SPACING_ACCENTS: Record<string, string> = {
  '¨': '\u0308',
  '´': '\u0301',
  ˆ: '\u0302',
  '˜': '\u0303',
  ˇ: '\u030C',
  '¸': '\u0327',
};
const composeAccents = (s: string): string =>
  /[¨´ˆ˜ˇ¸]/.test(s)
    ? s.replace(/([¨´ˆ˜ˇ])\s?([A-Za-zı])|([A-Za-z])¸/g, (_m, acc?: string, letter?: string, cedilla?: string) =>
        acc
          ? `${letter === 'ı' ? 'i' : letter}${SPACING_ACCENTS[acc]}`.normalize('NFC')
          : `${cedilla}\u0327`.normalize('NFC'),
      )
    : s;

/**
 * A word whose every letter is doubled ("CCoonntteennttss", or after a single capital, "Coonntteennttss"): a
 * shadow or fake-bold effect drawn as a second copy offset by more than the engines' overprint rule collapses
 * (mupdf keeps a repeated glyph a tenth of its size or more away). Three pairs at least; no English word is
 * spelled so.
 */
export const undouble = (word: string): string => {
  const lead = word.length % 2 === 1 ? (word[0] as string) : '';
  const body = word.slice(lead.length);
  if (body.length < 6 || (lead && lead.toLowerCase() === body[0]?.toLowerCase() && lead !== body[0])) return word;
  let half = '';
  for (let i = 0; i < body.length; i += 2) {
    if (body[i] !== body[i + 1]) return word;
    half += body[i];
  }
  return lead + half;
};
/**
 * `/(\p{L})\1/u.test(s) ? s.replace(/\p{L}{7,}/gu, undouble) : s`, scanned (letters.ts: run on every line); only
 * a line with three doubled letters in a row can hold a word `undouble` changes.
 */
export const undoubleWords = (s: string): string => (hasThreeDoubledLetters(s) ? replaceLetterRuns(s, 7, undouble) : s);

/** Groups fragments of one raw block into visual lines (mupdf splits a line at large gaps, e.g. "11." + text). */
export function mergeLines(lines: RawLine[]): Line[] {
  const sorted = [...lines].sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1) || a.x0 - b.x0);
  const groups: [RawLine, ...RawLine[]][] = [];
  for (const l of sorted) {
    const g = groups[groups.length - 1];
    const last = g?.[g.length - 1];
    if (g && last && vOverlap(l, last) > 0.5 * Math.min(l.y1 - l.y0, last.y1 - last.y0)) g.push(l);
    else groups.push([l]);
  }
  return groups.map((g) => {
    g.sort((a, b) => a.x0 - b.x0);
    let text = '';
    let prevX1 = -Infinity;
    for (const l of g) {
      // fragments closer than a fraction of a space are one word split by a style change ("applied" + "1")
      const glue =
        text === '' || endsWithSpace(text) || startsWithSpace(l.text) || l.x0 - prevX1 < 0.15 * l.size ? '' : ' ';
      text += glue + l.text;
      prevX1 = l.x1;
    }
    text = undoubleWords(composeAccents(collapseSpaces(text)));
    let total = 0;
    let boldChars = 0;
    let main = g[0];
    let mainWeight = -1;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const l of g) {
      const w = trimmedLength(l.text);
      total += w;
      if (l.bold) boldChars += w;
      if (w > mainWeight) [main, mainWeight] = [l, w];
      x0 = Math.min(x0, l.x0);
      y0 = Math.min(y0, l.y0);
      x1 = Math.max(x1, l.x1);
      y1 = Math.max(y1, l.y1);
    }
    return {
      text,
      x0,
      y0,
      x1,
      y1,
      size: main.size,
      bold: boldChars / (total || 1) >= 0.95,
      footnote: /^\d{1,3}\s/.test(text) && (g[0]?.leadSize ?? main.size) < 0.8 * main.size,
    };
  });
}

/**
 * The block's text: its lines joined. A word hyphenated at a line end ("hyphen-" + "ated") is joined with a
 * soft hyphen (U+00AD) where the hyphen was: the Markdown builder, which sees the whole document, decides
 * whether it was a break or a compound's own hyphen (pdf-markdown.ts, rejoinBrokenWords). A hyphen before a
 * capital or a digit stays, without a space ("Anglo-" + "Saxon", "COVID-" + "19").
 */
export function joinLines(lines: Line[]): string {
  let out = '';
  for (const l of lines) {
    const t = l.text.trim();
    if (!t) continue;
    if (!out) out = t;
    else if (endsWithLetterHyphen(out) && /^\p{Ll}/u.test(t)) out = `${out.slice(0, -1)}\u00AD${t}`;
    else if (endsWithLetterHyphen(out) && /^[\p{Lu}\p{N}]/u.test(t)) out += t;
    else out += ` ${t}`;
  }
  return out;
}

/**
 * A paragraph from its visual lines: box, joined text, line count (the lines themselves are not kept: the
 * main thread needs only these), main size and weight.
 */
export function toTextBlock(lines: Line[]): TextBlock {
  const bySize = new Map<number, number>();
  let bold = 0;
  let chars = 0;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const l of lines) {
    const n = l.text.length;
    chars += n;
    if (l.bold) bold += n;
    const s = Math.round(l.size * 2) / 2;
    bySize.set(s, (bySize.get(s) ?? 0) + n);
    x0 = Math.min(x0, l.x0);
    y0 = Math.min(y0, l.y0);
    x1 = Math.max(x1, l.x1);
    y1 = Math.max(y1, l.y1);
  }
  let size = 0;
  let best = -1;
  for (const [s, n] of bySize) if (n > best) [size, best] = [s, n];
  return {
    kind: 'text',
    x0,
    y0,
    x1,
    y1,
    lineCount: lines.length,
    text: joinLines(lines),
    size,
    bold: chars > 0 && bold / chars >= 0.8,
    chars,
  };
}

/**
 * Reading order. A page with a column gutter (a vertical strip in the middle that no narrow block crosses,
 * with text on both sides) reads column by column between full-width blocks; other pages read top to bottom.
 */
export function orderBlocks<B extends Box>(blocks: B[], gutter: number | null): B[] {
  const byY = (a: Box, b: Box): number => (Math.abs(a.y0 - b.y0) < 2 ? a.x0 - b.x0 : a.y0 - b.y0);
  if (gutter === null) return [...blocks].sort(byY);
  const crosses = (b: Box): boolean => b.x0 < gutter - 1 && b.x1 > gutter + 1;
  const spanning = blocks.filter(crosses).sort(byY);
  const out: B[] = [];
  let top = -Infinity;
  for (const bound of [...spanning, null]) {
    const bottom = bound ? bound.y0 : Infinity;
    const inBand = blocks.filter((b) => {
      if (crosses(b)) return false;
      const c = (b.y0 + b.y1) / 2;
      return c >= top && c < bottom;
    });
    out.push(
      ...inBand.filter((b) => b.x1 <= gutter + 1).sort(byY),
      ...inBand.filter((b) => b.x1 > gutter + 1).sort(byY),
    );
    if (bound) {
      out.push(bound);
      top = (bound.y0 + bound.y1) / 2;
    }
  }
  return out;
}

/**
 * A column gutter: an x in the middle of the page with a substantial column of text on each side and
 * little text crossing it (crossing blocks - titles, centred affiliations, full-width figures - become
 * separators read in their place).
 */
export function findGutter(blocks: Box[], width: number, height: number): number | null {
  // two columns need at least 40% of a page height of blocks narrower than half the page: most pages stop here
  let narrow = 0;
  for (const b of blocks) if (b.x1 - b.x0 < 0.5 * width) narrow += b.y1 - b.y0;
  if (narrow < 0.4 * height) return null;
  let best: { x: number; score: number } | null = null;
  for (let x = width * 0.3; x <= width * 0.7; x += 2) {
    let left = 0;
    let right = 0;
    let crossing = 0;
    for (const b of blocks) {
      const h = b.y1 - b.y0;
      if (b.x1 <= x) left += h;
      else if (b.x0 >= x) right += h;
      else crossing += h;
    }
    if (left < 0.2 * height || right < 0.2 * height) continue;
    if (crossing > 0.5 * Math.min(left, right)) continue;
    const score = Math.min(left, right) - crossing - Math.abs(x - width / 2) * 0.01;
    if (!best || score > best.score) best = { x, score };
  }
  return best ? best.x : null;
}

const NUMBERED = /^(\d{1,3}(\.\d{1,3})*\.?|\(?[a-z]\)|\(?[ivx]{1,4}\))\s/;
const BULLET = /^[•●▪■◦‣·\-–*]\s/;
/** A clause's or recital's marker: "1.", "2.3", "4)", "(1)", "(A)", "(iv)". */
const CLAUSE = /^(\d{1,3}(\.\d{1,3})*[.)]|\d{1,3}\.\d{1,3}|\(\d{1,3}\)|\([A-Za-z]\)|\([ivx]{1,4}\))\s/;

/** A raw block can hold several paragraphs: split where the font size or weight changes (a heading on top). */
function splitParagraphs(lines: Line[]): Line[][] {
  const out: Line[][] = [];
  for (const l of lines) {
    const g = out[out.length - 1];
    const prev = g?.[g.length - 1];
    const sameStyle = prev && Math.abs(prev.size - l.size) < 0.6 && prev.bold === l.bold;
    const bullet = BULLET.test(l.text) || /^\uF0B7/.test(l.text);
    // a numbered paragraph starting inside a block: "6. Other statements..." outdented from the text above
    // ...or set flush after a line that ends a sentence or a lead-in ("IT IS AGREED as follows:" / "1. Services. ...")
    const numbered =
      prev !== undefined &&
      ((NUMBERED.test(l.text) && l.x0 < prev.x0 - 4) || (CLAUSE.test(l.text) && /[.:;]\s*$/.test(prev.text)));
    if (g && sameStyle && !bullet && !numbered && !l.footnote) g.push(l);
    else out.push([l]);
  }
  return out;
}

/**
 * The page without lines drawn again over themselves: the same text within a tenth of its size of an earlier
 * line ("fake bold" by printing a whole string twice, slightly offset). Both engines already keep one copy of a
 * glyph overprinted glyph by glyph (mupdf 1.28's rule, reproduced in the native engine); a string drawn again
 * after it arrives as a second line, which a reader never sees as two.
 */
export function dropOverprintedLines(page: RawPage): RawPage {
  // the lines kept so far under each trimmed text: one line, or a list once a text recurs (most texts occur once;
  // no list or closure is made for them, issue 28)
  const seen = new Map<string, RawLine | RawLine[]>();
  let dropped = 0;
  const blocks = page.blocks.map((b) => {
    const lines = b.lines.filter((l) => {
      const key = l.text.trim();
      const same = seen.get(key);
      if (same === undefined) {
        seen.set(key, l);
        return true;
      }
      const tolerance = 0.1 * l.size + 1;
      const near = (o: RawLine): boolean => Math.abs(o.x0 - l.x0) <= tolerance && Math.abs(o.y0 - l.y0) <= tolerance;
      if (Array.isArray(same) ? same.some(near) : near(same)) {
        dropped += 1;
        return false;
      }
      if (Array.isArray(same)) same.push(l);
      else seen.set(key, [same, l]);
      return true;
    });
    return lines.length === b.lines.length ? b : { ...b, lines };
  });
  return dropped ? { ...page, blocks: blocks.filter((b) => b.lines.length > 0) } : page;
}

const LINE_NUMBER = /^\d{1,4}$/;

/**
 * The page without its margin line numbers (a proof's, a legal text's, a listing's): a strip of bare numbers
 * in one vertical strip that no other line crosses, at least three, increasing down the page at a steady rate, one step per
 * line of text at most (every line, or every fifth), beside lines of prose: a table's numbered rows stand
 * further apart, or hold short cells. They are not text, and beside the lines they number they made
 * two-column "tables" of numbers and prose.
 */
export function dropLineNumbers(page: RawPage): RawPage {
  // most pages have fewer than three bare numbers: counted first, without gathering the page's lines (issue 28)
  let count = 0;
  for (const b of page.blocks) for (const l of b.lines) if (LINE_NUMBER.test(l.text.trim())) count += 1;
  if (count < 3) return page;
  const lines = page.blocks.flatMap((b) => b.lines);
  const numbers = lines.filter((l) => LINE_NUMBER.test(l.text.trim()));
  // strips of numbers whose boxes overlap across (left- or right-aligned, "9" above "10")
  const strips: RawLine[][] = [];
  let stripX1 = -Infinity;
  for (const n of [...numbers].sort((a, b) => a.x0 - b.x0)) {
    const s = strips[strips.length - 1];
    if (s && n.x0 < stripX1) s.push(n);
    else strips.push([n]);
    stripX1 = Math.max(s && n.x0 < stripX1 ? stripX1 : -Infinity, n.x1);
  }
  const drop = new Set<RawLine>();
  for (const strip of strips) {
    if (strip.length < 3) continue;
    strip.sort((a, b) => a.y0 - b.y0);
    const x0 = Math.min(...strip.map((l) => l.x0));
    const x1 = Math.max(...strip.map((l) => l.x1));
    const inStrip = new Set(strip);
    if (lines.some((l) => !inStrip.has(l) && l.x0 < x1 && l.x1 > x0)) continue;
    let steady = true;
    let rate: number | null = null;
    for (let k = 1; k < strip.length && steady; k++) {
      const a = strip[k - 1] as RawLine;
      const b = strip[k] as RawLine;
      const dv = Number(b.text) - Number(a.text);
      const dy = b.y0 - a.y0;
      // numbered lines follow the text's leading (a table's numbered rows stand further apart)
      if (dv <= 0 || dy <= 0 || dy / dv > 1.8 * a.size) steady = false;
      else if (rate === null) rate = dv / dy;
      else if (Math.abs(dv / dy - rate) > 0.2 * rate) steady = false;
    }
    // ...beside lines of text: most numbered rows hold a line of prose (a table's numbered rows hold cells)
    const rowsWithProse = strip.filter((n) =>
      lines.some((l) => !inStrip.has(l) && vOverlap(l, n) > 0 && l.text.trim().length >= 15),
    ).length;
    if (steady && rowsWithProse >= 0.6 * strip.length) for (const l of strip) drop.add(l);
  }
  if (drop.size === 0) return page;
  // the numbers split the text into one block per line: lines following each other at the text's leading,
  // at the same indent and size, are one block again
  const blocks: RawBlock[] = [];
  for (const b of page.blocks) {
    const kept = b.lines.filter((l) => !drop.has(l));
    if (kept.length === 0) continue;
    const prev = blocks[blocks.length - 1];
    const last = prev?.lines[prev.lines.length - 1];
    const first = kept[0] as RawLine;
    if (
      prev &&
      last &&
      Math.abs(first.x0 - last.x0) < 2 &&
      first.size === last.size &&
      first.y0 >= last.y0 &&
      first.y0 - last.y1 < 0.6 * first.size
    ) {
      prev.lines.push(...kept);
      prev.x1 = Math.max(prev.x1, ...kept.map((l) => l.x1));
      prev.y1 = Math.max(prev.y1, ...kept.map((l) => l.y1));
    } else
      blocks.push({
        x0: Math.min(...kept.map((l) => l.x0)),
        y0: Math.min(...kept.map((l) => l.y0)),
        x1: Math.max(...kept.map((l) => l.x1)),
        y1: Math.max(...kept.map((l) => l.y1)),
        lines: kept,
      });
  }
  return { ...page, blocks };
}

/** Characters that mark program text (not prose punctuation). */
const CODE_SYMBOLS = /[{}[\]()<>=;#$\\/|_*+~^&%@]/g;

/**
 * Code and monospaced listings: runs of raw blocks set entirely in a monospaced font, one block of lines as
 * set (indentation from their x offsets). On a page mostly in a monospaced face (a typewritten letter) only runs
 * dense in program symbols count; a single line needs one. Returns the listings and the raw blocks they took.
 */
export function findCode(page: RawPage): { code: CodeBlock[]; used: Set<RawBlock> } {
  const used = new Set<RawBlock>();
  const code: CodeBlock[] = [];
  let monoChars = 0;
  let chars = 0;
  for (const b of page.blocks)
    for (const l of b.lines) {
      const n = l.text.trim().length;
      chars += n;
      if (l.mono) monoChars += n;
    }
  if (monoChars === 0) return { code, used };
  const typewritten = monoChars > 0.6 * chars;
  const runs: RawBlock[][] = [];
  let run: RawBlock[] = [];
  for (const b of page.blocks) {
    const allMono = b.lines.length > 0 && b.lines.every((l) => l.mono);
    const last = run[run.length - 1];
    const size = b.lines[0]?.size ?? 10;
    if (allMono && last && b.y0 - last.y1 <= 1.5 * size && b.y0 >= last.y0) run.push(b);
    else {
      if (run.length) runs.push(run);
      run = allMono ? [b] : [];
    }
  }
  if (run.length) runs.push(run);
  for (const r of runs) {
    const raw = r.flatMap((b) => b.lines);
    const text = raw.map((l) => l.text).join('');
    const symbols = text.match(CODE_SYMBOLS)?.length ?? 0;
    // one line without a program symbol is a word set in a monospaced face (a title, a name), not a listing
    if (
      text.replace(/\s/g, '').length < 2 ||
      (typewritten && symbols < 0.02 * text.length) ||
      (raw.length === 1 && symbols === 0)
    )
      continue;
    code.push(listing(raw));
    for (const b of r) used.add(b);
  }
  return { code, used };
}

/**
 * A listing's lines as set: fragments on one baseline joined with as many spaces as their gap holds
 * characters, each line indented by its offset from the leftmost line (in character widths), the spaces
 * inside the text kept (mupdf preserves them).
 */
function listing(raw: RawLine[]): CodeBlock {
  const sizes = raw.map((l) => l.size).sort((a, b) => a - b);
  const em = 0.6 * (sizes[sizes.length >> 1] ?? 10);
  const x0 = Math.min(...raw.map((l) => l.x0));
  const rows: RawLine[][] = [];
  for (const l of [...raw].sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1) || a.x0 - b.x0)) {
    const row = rows[rows.length - 1];
    const last = row?.[row.length - 1];
    if (row && last && vOverlap(l, last) > 0.5 * Math.min(l.y1 - l.y0, last.y1 - last.y0)) row.push(l);
    else rows.push([l]);
  }
  const spaces = (width: number): string => ' '.repeat(Math.max(0, Math.round(width / em)));
  const lines = rows.map((row) => {
    row.sort((a, b) => a.x0 - b.x0);
    let text = spaces((row[0] as RawLine).x0 - x0);
    let prevX1: number | null = null;
    for (const l of row) {
      if (prevX1 !== null) text += spaces(l.x0 - prevX1) || ' ';
      text += l.text.trimEnd();
      prevX1 = l.x1;
    }
    return text;
  });
  return {
    kind: 'code',
    x0,
    y0: Math.min(...raw.map((l) => l.y0)),
    x1: Math.max(...raw.map((l) => l.x1)),
    y1: Math.max(...raw.map((l) => l.y1)),
    lines,
  };
}

/**
 * One block of a form's side-by-side blocks (page-tables.ts, `formBlock`) as one text block, a line per row: its
 * lines are an address or `label  value` pairs, not a sentence, so they are not joined into one; a wide gap inside
 * a line (between a label and its value) is kept as two spaces.
 */
export function formColumn(cells: RawLine[][]): TextBlock {
  const lines = cells.flatMap((cell) => mergeLines(cell));
  const block = toTextBlock(lines);
  const text = cells.map((cell) =>
    undoubleWords(
      composeAccents(
        [...cell]
          .sort((a, b) => a.x0 - b.x0)
          .map((l) => l.text.trim())
          .join(' ')
          .replace(/[^\S\n]{2,}/g, '  ')
          .replace(/[^\S\n ]/g, ' '),
      ),
    ),
  );
  return { ...block, lineCount: cells.length, text: text.join('\n') };
}

/**
 * One page's blocks: column gutter first (so tables never pair lines across columns), then tables (they take
 * their lines), the rest merged into text blocks, all in reading order.
 */
export function layoutPage(raw: RawPage): PageLayout {
  const cleaned = dropLineNumbers(dropOverprintedLines(raw));
  // listings first: their aligned columns of code are not tables
  const listings = findCode(cleaned);
  const page = listings.used.size
    ? { ...cleaned, blocks: cleaned.blocks.filter((b) => !listings.used.has(b)) }
    : cleaned;
  const gutter = findGutter(cleaned.blocks, page.width, page.height);
  const lines = page.blocks.flatMap((b) => b.lines);
  const regions =
    gutter === null
      ? [lines]
      : [
          lines.filter((l) => l.x1 <= gutter),
          lines.filter((l) => l.x0 >= gutter),
          lines.filter((l) => l.x0 < gutter && l.x1 > gutter),
        ];
  const tables: TableBlock[] = [];
  const used = new Set<RawLine>();
  const text: TextBlock[] = [];
  for (const region of regions) {
    const found = detectTables(region);
    tables.push(...found.tables);
    for (const l of found.used) used.add(l);
    for (const column of found.forms) text.push(formColumn(column));
  }
  for (const b of page.blocks) {
    const rest = used.size ? b.lines.filter((l) => !used.has(l)) : b.lines;
    if (rest.length === 0) continue;
    const merged = mergeLines(rest);
    for (const group of splitParagraphs(merged)) text.push(toTextBlock(group));
  }
  const blocks = orderBlocks<PageBlock>([...text, ...tables, ...listings.code], gutter);
  return { pageNumber: page.pageNumber, width: page.width, height: page.height, blocks };
}
