// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FormatContext, FormatOutput } from '../types.js';
import { runMarkupWorker } from './run-markup.js';
import { singlePage } from './single-page.js';

/** HTML: readable Markdown (scripts, styles and chrome dropped), headings and tables kept (GFM). */
export async function convertHtml(ctx: FormatContext): Promise<FormatOutput> {
  ctx.progress({ stage: 'convert', page: 0, pages: 1 });
  const out = await runMarkupWorker('html', ctx.bytes, ctx.signal);
  return singlePage(out.markdown, out.title, out.warnings);
}
