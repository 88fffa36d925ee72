// SPDX-License-Identifier: AGPL-3.0-or-later
import type { PageMapEntry } from '@lectern/contracts';
import {
  chunkMarkdown,
  embeddingText,
  markdownPages,
  projectChunkId,
  sectionPaths,
  stripComments,
} from './markdown-chunker.js';
import { pageAt } from './page-map.js';

/** A word tokenizer with two special tokens ([CLS] text [SEP]), as BERT-style embedders count them. */
const countTokens = (text: string): number => text.split(/\s+/).filter(Boolean).length + 2;

/** Build a Markdown document from pages of lines, with its heading list, page map and table spans (as the converter does). */
const build = (pages: string[][], opts: { markers?: boolean } = {}) => {
  let md = '';
  const page_map: PageMapEntry[] = [];
  pages.forEach((lines, i) => {
    page_map.push({ offset: md.length, page: i + 1 });
    if (opts.markers) md += `<!-- page ${i + 1} -->\n\n`;
    md += `${lines.join('\n')}\n\n`;
  });
  const headings: Array<{ level: number; title: string; page: number; offset: number }> = [];
  const tables: Array<{ start: number; end: number; page: number }> = [];
  let pos = 0;
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h?.[1] && h[2]) headings.push({ level: h[1].length, title: h[2], page: pageAt(page_map, pos), offset: pos });
    if (line.startsWith('|') && (lines[i + 1] ?? '').startsWith('|---')) {
      let end = pos;
      let j = i;
      while ((lines[j] ?? '').startsWith('|')) end += (lines[j++] ?? '').length + 1;
      tables.push({ start: pos, end: end - 1, page: pageAt(page_map, pos) });
    }
    pos += line.length + 1;
  }
  return { markdown: md, headings, page_map, tables };
};

