// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FormatOutput } from '../types.js';

/** Formats without pages (DOCX, HTML, TXT, MD) are one page: every offset maps to page 1. */
export function singlePage(
  markdown: string,
  title: string | null,
  warnings: string[] = [],
  text = markdown,
): FormatOutput {
  return {
    pages: [
      {
        page_number: 1,
        text,
        method: 'text_layer',
        ocr_confidence: null,
        image_ratio: 0,
        char_count: text.trim().length,
      },
    ],
    markdown,
    pageMap: [{ offset: 0, page: 1 }],
    title,
    metadata: {},
    warnings,
  };
}
