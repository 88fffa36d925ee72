// SPDX-License-Identifier: AGPL-3.0-or-later
import { chunkByLocator, LOCATOR_MAX_CHARS } from './locator-chunker.js';

const para = (word: string, n = 12) => `${Array.from({ length: n }, () => word).join(' ')}.`;

describe('chunkByLocator (spec 003 section 6)', () => {
  it('extraction-api:§11 test_chunker_headings: paragraphs under ## headings get h{n}-c{m}', () => {
    const md = ['## PV DC Input', '', para('alpha'), '', para('beta'), '', '## AC Output', '', para('gamma')].join(
      '\n',
    );
    const { chunks, headings } = chunkByLocator(md);
    expect(chunks.map((c) => c.locator)).toEqual(['h1-c1', 'h1-c2', 'h2-c1']);
    expect(chunks.map((c) => c.kind)).toEqual(['text', 'text', 'text']);
    expect(chunks[1]?.content).toBe(para('beta'));
    expect(headings.map((h) => [h.locator, h.title, h.level])).toEqual([
      ['h1', 'PV DC Input', 2],
      ['h2', 'AC Output', 2],
    ]);
  });

  it('extraction-api:§11 test_chunker_tables: a table gets h{n}-t{m}, kind "table", numbered apart from text', () => {
    const table = ['| Model | Max DC voltage |', '|---|---|', '| MOD 8K | 1100V |', '| MOD 10K | 1100V |'].join('\n');
    const md = ['# Datasheet', para('intro'), '', table, '', para('after'), '', table.replace('8K', '12K')].join('\n');
    const { chunks } = chunkByLocator(md);
    expect(chunks.map((c) => [c.locator, c.kind])).toEqual([
      ['h1-c1', 'text'],
      ['h1-t1', 'table'],
      ['h1-c2', 'text'],
      ['h1-t2', 'table'],
    ]);
    expect(chunks[1]?.content).toBe(table);
  });

  it('never splits a table, however long', () => {
    const rows = Array.from({ length: 200 }, (_, i) => `| row ${i} | ${'v'.repeat(20)} |`);
    const table = ['| a | b |', '|---|---|', ...rows].join('\n');
    const { chunks } = chunkByLocator(`## T\n\n${table}\n`);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.kind).toBe('table');
    expect(chunks[0]?.content.length).toBeGreaterThan(LOCATOR_MAX_CHARS);
    expect(chunks[0]?.content).toBe(table);
  });

  it('extraction-api:§11 test_chunker_max_size: a paragraph over 1500 characters is split at sentence boundaries', () => {
    const sentences = Array.from(
      { length: 40 },
      (_, i) => `Sentence number ${i} says the rated voltage is ${200 + i} volts here.`,
    );
    const paragraph = sentences.join(' ');
    expect(paragraph.length).toBeGreaterThan(LOCATOR_MAX_CHARS);
    const { chunks } = chunkByLocator(`## Long\n\n${paragraph}`);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.locator)).toEqual(chunks.map((_, i) => `h1-c${i + 1}`));
    for (const c of chunks) {
      expect(c.content.length).toBeLessThanOrEqual(LOCATOR_MAX_CHARS);
      expect(c.content.endsWith('volts here.')).toBe(true);
      expect(c.content.startsWith('Sentence number')).toBe(true);
    }
    expect(chunks.map((c) => c.content).join(' ')).toBe(paragraph);
  });

  it('cuts a single sentence over the limit at word boundaries', () => {
    const words = Array.from({ length: 500 }, (_, i) => `w${i}`).join(' ');
    const { chunks } = chunkByLocator(words);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.content.length).toBeLessThanOrEqual(LOCATOR_MAX_CHARS);
    expect(chunks.map((c) => c.content).join(' ')).toBe(words);
  });

  it('extraction-api:§11 test_chunker_min_merge: a chunk under 50 characters is merged with the next one', () => {
    const md = ['## Specs', '', 'Short label:', '', para('voltage'), '', para('current')].join('\n');
    const { chunks } = chunkByLocator(md);
    expect(chunks.map((c) => c.locator)).toEqual(['h1-c1', 'h1-c2']);
    expect(chunks[0]?.content).toBe(`Short label:\n\n${para('voltage')}`);
    // a trailing short paragraph joins the previous text chunk; a section's only short text stays
    const tail = chunkByLocator(['## A', '', para('long'), '', 'tail.', '', '## B', '', 'only.'].join('\n')).chunks;
    expect(tail.map((c) => [c.locator, c.content])).toEqual([
      ['h1-c1', `${para('long')}\n\ntail.`],
      ['h2-c1', 'only.'],
    ]);
  });

  it('stores the heading ancestry in meta', () => {
    const md = [
      '# Inverter',
      '',
      para('a'),
      '',
      '## PV DC Input',
      '',
      '### Specifications',
      '',
      para('b'),
      '',
      '## AC',
      '',
      para('c'),
    ].join('\n');
    const { chunks, headings } = chunkByLocator(md);
    const spec = chunks.find((c) => c.locator === 'h3-c1');
    expect(spec?.meta).toEqual({
      heading_path: 'Inverter > PV DC Input > Specifications',
      original_heading: 'Specifications',
      chunk_index: 1,
      headings: ['Inverter', 'PV DC Input', 'Specifications'],
      heading_level: 3,
    });
    expect(chunks.find((c) => c.locator === 'h4-c1')?.meta.heading_path).toBe('Inverter > AC');
    expect(headings.map((h) => h.locator)).toEqual(['h1', 'h2', 'h3', 'h4']);
  });

  it('gives text before the first heading the locators h0-c{m} / h0-t{m}', () => {
    const md = [para('preamble'), '', '| a | b |', '|---|---|', '| 1 | 2 |', '', '# First', '', para('body')].join(
      '\n',
    );
    const { chunks } = chunkByLocator(md);
    expect(chunks.map((c) => c.locator)).toEqual(['h0-c1', 'h0-t1', 'h1-c1']);
    expect(chunks[0]?.meta).toMatchObject({ heading_path: '', original_heading: null, heading_level: 0 });
  });

  it('does not read headings or tables inside fenced code', () => {
    const md = ['## Code', '', '```', '# not a heading', '| not | a table |', '```', '', para('after')].join('\n');
    const { chunks, headings } = chunkByLocator(md);
    expect(headings).toHaveLength(1);
    expect(chunks.map((c) => [c.locator, c.kind])).toEqual([['h1-c1', 'text']]);
    expect(chunks[0]?.content).toContain('# not a heading');
  });

  it('counts empty sections in h{n} and yields no chunk for them', () => {
    const { chunks, headings } = chunkByLocator(['# Empty', '## Full', '', para('x')].join('\n'));
    expect(headings.map((h) => h.locator)).toEqual(['h1', 'h2']);
    expect(chunks.map((c) => c.locator)).toEqual(['h2-c1']);
  });
});
