// SPDX-License-Identifier: AGPL-3.0-or-later
import { makeTextPdf } from '@lectern/testing';
import { decodePng as decode, pixelAt as pixel } from '../testing/decode-png.js';
import { findTextQuads, openPdfPages, renderPagePng } from './page-image.js';

const pdf = makeTextPdf([
  ['# Widget W-100', 'Rated torque 0.64 N.m at 3000 rpm', 'Torque con-', 'stant 0.41 N.m/A'],
  ['# Page two', 'Mass | 0.104 kg', 'Rated current 1.6 A'],
]);

describe('page images and quads (mupdf)', () => {
  it('finds a snippet by whitespace-, case- and Markdown-tolerant search, with page size in points', async () => {
    const exact = await findTextQuads(pdf, 1, 'Rated torque 0.64 N.m');
    expect(exact).toMatchObject({ page_width: 612, page_height: 792 });
    expect(exact.quads).toHaveLength(1);
    expect(exact.quads[0]).toHaveLength(8);
    // top-left origin: the first body line is near the top of the page (y well under half the height)
    expect(exact.quads[0]![1]).toBeLessThan(200);
    const loose = await findTextQuads(pdf, 1, '  RATED   torque\n0.64 N.m ');
    expect(loose.quads).toEqual(exact.quads);
    // a table row as the converter writes it: found by its cells on one line
    const row = await findTextQuads(pdf, 2, '| Mass | 0.104 kg |');
    expect(row.quads.length).toBeGreaterThan(0);
    // a word hyphenated at a line end
    expect((await findTextQuads(pdf, 1, 'Torque constant 0.41')).quads.length).toBeGreaterThan(0);
    // not on that page
    expect((await findTextQuads(pdf, 2, 'Rated torque 0.64')).quads).toEqual([]);
    // parts found in different places of the page are not a row
    expect((await findTextQuads(pdf, 1, '| Rated torque | 99.9 kg |')).quads).toEqual([]);
  });

  it('knows which pages hold a text, and refuses pages outside the document (typed)', async () => {
    const pages = await openPdfPages(pdf);
    try {
      expect(pages.pageCount).toBe(2);
      expect(pages.pagesWith('rated current 1.6')).toEqual([2]);
      expect(() => pages.find(3, 'x')).toThrow(expect.objectContaining({ code: 'page_not_found', httpStatus: 404 }));
    } finally {
      pages.close();
    }
    await expect(findTextQuads(Buffer.from('not a pdf'), 1, 'x')).rejects.toMatchObject({
      code: 'not_a_pdf',
      httpStatus: 415,
    });
  });

  it('renders a page at the asked dpi with translucent highlight boxes over the quads, within bounds', async () => {
    const { quads } = await findTextQuads(pdf, 1, 'Rated torque 0.64');
    const plain = await decode(await renderPagePng(pdf, { page: 1, dpi: 72 }));
    expect([plain.width, plain.height]).toEqual([612, 792]);
    const lit = await decode(await renderPagePng(pdf, { page: 1, dpi: 144, highlights: quads }));
    expect([lit.width, lit.height]).toEqual([1224, 1584]);
    const q = quads[0]!;
    // a point inside the quad's first letters' box but off the glyphs: above the baseline at the left edge
    const inside = pixel(lit, (q[0]! + 1) * 2, (q[1]! + 1) * 2);
    expect(inside[2]).toBeLessThan(200); // yellow-ish: blue reduced
    expect(inside[0]).toBeGreaterThan(150);
    const outside = pixel(lit, 600, 1500);
    expect(outside).toEqual([255, 255, 255]);
    // bounded: too many pixels → drawn smaller; dpi, page number and highlights refused when out of range
    const small = await decode(await renderPagePng(pdf, { page: 1, dpi: 200, maxPixels: 100_000 }));
    expect(small.width * small.height).toBeLessThanOrEqual(100_000);
    await expect(renderPagePng(pdf, { page: 1, dpi: 500 })).rejects.toMatchObject({ httpStatus: 400 });
    await expect(renderPagePng(pdf, { page: 0 })).rejects.toMatchObject({ code: 'page_not_found' });
    await expect(renderPagePng(pdf, { page: 3 })).rejects.toMatchObject({ code: 'page_not_found' });
    await expect(renderPagePng(pdf, { page: 1, highlights: [[1, 2, 3]] })).rejects.toMatchObject({ httpStatus: 400 });
  });
});
