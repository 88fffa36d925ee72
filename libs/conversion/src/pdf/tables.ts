// SPDX-License-Identifier: AGPL-3.0-or-later
/** A table found on a page (page-tables.ts, in the mupdf workers): cell texts by row, the first row the header. */
export interface TableBlock {
  kind: 'table';
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  rows: string[][];
}

/** GitHub-flavoured Markdown table; the first row is the header. */
export function tableToMarkdown(rows: string[][]): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
  const width = Math.max(...rows.map((r) => r.length));
  const norm = rows.map((r) => Array.from({ length: width }, (_, k) => esc(r[k] ?? '')));
  const [head, ...body] = norm;
  if (!head) return '';
  const line = (r: string[]): string => `| ${r.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n');
}
