// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ConversionResult } from '@lectern/contracts';
import { makePdf, pdfString, pdfTextAt, type PdfPageSpec } from '@lectern/testing';
import { createConversionEngine, type ConversionEngine, type PdfEngine } from '../index.js';
import { dropLineNumbers, dropOverprintedLines, layoutPage } from './page-layout.js';
import { block, line, page } from './page-fixtures.testkit.js';

// What a reader sees is what both PDF engines extract: glyphs outside the page's crop box or clip are not
// text, and a glyph printed again over itself ("fake bold") is one glyph. Generated PDFs, both engines (the
// native one where it is built, as in CI).
const ADDON = fileURLToPath(new URL('../../native/build/Release/lectern_mupdf.node', import.meta.url));
const ENGINES: PdfEngine[] = existsSync(ADDON) ? ['wasm', 'native'] : ['wasm'];
const engines = new Map(
  ENGINES.map((e) => [e, createConversionEngine({ pdfEngine: e, pdfWorkers: 1 })] as [PdfEngine, ConversionEngine]),
);
afterAll(() => Promise.all([...engines.values()].map((e) => e.close())));

const show = (x: number, y: number, text: string, font = 'F1', size = 11): string => pdfTextAt(x, y, text, size, font);
/** `text` in Courier (advance 0.6 em) with every glyph drawn once per offset in `copies`, before the next glyph. */
const overprinted = (x: number, y: number, text: string, size: number, copies: number[]): string =>
  `BT /F3 ${size} Tf ${[...text].map((c, i) => copies.map((d) => `1 0 0 1 ${(x + i * size * 0.6 + d).toFixed(2)} ${y} Tm (${pdfString(c)}) Tj`).join(' ')).join(' ')} ET`;
const BODY = [
  'The planning committee met on Tuesday to consider the application for the new library.',
  'Members discussed the design, the materials and the effect on the conservation area.',
];
const body = (y: number): string => BODY.map((l, i) => show(72, y - i * 16, l)).join('\n');

async function convertAll(pages: PdfPageSpec[]): Promise<ConversionResult[]> {
  const bytes = makePdf(pages);
  return Promise.all(
    [...engines.values()].map((e) => e.convert({ bytes, filename: 'generated.pdf' }, { enableOcr: false })),
  );
}

describe('PDF text fidelity: both engines extract what a reader sees', () => {
  it('a heading in fake bold (each glyph overprinted two or three times) reads once, with either engine', async () => {
    const results = await convertAll([
      {
        content: [
          overprinted(72, 700, 'Contents', 20, [0, 0.3, 0.6]),
          body(670),
          overprinted(72, 620, 'Summary', 14, [0, 0.5]),
          body(590),
        ].join('\n'),
      },
    ]);
    for (const r of results) {
      expect(r.headings.map((h) => h.title)).toEqual(['Contents', 'Summary']);
      expect(r.markdown).not.toMatch(/CCo|Coo|onn|SSu|Suu/);
    }
    expect(new Set(results.map((r) => r.markdown)).size).toBe(1);
  });

  it('glyphs drawn apart (a real double letter, or a copy a tenth of the size away) are kept', async () => {
    const results = await convertAll([
      {
        content: [overprinted(72, 700, 'AB', 10, [0, 1.5]), show(72, 660, 'Committee Aardvark'), body(620)].join('\n'),
      },
    ]);
    for (const r of results) {
      expect(r.markdown).toContain('AABB');
      expect(r.markdown).toContain('Committee Aardvark');
    }
    expect(new Set(results.map((r) => r.markdown)).size).toBe(1);
  });

  it('a whole line printed twice a fraction of a point apart reads once', async () => {
    const heading =
      show(72, 700, 'Contents of the report', 'F2', 18) + '\n' + show(72.4, 700.2, 'Contents of the report', 'F2', 18);
    const results = await convertAll([{ content: `${heading}\n${body(660)}` }]);
    for (const r of results) expect(r.headings.map((h) => h.title)).toEqual(['Contents of the report']);
    expect(new Set(results.map((r) => r.markdown)).size).toBe(1);
  });

  it("a printer's proof: slug lines, crop marks and margin numbers outside the crop box are dropped", async () => {
    const marks = [
      show(5, 770, 'freeculture.pdf 12/3/03 2:50 PM Page 12'),
      show(580, 400, 'CROPMARK'),
      show(10, 10, 'Proof 1 of 352'),
      ...BODY.map((_, i) => show(20, 700 - i * 16, String(i + 1))), // line numbers left of the crop box
    ];
    const results = await convertAll([{ content: [body(700), ...marks].join('\n'), cropBox: [36, 36, 576, 756] }]);
    for (const r of results) {
      expect(r.markdown.trim()).toBe(BODY.join(' '));
      expect(r.pages[0]?.char_count).toBe(BODY.join(' ').length);
    }
  });

  it('text outside the clip path, or cut off at the page edge, is dropped; a glyph partly on the page stays', async () => {
    const results = await convertAll([
      {
        content: [
          'q 100 100 50 50 re W n',
          show(300, 400, 'hidden by the clip'),
          'Q',
          body(700),
          // Courier 10: 6 pt a glyph; the crop box starts at x=100, "ABCDEFGH" at 95 leaves 1 pt of A visible
          show(95, 500, 'ABCDEFGH', 'F3', 10),
          show(70, 450, 'ABCDEFGH', 'F3', 10),
        ].join('\n'),
        cropBox: [100, 100, 560, 760],
      },
    ]);
    for (const r of results) {
      expect(r.markdown).not.toContain('hidden');
      expect(r.markdown).toContain('ABCDEFGH');
      expect(r.markdown).toMatch(/(^|\s)FGH(\s|$)/);
    }
    expect(new Set(results.map((r) => r.markdown)).size).toBe(1);
  });
});

