// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ConversionHeading, PageMapEntry, TableSpan } from '@lectern/contracts';
import { pageAt } from '@lectern/chunking';

export { pageAt };

const SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

/**
 * Headings (ATX `#`) and GFM table blocks of a Markdown text, with offsets and pages. Used for every input
 * format, so the heading tree and table marks always agree with the Markdown that callers chunk.
 * Fenced code blocks are skipped.
 */
export function indexMarkdown(
  markdown: string,
  pageMap: PageMapEntry[],
): { headings: ConversionHeading[]; tables: TableSpan[] } {
  const headings: ConversionHeading[] = [];
  const tables: TableSpan[] = [];
  const lines = markdown.split('\n');
  const starts: number[] = [];
  let pos = 0;
  for (const l of lines) {
    starts.push(pos);
    pos += l.length + 1;
  }
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const start = starts[i] ?? 0;
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f?.[1]) {
      if (fence === null) fence = f[1].charAt(0);
      else if (f[1].charAt(0) === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h?.[1] && h[2] !== undefined && h[2].length > 0) {
      headings.push({ level: h[1].length, title: h[2], page: pageAt(pageMap, start), offset: start });
      continue;
    }
    const next = lines[i + 1];
    if (line.includes('|') && next !== undefined && SEPARATOR.test(next) && next.includes('-')) {
      let j = i + 2;
      while (j < lines.length && (lines[j] ?? '').includes('|') && (lines[j] ?? '').trim() !== '') j++;
      const end = (starts[j - 1] ?? 0) + (lines[j - 1] ?? '').length;
      tables.push({ start, end, page: pageAt(pageMap, start) });
      i = j - 1;
    }
  }
  return { headings, tables };
}
