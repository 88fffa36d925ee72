// SPDX-License-Identifier: AGPL-3.0-or-later
import { chunkPolicy, policyChunkId } from './policy-chunks.js';
import { extractSections, normaliseSectionRef, sanitizeSectionRef } from './sections.js';

const page = (page_number: number, ...lines: string[]) => ({ page_number, text: lines.join('\n') });
const refs = (pages: ReturnType<typeof page>[]) => extractSections(pages).map((s) => s.refs.join(' > '));

describe('section references from document structure', () => {
  it("reads the NPPF's layout: contents lines ignored, numbered chapters, paragraphs numbered across chapters, annexes", () => {
    const pages = [
      page(
        1,
        'Contents',
        '1. Introduction\t4',
        '2. Achieving sustainable development\t5',
        'Annex 1: Implementation\t67',
      ),
      page(2, '1. Introduction', '1. The Framework sets out policies.', '2. Planning law requires decisions.', '7'),
      page(
        3,
        '2. Achieving sustainable development',
        '3. The purpose of the planning system.',
        'a) an economic objective',
        '4. Achieving it means:',
      ),
      page(4, 'Annex 1: Implementation', '5. The policies apply from today.'),
    ];
    expect(refs(pages)).toEqual([
      'Preamble',
      'Chapter 1',
      'Chapter 1 > Para 1',
      'Chapter 1 > Para 2',
      'Chapter 2',
      'Chapter 2 > Para 3',
      'Chapter 2 > Para 4',
      'Annex 1',
      'Annex 1 > Para 5',
    ]);
    const para3 = extractSections(pages).find((s) => s.ref === 'Para 3');
    expect(para3?.pages).toEqual([
      { page_number: 3, text: '3. The purpose of the planning system.\na) an economic objective' },
    ]);
    // The running page number "7" is dropped.
    expect(extractSections(pages).find((s) => s.ref === 'Para 2')?.pages[0]?.text).toBe(
      '2. Planning law requires decisions.',
    );
  });

  it('reads tables, explicit chapters, decimal paragraphs, "Paragraph N" and policy codes; a paragraph spans pages', () => {
    const pages = [
      page(1, 'Chapter 5 Cycle lanes', '5.1 Lanes should be wide.', 'Table 5-2 Widths by flow', 'Flow 200: 2.0 m'),
      page(
        2,
        'continued on the next page',
        'Paragraph 116 Development should be refused.',
        'Policy PM 10 Design of places',
        'E2 Employment land',
        'A short line.',
      ),
    ];
    expect(refs(pages)).toEqual([
      'Chapter 5',
      'Chapter 5 > Para 5.1',
      'Chapter 5 > Table 5-2',
      'Chapter 5 > Para 116',
      'Chapter 5 > Policy PM10',
      'Chapter 5 > Policy E2',
    ]);
    expect(
      extractSections(pages)
        .find((s) => s.ref === 'Table 5-2')
        ?.pages.map((p) => p.page_number),
    ).toEqual([1, 2]);
  });

  it('normalises what callers write and sanitises references for chunk ids', () => {
    expect(['paragraph 116', 'Para. 116', '¶116', 'para 116'].map(normaliseSectionRef)).toEqual(
      Array(4).fill('Para 116'),
    );
    expect(normaliseSectionRef('table 5.2')).toBe('Table 5-2');
    expect(normaliseSectionRef('TABLE 5–2')).toBe('Table 5-2');
    expect(normaliseSectionRef('policy pm 10')).toBe('Policy PM10');
    expect(normaliseSectionRef('section 3')).toBe('Chapter 3');
    expect(normaliseSectionRef('annex b')).toBe('Annex B');
    expect(normaliseSectionRef('  Glossary  ')).toBe('Glossary');
    expect(sanitizeSectionRef('Table 5-2')).toBe('Table_5_2');
    expect(policyChunkId('LTN_1_20', 'rev_LTN_1_20_2020_07', 'Chapter 5', 42)).toBe(
      'LTN_1_20__rev_LTN_1_20_2020_07__Chapter_5__042',
    );
  });

  it('chunks section by section with revision-wide indexes and exact pages', () => {
    const long = Array.from({ length: 40 }, (_, i) => `Sentence ${i} about cycle lane widths and kerbs.`).join(' ');
    const chunks = chunkPolicy('LTN_1_20', 'rev_1', [
      page(1, '1. Short paragraph.', `2. ${long}`),
      page(2, '3. Third paragraph.'),
    ]);
    expect(chunks.map((c) => c.chunk_index)).toEqual(chunks.map((_, i) => i));
    expect(chunks[0]).toMatchObject({
      id: 'LTN_1_20__rev_1__Para_1__000',
      section_ref: 'Para 1',
      page_number: 1,
      text: '1. Short paragraph.',
    });
    const para2 = chunks.filter((c) => c.section_ref === 'Para 2');
    expect(para2.length).toBeGreaterThan(1);
    for (const c of para2) expect(c.text.length).toBeLessThanOrEqual(800);
    expect(chunks[chunks.length - 1]).toMatchObject({ section_ref: 'Para 3', page_number: 2, pages: [2] });
  });
});
