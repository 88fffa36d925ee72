// SPDX-License-Identifier: AGPL-3.0-or-later
import type { TextBlock } from './layout.js';
import { findGutter, joinLines, layoutPage, mergeLines } from './page-layout.js';
import { block, line, page, stack, PAGE } from './page-fixtures.testkit.js';
import type { RawBlock } from './pdf-page.protocol.js';

const words = (prefix: string, n: number): string[] =>
  Array.from({ length: n }, (_, k) => `${prefix} line ${k + 1} of the column text`);

/** A two-column article: a full-width title, two paragraphs per column, a full-width footer note. */
function twoColumnPage() {
  const title = block([line('Tracing the hot paths of a dynamic language', 72, 60, { size: 18, bold: true })]);
  const l1 = block(stack(words('L1', 12), 72, 100));
  const l2 = block(stack(words('L2', 12), 72, 290));
  const r1 = block(stack(words('R1', 12), 320, 100));
  const r2 = block(stack(words('R2', 12), 320, 290));
  const footer = block([
    line('Footer: copyright the authors, released under a licence allowing reuse with attribution', 72, 720),
  ]);
  // extraction order interleaves the columns, as mupdf does for blocks at the same height
  return page([title, l1, r1, l2, r2, footer]);
}

const firstWords = (blocks: { kind: string }[]): string[] =>
  blocks.map((b) => (b.kind === 'text' ? ((b as TextBlock).text.split(' ')[0] ?? '') : 'TABLE'));

describe('layoutPage (page-layout.ts)', () => {
  it('reads a two-column page column by column between full-width blocks', () => {
    const laid = layoutPage(twoColumnPage());
    expect(firstWords(laid.blocks)).toEqual(['Tracing', 'L1', 'L2', 'R1', 'R2', 'Footer:']);
    expect(laid).toMatchObject({ pageNumber: 1, width: PAGE.width, height: PAGE.height });
  });

  it('reads a one-column page top to bottom', () => {
    const laid = layoutPage(
      page([block(stack(['Second paragraph.'], 72, 200)), block(stack(['First paragraph.'], 72, 100))]),
    );
    expect(firstWords(laid.blocks)).toEqual(['First', 'Second']);
  });

  it('splits a heading from the paragraph under it in the same raw block', () => {
    const heading = line('1. Introduction', 72, 100, { size: 16, bold: true });
    const body = stack(
      ['Local plans set out a vision and a framework', 'for the future development of the area.'],
      72,
      124,
    );
    const [h, p, ...rest] = layoutPage(page([block([heading, ...body])])).blocks;
    expect(rest).toEqual([]);
    expect(h).toMatchObject({ kind: 'text', text: '1. Introduction', size: 16, bold: true, lineCount: 1 });
    expect(p).toMatchObject({
      kind: 'text',
      text: 'Local plans set out a vision and a framework for the future development of the area.',
      size: 10,
      bold: false,
      lineCount: 2,
    });
  });

  it('makes each bullet its own paragraph', () => {
    const laid = layoutPage(
      page([block(stack(['• homes for local needs', '• jobs near transport', '• green spaces'], 72, 100))]),
    );
    expect(laid.blocks.map((b) => (b as TextBlock).text)).toEqual([
      '• homes for local needs',
      '• jobs near transport',
      '• green spaces',
    ]);
  });

  it('takes an aligned table out of the text, in its place in the reading order', () => {
    const cols = [72, 220, 320];
    const row = (cells: string[], y: number) => cells.map((t, k) => line(t, cols[k] as number, y));
    const laid = layoutPage(
      page([
        block(stack(['The parts used are listed below.'], 72, 80)),
        block([
          ...row(['Part', 'Quantity', 'Price'], 120),
          ...row(['Bolt', '10', '0.50'], 134),
          ...row(['Nut', '200', '0.10'], 148),
        ]),
        block(stack(['Prices exclude delivery.'], 72, 200)),
      ]),
    );
    expect(firstWords(laid.blocks)).toEqual(['The', 'TABLE', 'Prices']);
    expect(laid.blocks[1]).toMatchObject({
      kind: 'table',
      rows: [
        ['Part', 'Quantity', 'Price'],
        ['Bolt', '10', '0.50'],
        ['Nut', '200', '0.10'],
      ],
    });
  });

  it('never pairs lines across the column gutter into a table', () => {
    // short lines side by side in two columns would line up as a two-column "table" without the gutter
    const left = block(
      stack(
        words('Left', 30).map((_, k) => `Left item ${k + 1}`),
        72,
        80,
      ),
    );
    const right = block(
      stack(
        words('Right', 30).map((_, k) => `Right item ${k + 1}`),
        320,
        80,
      ),
    );
    const laid = layoutPage(page([left, right]));
    expect(laid.blocks.map((b) => b.kind)).toEqual(['text', 'text']);
    expect(firstWords(laid.blocks)).toEqual(['Left', 'Right']);
  });
});

