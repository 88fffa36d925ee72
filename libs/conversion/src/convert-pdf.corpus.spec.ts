// SPDX-License-Identifier: AGPL-3.0-or-later
import { corpusFile } from '@lectern/testing';
import type { ConversionResult } from '@lectern/contracts';
import { createConversionEngine, pageAt, sha256File } from './index.js';

/** One engine for the whole file (it owns the mupdf and tesseract workers); closed after the last test. */
const engine = createConversionEngine();
afterAll(() => engine.close());

const NPPF = corpusFile('uk-planning-policy', 'nppf-2024', 'NPPF_December_2024.pdf');

describe('convertDocument: text-layer PDF (NPPF 2024)', () => {
  let result: ConversionResult;
  const progress: { stage: string; page?: number; pages?: number }[] = [];

  beforeAll(async () => {
    result = await engine.convert({ path: NPPF }, { onProgress: (p) => progress.push(p) });
  });

  it('reads all 82 pages from the text layer, with fingerprint and metadata', async () => {
    expect(result.page_count).toBe(82);
    expect(result.pages).toHaveLength(82);
    expect(result.method).toBe('text_layer');
    expect(result.pages.every((p) => p.method === 'text_layer' && p.ocr_confidence === null)).toBe(true);
    expect(result.image_based).toBe(false);
    expect(result.detected_type).toBe('pdf');
    expect(result.fingerprint).toBe(await sha256File(NPPF));
    expect(result.title).toBe('National Planning Policy Framework');
  });

  it('turns the chapter headings into level-1 Markdown headings on the page they are printed on', () => {
    const h1 = result.headings.filter((h) => h.level === 1);
    const chapters = h1.filter((h) => /^\d+\. /.test(h.title));
    expect(chapters.map((h) => Number(h.title.split('.')[0]))).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
    const at = (title: string): { level: number; page: number } | undefined =>
      result.headings.find((h) => h.title === title);
    expect(at('1. Introduction')).toMatchObject({ level: 1, page: 4 });
    expect(at('2. Achieving sustainable development')).toMatchObject({ level: 1, page: 5 });
    expect(at('13. Protecting Green Belt land')).toMatchObject({ level: 1, page: 42 });
    expect(at('Annex 2: Glossary')).toMatchObject({ level: 1, page: 70 });
    // sub-sections one level below
    expect(at('The presumption in favour of sustainable development')).toMatchObject({ level: 2, page: 6 });
    expect(at('Proposals affecting the Green Belt')).toMatchObject({ level: 2, page: 44 });
    // every heading offset points at its own "#" line
    for (const h of result.headings) {
      expect(result.markdown.slice(h.offset, h.offset + h.level + 1 + h.title.length)).toBe(
        `${'#'.repeat(h.level)} ${h.title}`,
      );
    }
  });

  it('keeps numbered paragraphs whole, each starting its own paragraph', () => {
    expect(result.markdown).toContain(
      '\n\n11. Plans and decisions should apply a presumption in favour of sustainable development.\n\n',
    );
    expect(result.markdown).toMatch(
      /\n\n35\. Plans should set out the contributions expected from development\.[^\n]+deliverability of the plan\.\n\n/,
    );
    // paragraph 6 follows paragraph 5 in the same text block of the PDF; it must still start its own paragraph
    expect(result.markdown).toMatch(/\n\n6\. Other statements of government policy may be material/);
    // footnotes (superscript numbers in the PDF) are one paragraph each, not run together
    expect(result.markdown).toContain(
      '\n\n1 This document replaces the previous version of the National Planning Policy Framework published in December 2023.\n\n2 This includes',
    );
  });

  it('maps a paragraph offset to the page it is printed on', () => {
    const offsetOf = (start: string): number => {
      const i = result.markdown.indexOf(`\n\n${start}`);
      expect(i).toBeGreaterThan(0);
      return i + 2;
    };
    expect(pageAt(result.page_map, offsetOf('11. Plans and decisions should apply'))).toBe(6);
    expect(pageAt(result.page_map, offsetOf('1. The National Planning Policy Framework sets out'))).toBe(4);
    // a sample of numbered paragraphs across the document: the page map agrees with the per-page text
    for (const n of [20, 61, 100, 153, 187, 215]) {
      const m = new RegExp(`\\n\\n${n}\\. (.{40})`).exec(result.markdown);
      expect(m).not.toBeNull();
      const snippet = `${n}. ${m?.[1] ?? ''}`;
      const page = result.pages.find((p) => p.text.replace(/\s+/g, ' ').includes(snippet));
      expect(page).toBeDefined();
      expect(pageAt(result.page_map, (m?.index ?? 0) + 2)).toBe(page?.page_number);
    }
    expect(result.page_map).toHaveLength(82);
    expect(result.page_map.map((e) => e.page)).toEqual(Array.from({ length: 82 }, (_, i) => i + 1));
  });

  it('drops running page numbers from the body and marks the contents table', () => {
    expect(result.markdown).not.toMatch(/\n\n\d{1,2}\n\n/);
    const contents = result.tables.find((t) => t.page === 3);
    expect(contents).toBeDefined();
    const table = result.markdown.slice(contents?.start, contents?.end);
    expect(table).toContain('| 13. Protecting Green Belt land | 42 |');
    expect(table.split('\n')[1]).toMatch(/^\| --- \| --- \|$/);
  });

  it('reports progress per page batch up to the page count', () => {
    const extract = progress.filter((p) => p.stage === 'extract');
    expect(extract.length).toBeGreaterThan(1);
    expect(extract[extract.length - 1]).toMatchObject({ page: 82, pages: 82 });
    expect(progress[progress.length - 1]?.stage).toBe('done');
  });
});

