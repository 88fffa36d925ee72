// SPDX-License-Identifier: AGPL-3.0-or-later
import { openPdfPages, renderGrayPages, renderPagePng, type OcrWord } from '@lectern/conversion';
import { writeFileSync } from 'node:fs';
import { makePdf, pdfTextAt } from '@lectern/testing';
import type { SchemaField } from '../schema-fields.js';
import { withOcrPages } from './ocr-pages.js';
import { spansFromOcrWords } from './ocr-spans.js';
import { gridCells, layoutPairs, readPageSpans } from './page-layout.js';

const field = (name: string, hint = ''): SchemaField => ({ path: [name], hint, kind: 'scalar' }) as SchemaField;

/** A page of `content` rasterised at `dpi` and wrapped as the only thing on an image-only page, turned `degrees`. */
const scanOf = async (content: string, degrees: number, dpi = 200): Promise<Buffer> => {
  const [page] = await renderGrayPages(makePdf([{ content }]), dpi);
  const t = (degrees * Math.PI) / 180;
  const [c, s] = [Math.cos(t), Math.sin(t)];
  const f = (n: number) => n.toFixed(4);
  return makePdf([
    {
      // the image's unit square to the page, turned about its bottom-left corner (a scanner's tilt)
      content: `q ${f(612 * c)} ${f(612 * s)} ${f(-792 * s)} ${f(792 * c)} ${f(792 * s)} 0 cm /Im1 Do Q`,
      image: page!,
    },
  ]);
};

describe('the page layout of a scanned page from its OCR words (round 14)', () => {
  it('pairs labels with their values and reads a grid on an image-only page tilted a degree', async () => {
    const content = [
      pdfTextAt(72, 720, 'Nominal voltage', 12),
      pdfTextAt(400, 720, '24 V', 12),
      pdfTextAt(72, 696, 'Rated current', 12),
      pdfTextAt(400, 696, '16 A', 12),
      pdfTextAt(72, 672, 'Operating temperature', 12),
      pdfTextAt(400, 672, '-20 to 60 C', 12),
      pdfTextAt(72, 600, 'Model', 12),
      pdfTextAt(300, 600, 'KR-05', 12),
      pdfTextAt(420, 600, 'KR-12', 12),
      pdfTextAt(72, 576, 'Coil resistance', 12),
      pdfTextAt(300, 576, '47 ohm', 12),
      pdfTextAt(420, 576, '272 ohm', 12),
    ].join('\n');
    const pdf = await scanOf(content, 1, 300);
    const pages = await readPageSpans(pdf);
    // (a line of text 330 pt wide rises 6 pt over its length at 1°: read by raw y, each label would sit between two
    // values' lines)
    // (the OCR may read "24 V" as one word: the values compared without spaces)
    const bare = (t: string) => t.replace(/\s+/g, '');
    const pairs = layoutPairs(pages, [field('nominal_voltage'), field('rated_current')]).map((p) => [
      p.label.text,
      bare(p.value.text),
      p.where,
    ]);
    expect(pairs).toEqual(
      expect.arrayContaining([
        ['Nominal voltage', '24V', 'right'],
        ['Rated current', '16A', 'right'],
        ['Operating temperature', '-20to60C', 'right'],
      ]),
    );
    const cells = gridCells(pages).map((c) => [c.row.text, c.column.text, bare(c.value.text)]);
    expect(cells).toEqual([
      ['Coil resistance', 'KR-05', '47ohm'],
      ['Coil resistance', 'KR-12', '272ohm'],
    ]);
    // the spans are where the text is on the page, within the tilt (the label's left edge at 72 pt, its line near
    // 792 - 720 pt from the top)
    const label = pages[0]!.find((s) => s.text === 'Nominal voltage')!;
    expect(Math.abs(label.x0 - 72)).toBeLessThan(12);
    expect(Math.abs((label.y0 + label.y1) / 2 - (792 - 720 - 4))).toBeLessThan(14);
    // the evidence of a scanned page: found in the OCR's text, its quads the words' boxes on the page, tilted with it
    const search = withOcrPages(await openPdfPages(pdf), pages);
    try {
      expect(search.pagesWith('Nominal voltage\n…\n24 V')).toEqual([1]);
      const found = search.find(1, 'Nominal voltage\n…\n24 V');
      expect(found.quads).toHaveLength(2);
      const [labelQuad, valueQuad] = [...found.quads].sort((a, b) => a[0]! - b[0]!);
      // (the image turned 1° counter-clockwise about its bottom-left corner: a point (x, y) of the page drawn at
      // 72 dpi moves to x cos - (792 - y) sin … ; the label's upper-left corner is within a few points of it)
      const t = Math.PI / 180;
      const at = (x: number, yUp: number) => [
        x * Math.cos(t) - yUp * Math.sin(t) + 792 * Math.sin(t),
        792 - (x * Math.sin(t) + yUp * Math.cos(t)),
      ];
      const [ex, ey] = at(72, 720 + 9);
      expect(Math.abs(labelQuad![0]! - ex!)).toBeLessThan(4);
      expect(Math.abs(labelQuad![1]! - ey!)).toBeLessThan(4);
      const [vx, vy] = at(400, 720 + 9);
      expect(Math.abs(valueQuad![0]! - vx!)).toBeLessThan(4);
      expect(Math.abs(valueQuad![1]! - vy!)).toBeLessThan(4);
      expect(search.find(1, 'Nominal voltage\n…\n25 V').quads).toEqual([]);
      if (process.env['OCR26_PNG'])
        writeFileSync(process.env['OCR26_PNG'], await renderPagePng(pdf, { page: 1, highlights: found.quads }));
    } finally {
      search.close();
    }
  }, 60_000);

  it('levels a tilted page’s lines and leaves out a value with a digit the OCR was unsure of', () => {
    // two lines of a label and a value far apart, tilted 1.5° (y grows 0.026 px per px to the right)
    const slope = Math.tan((1.5 * Math.PI) / 180);
    const word = (text: string, line: string, left: number, top: number, confidence = 95): OcrWord => ({
      text,
      line,
      left,
      top: top + left * slope,
      width: text.length * 20,
      height: 40,
      confidence,
    });
    const words = [
      word('Nominal', '1.1.1', 100, 1000),
      word('voltage', '1.1.1', 260, 1000),
      word('32', '2.1.1', 1800, 1000, 61),
      word('V', '2.1.1', 1860, 1000),
      word('Rated', '1.1.2', 100, 1060),
      word('current', '1.1.2', 230, 1060),
      word('16', '2.1.2', 1800, 1060),
      word('A', '2.1.2', 1860, 1060),
    ];
    const spans = spansFromOcrWords(1, words, 300 / 72);
    expect(spans.map((s) => s.text)).toEqual(['Nominal voltage', '32 V', 'Rated current', '16 A']);
    // levelled: each value on its label's line (at 1.5° the value 1700 px to the right is 44 px lower: the next line)
    const pairs = layoutPairs([spans], [field('nominal_voltage'), field('rated_current')]);
    expect(pairs.map((p) => [p.label.text, p.value.text])).toEqual([['Rated current', '16 A']]);
    expect(spans[1]!.uncertain).toBe(true);
  });
});
