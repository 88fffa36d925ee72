// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The running headers and footers the Markdown leaves out (pdf-markdown.ts `findRepeatedFurniture`), as text: they
 * often name the document ("Coventry Local Plan – Proposed Modifications, March 2017 Sustainability Appraisal"), a
 * document-level signal a search can use though the page text no longer carries it (issue 25, round 3).
 */

/** At most this many distinct texts, of at most `MAX_TEXT` characters each: the field stays short and bounded. */
export const MAX_RUNNING_HEADERS = 6;
const MAX_TEXT = 200;

// A page counter anywhere in the text ("Page 8 of 99", "- 12 -") and a text with no word left: not a header.
const PAGE_COUNTER = /\bpage\s*\d+(\s*(of|\/)\s*\d+)?\b/gi;
const WORD = /\p{L}{2,}/u;

/**
 * The distinct running header and footer texts of a document, in order of how many pages carry them (then first
 * seen): page counters removed, whitespace collapsed, a text without a word of two letters dropped, compared case-
 * and digit-insensitively (the same header with another page or chapter number is one), each cut to 200 characters.
 */
export function runningHeaderTexts(blocks: Iterable<{ text: string }>): string[] {
  const seen = new Map<string, { text: string; count: number; first: number }>();
  let i = 0;
  for (const b of blocks) {
    const text = b.text.replace(PAGE_COUNTER, ' ').replace(/\s+/g, ' ').trim();
    if (!WORD.test(text)) continue;
    const key = text.toLowerCase().replace(/\d+/g, '#');
    const had = seen.get(key);
    if (had) had.count += 1;
    else seen.set(key, { text: text.slice(0, MAX_TEXT).trim(), count: 1, first: i++ });
  }
  return [...seen.values()]
    .sort((a, b) => b.count - a.count || a.first - b.first)
    .slice(0, MAX_RUNNING_HEADERS)
    .map((h) => h.text);
}