describe('findGutter (page-layout.ts)', () => {
  it('finds the gutter between two columns, across a full-width title', () => {
    const { blocks } = twoColumnPage();
    const gutter = findGutter(blocks, PAGE.width, PAGE.height);
    // in the clear strip between the left column's right edge and the right column's left edge (320), at the
    // x nearest the page's centre (306) on its 2-point search grid
    const leftEdge = (blocks[1] as RawBlock).x1;
    expect(leftEdge).toBeLessThan(306);
    expect(gutter).toBeGreaterThanOrEqual(leftEdge);
    expect(gutter).toBeLessThanOrEqual(320);
    expect(Math.abs((gutter as number) - PAGE.width / 2)).toBeLessThanOrEqual(1);
  });

  it('finds none on a one-column page', () => {
    const wide = block(
      stack(
        words('Body', 40).map((t) => `${t} continuing across the full measure`),
        72,
        80,
      ),
    );
    expect(findGutter([wide], PAGE.width, PAGE.height)).toBeNull();
  });

  it('finds none when the narrow blocks cover too little of the page (a short side-by-side caption)', () => {
    const blocks = [block(stack(['Figure 1'], 72, 400)), block(stack(['Figure 2'], 320, 400))];
    expect(findGutter(blocks, PAGE.width, PAGE.height)).toBeNull();
  });
});

describe('mergeLines and joinLines (page-layout.ts)', () => {
  it('joins the fragments of one visual line left to right, gluing near-touching ones', () => {
    const number = line('11.', 72, 100);
    const text = line('Design quality', 100, 100);
    const word = line('applied', 180, 100);
    const mark = line('1', word.x1 + 0.5, 99, { size: 6 }); // a footnote mark right after the word
    const [merged, ...rest] = mergeLines([word, text, mark, number]);
    expect(rest).toEqual([]);
    expect(merged).toMatchObject({ text: '11. Design quality applied1', x0: 72, size: 10, footnote: false });
  });

  it('marks a line starting with a small number as a footnote', () => {
    const note = { ...line('3 See the appendix for the method.', 72, 700), leadSize: 6 };
    expect(mergeLines([note])[0]).toMatchObject({ footnote: true });
  });

  it('composes TeX spacing accents', () => {
    expect(mergeLines([line('Br¨oker and Andr´e', 72, 100)])[0]?.text).toBe('Bröker and André');
  });

  it('marks a word hyphenated across lines for the Markdown builder; keeps the hyphen before a capital', () => {
    const lines = mergeLines(stack(['the plan-', 'making process and the Lan-', 'Guages'], 72, 100));
    expect(joinLines(lines)).toBe('the plan\u00ADmaking process and the Lan-Guages');
  });
});

// Issue 26, round 4: a form's blocks keep a line per row
describe("layoutPage: a form's two blocks side by side", () => {
  it('reads them as two paragraphs of lines, left then right, the wide gap inside a line kept', () => {
    const left = ['Invoice to', 'Coastal Living Interiors', '3/88 Marine Parade'];
    const right = ['Invoice No.  INV-20417', 'Issue date  05 Jan 2026', 'Payment terms  14 days'];
    const lines = left.flatMap((t, k) => [line(t, 72, 100 + 15 * k), line(right[k] as string, 330, 100 + 15 * k)]);
    const laid = layoutPage(page([block(lines)]));
    expect(laid.blocks.map((b) => (b.kind === 'text' ? (b as TextBlock).text : 'TABLE'))).toEqual([
      left.join('\n'),
      right.join('\n'),
    ]);
  });
});

// Issue 26, round 6: clauses and recitals set flush, one line each, in one text block (fresh variant 9's agreement)
describe('layoutPage: numbered clauses set flush with the text', () => {
  it('starts a paragraph at a clause marker after a line that ends a sentence or a lead-in, not inside a sentence', () => {
    const lines = [
      '(A) The Client designs navigation software for commercial shipping.',
      '(B) The Consultant is an independent data engineer.',
      'IT IS AGREED as follows:',
      '1. Services. The Consultant shall migrate the Client\'s voyage data platform (the "Services").',
      '2. Duration. The engagement starts on 16 March 2026 and shall continue for a fixed period of',
      'six months, unless ended earlier under clause 6.',
      '3. Fees. The Client shall pay the Consultant GBP 650 per day worked, invoiced',
      '12 months in arrears.',
    ];
    const laid = layoutPage(page([block(stack(lines, 72, 100, { leading: 15 }))]));
    expect(laid.blocks.map((b) => (b.kind === 'text' ? (b as TextBlock).text : 'TABLE'))).toEqual([
      lines[0],
      // a line without a marker goes on with the paragraph before it
      `${lines[1]} ${lines[2]}`,
      lines[3],
      // a line after "a fixed period of" goes on with the sentence; so does one starting with a bare number
      `${lines[4]} ${lines[5]}`,
      `${lines[6]} ${lines[7]}`,
    ]);
  });
});
