// SPDX-License-Identifier: AGPL-3.0-or-later
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { createConversionEngine } from './index.js';

/** One engine for the whole file (it owns the mupdf and tesseract workers); closed after the last test. */
const engine = createConversionEngine();
afterAll(() => engine.close());

const cell = (text: string): TableCell => new TableCell({ children: [new Paragraph(text)] });

async function makeDocx(): Promise<Uint8Array> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Site Allocation Report', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('This report sets out the housing allocations for the plan period.'),
          new Paragraph({ text: 'Housing numbers', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ children: [new TextRun('Allocations by site are listed below.')] }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Site'), cell('Homes'), cell('Phase')] }),
              new TableRow({ children: [cell('Canley Gardens'), cell('120'), cell('2026-2030')] }),
              new TableRow({ children: [cell('Stoke Green'), cell('85'), cell('2031-2035')] }),
            ],
          }),
          new Paragraph({ text: 'Delivery', heading: HeadingLevel.HEADING_3 }),
          new Paragraph('Delivery is monitored each year.'),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

const HTML = `<!doctype html><html><head><title>Parking standards</title><style>p{color:red}</style>
<script>document.write('never')</script></head><body>
<nav><a href="/">Home</a></nav>
<h1>Parking standards</h1><p>Standards for new <b>residential</b> development.</p>
<h2>Car parking</h2>
<table><tr><td>Dwelling size</td><td>Spaces</td></tr>
<tr><td>1 bedroom</td><td>1</td></tr><tr><td>3+ bedrooms</td><td><p>2</p><p>(plus visitor)</p></td></tr></table>
<h3>Cycle parking</h3><ul><li>One space per bedroom</li><li>Covered and secure</li></ul>
</body></html>`;

describe('convertDocument: DOCX, HTML, TXT and MD', () => {
  it('converts a DOCX with its heading hierarchy and table', async () => {
    const r = await engine.convert({ bytes: await makeDocx(), filename: 'allocations.docx' });
    expect(r.detected_type).toBe('docx');
    expect(r.headings.map((h) => [h.level, h.title])).toEqual([
      [1, 'Site Allocation Report'],
      [2, 'Housing numbers'],
      [3, 'Delivery'],
    ]);
    expect(r.tables).toHaveLength(1);
    const table = r.markdown.slice(r.tables[0]?.start, r.tables[0]?.end);
    expect(table.split('\n')).toEqual([
      '| Site | Homes | Phase |',
      '| --- | --- | --- |',
      '| Canley Gardens | 120 | 2026-2030 |',
      '| Stoke Green | 85 | 2031-2035 |',
    ]);
    // the table sits under its heading, before the next one
    const h2 = r.headings[1]?.offset ?? -1;
    const h3 = r.headings[2]?.offset ?? -1;
    expect(r.tables[0]?.start).toBeGreaterThan(h2);
    expect(r.tables[0]?.end).toBeLessThan(h3);
    expect(r.page_count).toBe(1);
    expect(r.page_map).toEqual([{ offset: 0, page: 1 }]);
  });

  it('converts HTML to readable Markdown, keeping headings and tables and dropping scripts and styles', async () => {
    const r = await engine.convert({ bytes: new TextEncoder().encode(HTML), filename: 'parking.html' });
    expect(r.detected_type).toBe('html');
    expect(r.title).toBe('Parking standards');
    expect(r.headings.map((h) => [h.level, h.title])).toEqual([
      [1, 'Parking standards'],
      [2, 'Car parking'],
      [3, 'Cycle parking'],
    ]);
    expect(r.markdown).not.toContain('never');
    expect(r.markdown).not.toContain('color:red');
    expect(r.markdown).toContain('Standards for new **residential** development.');
    expect(r.tables).toHaveLength(1);
    const table = r.markdown.slice(r.tables[0]?.start, r.tables[0]?.end);
    expect(table.split('\n')).toEqual([
      '| Dwelling size | Spaces |',
      '| --- | --- |',
      '| 1 bedroom | 1 |',
      '| 3+ bedrooms | 2 (plus visitor) |',
    ]);
    expect(r.markdown).toMatch(/^- One space per bedroom$/m);
  });

  it('passes Markdown through and indexes its headings and tables (not inside code fences)', async () => {
    const md = '# Title\n\nIntro.\n\n```\n# not a heading\n```\n\n## Part\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nEnd.\n';
    const r = await engine.convert({ bytes: new TextEncoder().encode(md), filename: 'notes.md' });
    expect(r.detected_type).toBe('md');
    expect(r.headings.map((h) => h.title)).toEqual(['Title', 'Part']);
    expect(r.tables).toHaveLength(1);
    expect(r.markdown.slice(r.tables[0]?.start, r.tables[0]?.end)).toBe('| a | b |\n|---|---|\n| 1 | 2 |');
  });

  it('reads legacy Windows-1252 text and HTML', async () => {
    // "café £5 – naïve" in Windows-1252
    const cp1252 = new Uint8Array([
      0x63, 0x61, 0x66, 0xe9, 0x20, 0xa3, 0x35, 0x20, 0x96, 0x20, 0x6e, 0x61, 0xef, 0x76, 0x65,
    ]);
    const txt = await engine.convert({ bytes: cp1252, filename: 'legacy.txt' });
    expect(txt.markdown).toBe('café £5 – naïve');
    const html = new Uint8Array([
      ...new TextEncoder().encode('<html><body><h1>Menu</h1><p>'),
      ...cp1252,
      ...new TextEncoder().encode('</p></body></html>'),
    ]);
    const page = await engine.convert({ bytes: html, filename: 'legacy.htm' });
    expect(page.markdown).toBe('# Menu\n\ncafé £5 – naïve');
  });

  it('keeps plain text as text (a leading "#" is not a heading)', async () => {
    const txt = 'Minutes of the meeting\r\n# 3 items were agreed\r\nNext meeting in May.\r\n';
    const r = await engine.convert({ bytes: new TextEncoder().encode(txt), filename: 'minutes.txt' });
    expect(r.detected_type).toBe('txt');
    expect(r.headings).toEqual([]);
    expect(r.pages[0]?.text).toBe('Minutes of the meeting\n# 3 items were agreed\nNext meeting in May.');
    expect(r.method).toBe('text_layer');
  });
});
