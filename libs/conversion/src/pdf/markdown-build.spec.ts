// SPDX-License-Identifier: AGPL-3.0-or-later
import { seededRandom } from '@lectern/testing';
import type { TextBlock } from './layout.js';
import { buildMarkdown, fenced } from './pdf-markdown.js';
import { tableToMarkdown } from './tables.js';

// The Markdown build's shortcuts (a paragraph split into lines only when one needs escaping, a fence's length found
// without regular expressions, a table cell's white space collapsed only when it has some to collapse) give exactly
// what the plain forms below give, on random text of the characters they look at.
const ALPHABET = [
  'a',
  'Z',
  '7',
  ' ',
  ' ',
  '  ',
  '\n',
  '\t',
  '\u00A0',
  '\u2003',
  '|',
  '#',
  '>',
  '`',
  '``',
  '•',
  '*',
  '-',
  'é',
];
const texts = (seed: number, n: number): string[] => {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => Array.from({ length: r(24) }, () => ALPHABET[r(ALPHABET.length)]).join(''));
};

const plainParagraph = (t: string): string => {
  const bullet = /^[•●▪■◦‣·*\uF0B7]\s*(.*)$/s.exec(t);
  if (bullet && bullet[1] !== undefined && bullet[1] !== t) return `- ${bullet[1]}`;
  return t
    .split('\n')
    .map((s) => s.replace(/^(#|\||>|```)/, '\\$1'))
    .join('\n');
};
const plainFenced = (lines: string[]): string => {
  const longest = Math.max(0, ...lines.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((m) => m.length))));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence, ...lines, fence].join('\n');
};
const plainTable = (rows: string[][]): string => {
  const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
  const width = Math.max(...rows.map((r) => r.length));
  const norm = rows.map((r) => Array.from({ length: width }, (_, k) => esc(r[k] ?? '')));
  const [head, ...body] = norm;
  if (!head) return '';
  const line = (r: string[]): string => `| ${r.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n');
};

const block = (text: string, i: number): TextBlock => ({
  kind: 'text',
  x0: 50,
  y0: 100 + 20 * i,
  x1: 500,
  y1: 110 + 20 * i,
  lineCount: text.split('\n').length,
  text,
  size: 10,
  bold: false,
  chars: text.length,
});

describe('Markdown build shortcuts', () => {
  it('paragraphs are escaped line by line as the plain split gives', () => {
    // one page of body-size blocks: no heading, no furniture; blocks of white space alone are left out
    const paras = texts(5, 3000).filter((t) => t.trim().length > 0);
    const built = buildMarkdown([
      { pageNumber: 1, layout: { pageNumber: 1, width: 600, height: 800, blocks: paras.map(block) } },
    ]);
    const expected = paras.map(plainParagraph).filter((x) => x.length > 0);
    expect(built.markdown).toBe(expected.join('\n\n'));
  });

  it('fenced code and tables are what the regular expressions give', () => {
    const lines = texts(6, 4000);
    for (let i = 0; i < lines.length; i += 8) {
      const group = lines.slice(i, i + 8);
      expect(fenced(group)).toBe(plainFenced(group));
      const rows = [group.slice(0, 3), group.slice(3, 6), group.slice(6)];
      expect(tableToMarkdown(rows)).toBe(plainTable(rows));
    }
    expect(fenced(['a ```` b', '`'])).toBe('`````\na ```` b\n`\n`````');
    expect(tableToMarkdown([[' a\u00A0 b ', 'c|d'], ['e\t\tf']])).toBe('| a b | c\\|d |\n| --- | --- |\n| e f |  |');
  });
});
