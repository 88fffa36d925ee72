// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * A Markdown table row's cells, as the converter's writer (`tableToMarkdown`) writes them: cells between `|`,
 * a pipe inside a cell escaped as `\|` (it stays in its cell, unescaped here). `undefined` for a line that is
 * not a table row. Hand-written: a full Markdown parser would do the same for this one construct at a far greater
 * cost per chunk read, and the writer's output is the only input.
 */
export const splitRow = (line: string): string[] | undefined => {
  const t = line.trim();
  if (!t.startsWith('|')) return undefined;
  return t
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.replace(/\\\|/g, '|').trim());
};
