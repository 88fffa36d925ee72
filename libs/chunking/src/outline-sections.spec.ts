// SPDX-License-Identifier: AGPL-3.0-or-later
import { applyOutline, authorOutline, type OutlineEntry } from './outline-sections.js';

const chunk = (page_start: number, page_end: number, section_heading: string, section_path: string[]) => ({
  page_start,
  page_end,
  section_heading,
  section_path,
  text: `chunk on ${page_start}-${page_end}`,
});

const OUTLINE: OutlineEntry[] = [
  { title: 'Preface', level: 1, page: 2 },
  { title: '1 Introduction and preliminaries', level: 1, page: 3 },
  { title: '1.1 The R environment', level: 2, page: 3 },
  { title: '1.2 Related software', level: 2, page: 4 },
  { title: '2 Simple manipulations', level: 1, page: 7 },
  { title: '2.1 Vectors and assignment', level: 2, page: 7 },
  { title: 'Broken link', level: 2, page: null },
];

describe('applyOutline: section paths from the PDF outline (issue 25)', () => {
  it("gives each chunk the ancestry of its own heading's outline entry, else of the last entry before its page", () => {
    const out = applyOutline(
      [
        chunk(1, 1, 'Cover', ['Cover']),
        chunk(3, 3, 'The R environment', ['Introduction', 'The R environment']), // named entry, numbering ignored
        chunk(5, 5, 'Some paragraph heading', ['Wrong chapter', 'Some paragraph heading']), // not in the outline
        chunk(6, 7, 'Vectors and assignment', ['Vectors and assignment']), // its heading starts on its last page
        chunk(9, 9, '', []),
      ],
      OUTLINE,
    );
    expect(out.map((c) => c.section_path)).toEqual([
      ['Cover'], // before the first entry: the heading tree stays
      ['1 Introduction and preliminaries', '1.1 The R environment'],
      ['1 Introduction and preliminaries', '1.2 Related software'],
      ['2 Simple manipulations', '2.1 Vectors and assignment'],
      ['2 Simple manipulations', '2.1 Vectors and assignment'],
    ]);
    expect(out[1]!.section_heading).toBe('1.1 The R environment');
    expect(out[0]!.text).toBe('chunk on 1-1'); // other fields kept
  });

  it('keeps the heading tree when there is no outline, or none of it points at a page', () => {
    const chunks = [chunk(1, 2, 'Methods', ['Paper', 'Methods'])];
    expect(applyOutline(chunks, [])).toEqual(chunks);
    expect(applyOutline(chunks, [{ title: 'x', level: 1, page: null }])).toEqual(chunks);
  });

  it('drops an Acrobat "Structure Bookmarks" root (the NPPF\'s outline) and moves its entries up a level', () => {
    const nppf: OutlineEntry[] = [
      { title: 'Structure Bookmarks', level: 1, page: null },
      { title: '1. Introduction ', level: 2, page: 4 },
      { title: '2. Achieving sustainable development ', level: 2, page: 5 },
      { title: 'The presumption in favour of sustainable development ', level: 3, page: 6 },
      { title: 'Annex 1', level: 1, page: 70 },
    ];
    expect(authorOutline(nppf).map((e) => [e.title.trim(), e.level])).toEqual([
      ['1. Introduction', 1],
      ['2. Achieving sustainable development', 1],
      ['The presumption in favour of sustainable development', 2],
      ['Annex 1', 1],
    ]);
    const [c] = applyOutline([chunk(6, 6, 'Paragraph 11', ['Paragraph 11'])], nppf);
    expect(c!.section_path.map((t) => t.trim())).toEqual([
      '2. Achieving sustainable development',
      'The presumption in favour of sustainable development',
    ]);
  });
});
