// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FormatContext, FormatOutput } from '../types.js';
import { runMarkupWorker } from './run-markup.js';
import { singlePage } from './single-page.js';
import { checkZip } from './zip-guard.js';

/** DOCX: bomb check (inflated bytes counted), then mammoth (Word styles -> HTML headings/tables) and turndown with GFM tables. */
export async function convertDocx(ctx: FormatContext): Promise<FormatOutput> {
  await checkZip(ctx.bytes, ctx.filename, ctx.signal);
  ctx.progress({ stage: 'convert', page: 0, pages: 1 });
  const out = await runMarkupWorker('docx', ctx.bytes, ctx.signal);
  return singlePage(out.markdown, out.title, out.warnings);
}