describe('dropOverprintedLines', () => {
  it('drops a line repeating an earlier one within a tenth of its size, keeps a repeat elsewhere', () => {
    const p = page([
      block([line('Contents', 72, 100, { size: 18 }), line('Contents', 72.5, 100.5, { size: 18 })]),
      block([line('Contents', 72, 300, { size: 18 }), line('Other text', 72, 320)]),
    ]);
    const out = dropOverprintedLines(p);
    expect(out.blocks.map((b) => b.lines.map((l) => `${l.text}@${l.y0}`))).toEqual([
      ['Contents@100'],
      ['Contents@300', 'Other text@320'],
    ]);
    const plain = page([block([line('One', 72, 100), line('Two', 72, 120)])]);
    expect(dropOverprintedLines(plain)).toBe(plain);
  });
});

describe('margin line numbers', () => {
  const PROSE = Array.from(
    { length: 20 },
    (_, i) => `Line ${i + 1} of a story about free culture and how ideas move freely.`,
  );

  it.each([
    ['every line, in the left margin', (i: number) => show(40, 740 - i * 14, String(i + 1))],
    ['every fifth line, in the left margin', (i: number) => (i % 5 === 4 ? show(40, 740 - i * 14, String(i + 1)) : '')],
    ['every line, in the right margin', (i: number) => show(540, 740 - i * 14, String(i + 1))],
  ])('numbered %s: one paragraph of prose, no numbers, no table', async (_name, number) => {
    const content = PROSE.map((l, i) => `${show(72, 740 - i * 14, l)}\n${number(i)}`).join('\n');
    for (const r of await convertAll([{ content }])) {
      expect(r.tables).toEqual([]);
      expect(r.markdown.trim()).toBe(PROSE.join(' '));
    }
  });

  it("keeps a table's numbered rows (short cells, rows further apart than the text's leading)", () => {
    const rows = Array.from({ length: 6 }, (_, i) => [
      line(String(i + 1), 60, 100 + i * 22, { size: 10 }),
      line('+', 500, 100 + i * 22, { size: 10 }),
    ]);
    const p = page([block(rows.flat())]);
    expect(dropLineNumbers(p)).toBe(p);
    // the same strip at the leading of prose lines beside it does go
    const prose = page([
      block(
        Array.from({ length: 6 }, (_, i) => [
          line(String(i + 1), 40, 100 + i * 14),
          line(PROSE[i] as string, 72, 100 + i * 14),
        ]).flat(),
      ),
    ]);
    expect(dropLineNumbers(prose).blocks.flatMap((b) => b.lines.map((l) => l.text))).toEqual(PROSE.slice(0, 6));
  });
});

describe('a shadow drawn as a second copy further away than the overprint rule', () => {
  it('reads once: a word whose every letter is doubled is halved, with either engine', async () => {
    // "Contents" with each glyph drawn twice 2 pt apart (more than a tenth of 14 pt): mupdf keeps both copies
    const results = await convertAll([{ content: `${overprinted(72, 700, 'Contents', 14, [0, 2])}\n${body(670)}` }]);
    for (const r of results) expect(r.headings.map((h) => h.title)).toEqual(['Contents']);
    expect(new Set(results.map((r) => r.markdown)).size).toBe(1);
  });

  it('leaves words with some double letters alone', () => {
    const p = page([block([line('bookkeeper committee Mississippi aabbccdd', 72, 100)])]);
    expect(layoutPage(p).blocks.map((b) => (b.kind === 'text' ? b.text : ''))).toEqual([
      'bookkeeper committee Mississippi abcd',
    ]);
  });
});
