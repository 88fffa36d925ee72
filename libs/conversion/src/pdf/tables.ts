// SPDX-License-Identifier: AGPL-3.0-or-later
import { collapseSpaces } from './letters.js';
/** A table found on a page (page-tables.ts, in the mupdf workers): cell texts by row, the first row the header. */
export interface TableBlock {
  kind: 'table';
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  rows: string[][];
}

/** A cell's text for a Markdown table: pipes escaped, white space collapsed to single spaces, trimmed. */
const cellText = (s: string): string => {
  const piped = s.includes('|') ? s.replace(/\|/g, '\\|') : s;
  return collapseSpaces(piped);
};

/** GitHub-flavoured Markdown table; the first row is the header. */
export function tableToMarkdown(rows: string[][]): string {
  const esc = cellText;
  const width = Math.max(...rows.map((r) => r.length));
  const norm = rows.map((r) => Array.from({ length: width }, (_, k) => esc(r[k] ?? '')));
  const [head, ...body] = norm;
  if (!head) return '';
  const line = (r: string[]): string => `| ${r.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n');
}
