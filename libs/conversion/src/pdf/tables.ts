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

/**
 * Whether `s.replace(/\s+/g, ' ').trim()` may differ from `s`: it has a white-space character other than a single
 * ASCII space between two others (any non-ASCII character counts as possible white space), or starts or ends with one.
 */
function mayCollapse(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  if (s.charCodeAt(0) === 32 || s.charCodeAt(n - 1) === 32) return true;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (s.charCodeAt(i + 1) === 32) return true;
    } else if ((c >= 9 && c <= 13) || c >= 128) return true;
  }
  return false;
}

/** A cell's text for a Markdown table: pipes escaped, white space collapsed to single spaces, trimmed. */
const cellText = (s: string): string => {
  const piped = s.includes('|') ? s.replace(/\|/g, '\\|') : s;
  return mayCollapse(piped) ? piped.replace(/\s+/g, ' ').trim() : piped;
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
