// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePdf, pdfString, pdfTextAt } from '@lectern/testing';
import { createConversionEngine, pageAt } from '../index.js';

// Markdown a reader trusts: page markers when asked for, words broken at line ends rejoined (compounds keep
// their hyphen), running headers and footers out of the Markdown and of the page texts. Generated PDFs.
const engine = createConversionEngine({ pdfWorkers: 1 });
afterAll(() => engine.close());

const show = (x: number, y: number, text: string, font = 'F1', size = 11): string => pdfTextAt(x, y, text, size, font);
/** Lines set 15 pt apart from y = 680 down (the body of a page: below the running-header band). */
const body = (lines: string[], y = 680): string => lines.map((l, i) => show(72, y - i * 15, l)).join('\n');
const convert = (pages: string[], options: { pageMarkers?: boolean } = {}) =>
  engine.convert(
    { bytes: makePdf(pages.map((content) => ({ content }))), filename: 'report.pdf' },
    { enableOcr: false, ...options },
  );

const PAGES = [1, 2, 3, 4].map((n) =>
  [
    show(72, 770, 'Coventry City Council - Planning Committee Report', 'F1', 8), // running header
    show(290, 30, `Page ${n} of 4`, 'F1', 8), // running footer
    show(72, 700, `Section ${n}`, 'F2', 18),
    body([
      `The committee considered item ${n} of the agenda at length on the evening of the meeting.`,
      'Members agreed to return to it at the next meeting of the committee.',
    ]),
  ].join('\n'),
);

describe('page markers', () => {
  it('off by default; on request each page starts with <!-- page N -->, where the page map points', async () => {
    const plain = await convert(PAGES);
    expect(plain.markdown).not.toContain('<!--');
    const marked = await convert(PAGES, { pageMarkers: true });
    for (const n of [1, 2, 3, 4]) {
      const at = marked.markdown.indexOf(`<!-- page ${n} -->`);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(marked.page_map.find((e) => e.page === n)?.offset).toBe(at);
      expect(pageAt(marked.page_map, at)).toBe(n);
    }
    // the rest is unchanged: headings (with their own offsets) and the text between the markers
    expect(marked.headings.map((h) => [h.title, h.page])).toEqual(plain.headings.map((h) => [h.title, h.page]));
    for (const h of marked.headings) expect(marked.markdown.slice(h.offset)).toMatch(new RegExp(`^#+ ${h.title}`));
    expect(marked.markdown.replace(/<!-- page \d+ -->\n\n/g, '')).toBe(plain.markdown);
  });
});

describe('running headers and footers', () => {
  it('are neither in the Markdown nor in the page texts', async () => {
    const r = await convert(PAGES);
    expect(r.markdown).not.toMatch(/Planning Committee Report|Page \d of 4/);
    for (const p of r.pages) {
      expect(p.text).not.toMatch(/Planning Committee Report|Page \d of 4/);
      expect(p.text).toContain(`Section ${p.page_number}`);
      expect(p.char_count).toBe(p.text.length);
    }
    // ...but handed on as the document's running headers (a search signal), page counters aside
    expect(r.running_headers).toEqual(['Coventry City Council - Planning Committee Report']);
  });

  it('are never all of a page: a page whose only text repeats at its top keeps it (a register of one-line sheets)', async () => {
    const r = await convert([1, 2, 3, 4].map((n) => show(72, 770, `Register sheet number ${n}`, 'F1', 11)));
    for (const p of r.pages) expect(p.text).toBe(`Register sheet number ${p.page_number}`);
    expect(r.markdown).toContain('Register sheet number 4');
    expect(r.running_headers).toBeUndefined();
  });
});

describe('a running header carrying the chapter name', () => {
  it('is left out however the chapter name changes', async () => {
    const chapters = ['Housing', 'Housing', 'Employment', 'Retail', 'Retail'];
    const r = await convert(
      chapters.map((c, i) =>
        [
          show(72, 770, `Coventry City Council 2017/18 Annual Monitoring Report ${c}`, 'F1', 8),
          show(72, 700, `Part ${i + 1}`, 'F2', 18),
          body(['The council monitors the delivery of new homes and jobs against the plan every year.']),
        ].join('\n'),
      ),
    );
    expect(r.markdown).not.toMatch(/Annual Monitoring Report/);
    expect(r.pages.map((p) => p.text.includes('Monitoring Report'))).toEqual([false, false, false, false, false]);
    // one text per chapter name, the most frequent first
    expect(r.running_headers).toEqual([
      'Coventry City Council 2017/18 Annual Monitoring Report Housing',
      'Coventry City Council 2017/18 Annual Monitoring Report Retail',
      'Coventry City Council 2017/18 Annual Monitoring Report Employment',
    ]);
  });
});

describe('words hyphenated at a line end', () => {
  it('are rejoined; a compound (written with its hyphen elsewhere, or both parts words of the text) keeps it; so does a hyphen before a capital', async () => {
    const r = await convert([
      body([
        'The plan-making process of the council was set out in a docu-',
        'ment that the committee read with care, and the plan-',
        'making timetable was agreed. The Anglo-',
        'Saxon street pattern and the well-',
        'known market cross are to be kept, as is well known.',
      ]),
    ]);
    expect(r.markdown).toContain('set out in a document that');
    expect(r.markdown).toContain('and the plan-making timetable');
    expect(r.markdown).toContain('The Anglo-Saxon street pattern');
    expect(r.markdown).toContain('the well-known market cross');
    expect(r.markdown).not.toContain('\u00AD');
    expect(r.pages[0]?.text).toContain('a document that');
  });
});

describe('code and monospaced listings', () => {
  const LISTING = [
    'x <- c(10.4, 5.6, 3.1)',
    'for (i in 1:3) {',
    '    y[i] <- x[i] * 2',
    '}',
    'name     value   unit',
    'alpha    10      m',
    'beta     200     kg',
    'gamma    3       s',
  ];
  const courier = (lines: string[], x = 90, y = 600): string =>
    lines.map((l, i) => `BT /F3 10 Tf ${x} ${y - i * 12} Td (${pdfString(l)}) Tj ET`).join('\n');

  it('a listing in a monospaced font is fenced with its indentation, not made a table', async () => {
    const r = await convert([
      [
        body(['The following commands create a vector and print a small table of values:']),
        courier(LISTING),
        body(['The loop above doubles every value.'], 480),
      ].join('\n'),
    ]);
    expect(r.tables).toEqual([]);
    expect(r.markdown).toContain('```\nx <- c(10.4, 5.6, 3.1)\nfor (i in 1:3) {\n    y[i] <- x[i] * 2\n}\n');
    expect(r.markdown).toMatch(/The loop above doubles every value\.$/);
    expect(r.pages[0]?.text).toContain('for (i in 1:3) {\n');
  });

  it('a letter typed in a monospaced face is prose, not code', async () => {
    const letter = [
      'Dear Sir, with reference to your application of the fourth of May,',
      'the council has considered the plans you submitted and has decided',
      'to grant permission subject to the conditions set out below. Yours',
      'faithfully, the Chief Planning Officer of the City of Coventry.',
    ];
    const r = await convert([courier(letter, 72, 700)]);
    expect(r.markdown).not.toContain('```');
    expect(r.markdown).toContain('Dear Sir, with reference to your application');
  });
});