const sentence = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}w${i}`).join(' ') + '.';

describe('sectionPaths', () => {
  it('builds breadcrumbs from a flat heading list, tolerating skipped levels', () => {
    const paths = sectionPaths([
      { level: 1, title: 'Part A' },
      { level: 3, title: 'Deep' },
      { level: 2, title: 'Chapter 1' },
      { level: 3, title: 'Section 1.1' },
      { level: 1, title: 'Part B' },
      { level: 2, title: 'Chapter 2' },
    ]);
    expect(paths).toEqual([
      ['Part A'],
      ['Part A', 'Deep'],
      ['Part A', 'Chapter 1'],
      ['Part A', 'Chapter 1', 'Section 1.1'],
      ['Part B'],
      ['Part B', 'Chapter 2'],
    ]);
  });
});

describe('chunkMarkdown', () => {
  const doc = build([
    ['# Introduction', '', sentence('intro', 30)],
    ['## Background', '', sentence('bgA', 45), '', sentence('bgB', 20)],
    [
      sentence('bgC', 20),
      '',
      '# Methods',
      '',
      sentence('meth', 20),
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '| 3 | 4 |',
    ],
    ['## Results', '', sentence('res', 50)],
  ]);

  const chunks = chunkMarkdown(doc, { countTokens, maxTokens: 64 });

  it('keeps every chunk within the token limit counted by the given tokenizer', () => {
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks) expect(countTokens(c.text)).toBeLessThanOrEqual(64);
    for (const c of chunks) expect(c.token_count).toBe(countTokens(c.text));
  });

  it('with heading context, embeds the section path before the text (within the limit); the stored text is unchanged', () => {
    const withContext = chunkMarkdown(doc, { countTokens, maxTokens: 64, headingContext: true });
    for (const c of chunks) expect(c.embed_text).toBe(c.text);
    const bg = withContext.find((c) => c.text.includes('bgAw0'));
    expect(bg?.embed_text).toBe(`Introduction > Background\n\n${bg?.text ?? ''}`);
    expect(bg?.text).toBe(chunks.find((c) => c.text.includes('bgAw0'))?.text);
    expect(bg?.text).not.toContain('Introduction > Background');
    for (const c of withContext) {
      expect(c.embed_text).toBe(c.section_path.length > 0 ? embeddingText(c.text, c.section_path, true) : c.text);
      expect(c.token_count).toBe(countTokens(c.embed_text));
      expect(c.token_count).toBeLessThanOrEqual(64);
    }
    // The path's tokens come out of the chunk's budget: more, smaller chunks for the same document.
    expect(withContext.length).toBeGreaterThanOrEqual(chunks.length);
    expect(embeddingText('body', ['A', 'B'], false)).toBe('body');
    expect(embeddingText('body', [], true)).toBe('body');
  });

  it('gives each chunk the section it starts in, with its breadcrumb', () => {
    const intro = chunks.find((c) => c.text.includes('introw0'));
    expect(intro).toMatchObject({
      section_heading: 'Introduction',
      section_path: ['Introduction'],
      page_start: 1,
      page_end: 1,
    });
    const bg = chunks.find((c) => c.text.includes('bgAw0'));
    expect(bg).toMatchObject({ section_heading: 'Background', section_path: ['Introduction', 'Background'] });
    const res = chunks.find((c) => c.text.includes('resw0'));
    expect(res).toMatchObject({ section_heading: 'Results', section_path: ['Methods', 'Results'], page_start: 4 });
  });

  it('never crosses a top-level section', () => {
    for (const c of chunks) expect(c.text.includes('bgC') && c.text.includes('methw')).toBe(false);
    for (const c of chunks) expect(c.text.includes('introw') && c.text.includes('methw')).toBe(false);
  });

  it('keeps a chunk that runs over a page break with its page range', () => {
    const spanning = chunks.find((c) => c.text.includes('bgBw') && c.text.includes('bgCw'));
    expect(spanning).toMatchObject({ page_start: 2, page_end: 3 });
  });

  it('keeps a table whole', () => {
    const table = chunks.filter((c) => c.text.includes('| 1 | 2 |'));
    expect(table).toHaveLength(1);
    expect(table[0]?.text).toContain('| 3 | 4 |');
    expect(table[0]?.section_heading).toBe('Methods');
  });

  it('splits a paragraph longer than the limit into pieces that fit', () => {
    const long = build([['# Long', '', sentence('x', 500)]]);
    const pieces = chunkMarkdown(long, { countTokens, maxTokens: 50 });
    expect(pieces.length).toBeGreaterThanOrEqual(10);
    for (const c of pieces) expect(countTokens(c.text)).toBeLessThanOrEqual(50);
    const words = pieces.flatMap((c) => c.text.match(/xw\d+/g) ?? []);
    expect(new Set(words).size).toBe(500);
  });

  it('keeps every chunk within maxChars (the retrieval trim), packing and splitting by characters too', () => {
    // Paragraphs of ~100 characters under one heading, a 2,000-character paragraph, a table of ~600 characters:
    // well within the token limit, so only the character limit cuts them.
    const table = ['| k | v |', '|---|---|', ...Array.from({ length: 40 }, (_, i) => `| r${i} | v${i} |`)];
    const paras = Array.from({ length: 12 }, (_, i) => sentence(`p${i}`, 20));
    const d = build([
      ['# S', '', ...paras.flatMap((p) => [p, ''])],
      [sentence('long', 330), '', ...table],
    ]);
    const limit = 500;
    const capped = chunkMarkdown(d, { countTokens, maxTokens: 5000, maxChars: limit });
    const uncapped = chunkMarkdown(d, { countTokens, maxTokens: 5000 });
    expect(Math.max(...uncapped.map((c) => c.text.length))).toBeGreaterThan(limit);
    for (const c of capped) expect(c.text.length).toBeLessThanOrEqual(limit);
    // nothing lost: every word and table row is in some chunk, a short paragraph is never cut
    const words = (cs: typeof capped) => new Set(cs.flatMap((c) => c.text.match(/\b(p\d+|long)w\d+|r\d+\b/g) ?? []));
    expect(words(capped)).toEqual(words(uncapped));
    for (const p of paras) expect(capped.some((c) => c.text.includes(p))).toBe(true);
    // paragraphs are still packed up to the limit, not one per chunk
    expect(capped.filter((c) => c.text.includes('p0w0') || c.text.includes('p1w0'))).toHaveLength(1);
    expect(capped[capped.length - 1]).toMatchObject({ page_start: 2, page_end: 2 });
  });

  it('ignores HTML comment page markers', () => {
    const marked = build([['# A', '', sentence('a', 10)], [sentence('b', 10)]], { markers: true });
    const out = chunkMarkdown(marked, { countTokens, maxTokens: 200 });
    expect(out).toHaveLength(1);
    expect(out[0]?.text).not.toContain('<!--');
    expect(out[0]).toMatchObject({ page_start: 1, page_end: 2 });
    expect(stripComments('<!-- page 2 -->\n\ntext')).toBe('text');
  });

  it('repeats trailing paragraphs as overlap within a section only', () => {
    const d = build([
      ['# S', '', sentence('p1', 20), '', sentence('p2', 20), '', sentence('p3', 20), '', sentence('p4', 20)],
    ]);
    const out = chunkMarkdown(d, { countTokens, maxTokens: 50, overlapTokens: 25 });
    expect(out.length).toBeGreaterThan(1);
    expect(out[0]?.text).toContain('p2w0');
    expect(out[1]?.text).toContain('p2w0');
  });

  it('is deterministic, and chunk ids depend on every FR-003 part', () => {
    expect(chunkMarkdown(doc, { countTokens, maxTokens: 64 })).toEqual(chunks);
    const parts = {
      docId: 'd1',
      pageStart: 1,
      pageEnd: 2,
      sectionPath: ['A', 'B'],
      modelId: 'm',
      modelRevision: 'r',
      chunkIndex: 0,
    };
    const id = projectChunkId(parts);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(projectChunkId({ ...parts })).toBe(id);
    for (const change of [
      { docId: 'd2' },
      { pageStart: 2 },
      { pageEnd: 3 },
      { sectionPath: ['A'] },
      { modelId: 'n' },
      { modelRevision: 's' },
      { chunkIndex: 1 },
    ]) {
      expect(projectChunkId({ ...parts, ...change })).not.toBe(id);
    }
  });

  it('drops running headers and footers (short blocks opening or closing three or more pages, digits aside)', () => {
    const pages = Array.from({ length: 5 }, (_, i) => [
      `Chapter 2: Vectors ${i + 11}`,
      '',
      i === 0 ? '# Vectors' : '',
      '',
      sentence(`body${i}`, 12),
      '',
      `Page ${i + 1} of 5`,
    ]);
    const out = chunkMarkdown(build(pages), { countTokens, maxTokens: 30 });
    const text = out.map((c) => c.text).join('\n');
    expect(text).not.toMatch(/Chapter 2: Vectors/);
    expect(text).not.toMatch(/Page \d of 5/);
    for (let i = 0; i < 5; i++) expect(text).toContain(`body${i}w0`);
    // A chunk's page span is where its content is (the last page's header does not stretch it).
    for (const c of out) {
      const pagesOfBody = [...c.text.matchAll(/body(\d)w0/g)].map((m) => Number(m[1]) + 1);
      expect([c.page_start, c.page_end]).toEqual([Math.min(...pagesOfBody), Math.max(...pagesOfBody)]);
    }
    // Twice is not a pattern: a short closing line on two pages stays.
    const twice = chunkMarkdown(
      build([
        [sentence('a', 5), '', 'Signed 1'],
        [sentence('b', 5), '', 'Signed 2'],
      ]),
      { countTokens, maxTokens: 200 },
    );
    expect(twice.map((c) => c.text).join(' ')).toMatch(/Signed 1.*Signed 2/s);
    // Furniture runs beside content: pages of one paragraph each keep it, however often it repeats.
    const register = chunkMarkdown(build(Array.from({ length: 4 }, (_, i) => [`Register sheet number ${i + 1}`])), {
      countTokens,
      maxTokens: 200,
    });
    expect(register.map((c) => c.text).join(' ')).toMatch(/number 1.*number 2.*number 3.*number 4/s);
  });

  it('markdownPages gives spec 000 the Markdown per page, page markers and running headers blanked, offsets kept', () => {
    // Body words differ page to page by letters (digits aside, equal short lines would be furniture too).
    const pages = ['alpha', 'beta', 'gamma', 'delta'].map((tag, i) => [
      `Annual report ${2020 + i}`,
      '',
      sentence(tag, 8),
    ]);
    const doc = build(pages, { markers: true });
    const { pages: out, toMarkdownOffset } = markdownPages(doc);
    expect(out.map((p) => p.page_number)).toEqual([1, 2, 3, 4]);
    const joined = out.map((p) => p.text).join('\n\n');
    expect(joined).not.toMatch(/Annual report|<!--/);
    expect(joined).toContain('gammaw0');
    const at = joined.indexOf('deltaw0');
    expect(doc.markdown.slice(toMarkdownOffset(at), toMarkdownOffset(at) + 7)).toBe('deltaw0');
  });

  it('yields no chunk for an empty document', () => {
    expect(
      chunkMarkdown(
        { markdown: '\n\n<!-- page 1 -->\n', headings: [], page_map: [{ offset: 0, page: 1 }], tables: [] },
        { countTokens, maxTokens: 64 },
      ),
    ).toEqual([]);
  });
});
