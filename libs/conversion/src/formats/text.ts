// SPDX-License-Identifier: AGPL-3.0-or-later
import { decodeText } from '../detect-type.js';
import type { FormatContext, FormatOutput } from '../types.js';
import { singlePage } from './single-page.js';

const decode = (b: Uint8Array): string => decodeText(b).replace(/\r\n?/g, '\n');

/** Plain text: kept as is, except that line starts Markdown would read as headings or tables are escaped. */
export async function convertText(ctx: FormatContext): Promise<FormatOutput> {
  const text = decode(ctx.bytes);
  const markdown = text.replace(/^([ \t]{0,3})(#|\|)/gm, '$1\\$2').trim();
  return singlePage(markdown, null, [], text.trim());
}

/** Markdown: passed through; headings and tables are indexed from it. */
export async function convertMarkdown(ctx: FormatContext): Promise<FormatOutput> {
  const markdown = decode(ctx.bytes).trim();
  return singlePage(markdown, null);
}