describe('convertDocument: reading order, tables and heading levels in other layouts', () => {
  it('reads a two-column paper column by column and renders its results table', async () => {
    const r = await engine.convert({ path: corpusFile('multicolumn-papers', 'tracemonkey.pdf') });
    const md = r.markdown;
    const at = (s: string): number => {
      const i = md.indexOf(s);
      expect(i).toBeGreaterThanOrEqual(0);
      return i;
    };
    // page 1: the left column (abstract ... introduction) comes before the top of the right column
    expect(at('## Abstract')).toBeLessThan(at('Dynamic languages such as JavaScript are more difficult'));
    expect(at('Dynamic languages such as JavaScript are more difficult')).toBeLessThan(at('## 1. Introduction'));
    expect(at('## 1. Introduction')).toBeLessThan(at('and is used for the application logic of browser-based'));
    expect(at('and is used for the application logic of browser-based')).toBeLessThan(
      at('Compilers for statically typed languages rely on'),
    );
    // section headings one level below the title
    expect(r.headings.find((h) => h.title === '7. Evaluation')).toMatchObject({ level: 2, page: 10 });
    // the benchmark results table is a Markdown table, marked, on its page
    const results = r.tables.find((t) => md.slice(t.start, t.end).includes('| 3d-cube |'));
    expect(results?.page).toBe(12);
    expect(md.slice(results?.start, results?.end)).toMatch(/^\| [^|]*\| Loops \| Trees \| Traces \|/);
  });

  it('renders a datasheet specification table with one column per value', async () => {
    const r = await engine.convert({
      path: corpusFile('datasheets', 'datasheetminer-benchmark', 'datasheets', 'omron-g-series-servo-motors.pdf'),
    });
    const spec = r.tables.find((t) => r.markdown.slice(t.start, t.end).includes('| Rated torque |'));
    expect(spec?.page).toBe(3);
    const rows = r.markdown.slice(spec?.start, spec?.end).split('\n');
    const torque = rows
      .find((l) => l.startsWith('| Rated torque |'))
      ?.split('|')
      .map((c) => c.trim())
      .filter(Boolean);
    expect(torque?.slice(0, 4)).toEqual(['Rated torque', 'N·m', '0.16', '0.32']);
    expect(torque).toContain('8.62');
  });

  it('ranks numbered sections below chapters in a long manual (R-intro) and skips contents entries', async () => {
    const r = await engine.convert({ path: corpusFile('long-manuals', 'R-intro.pdf') });
    expect(r.page_count).toBe(113);
    expect(r.headings.find((h) => h.title === '1 Introduction and preliminaries')).toMatchObject({ level: 1, page: 8 });
    expect(r.headings.find((h) => h.title === '1.1 The R environment')).toMatchObject({ level: 2, page: 8 });
    expect(r.headings.filter((h) => h.page <= 6 && /\d$/.test(h.title))).toEqual([]);
  });
});
