// SPDX-License-Identifier: AGPL-3.0-or-later
import type { PageMapEntry } from '@lectern/contracts';
import type { PageLayout, TextBlock } from './layout.js';
import { findListedWords, replaceSoftHyphenated, wordList } from './letters.js';
import { tableToMarkdown } from './tables.js';

/** A page as the Markdown builder sees it: laid-out blocks (text layer) or recognised paragraphs (OCR). */
export type BuildPage = { pageNumber: number; layout: PageLayout } | { pageNumber: number; ocrText: string };

const normKey = (s: string): string => s.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
/** A table-of-contents entry: dot leaders (or a long gap of dots) before a page number. */
const TOC_LINE = /(\s?\.){2,}\s*[\divxlc]+$|…\s*\d+$/i;
/** The characters TOC_LINE's match can end on (0-9, ivxlc either case): a text ending otherwise is no entry. */
const TOC_LAST = new Set([...'0123456789ivxlcIVXLC'].map((c) => c.charCodeAt(0)));
const isTocLine = (t: string): boolean => TOC_LAST.has(t.charCodeAt(t.length - 1)) && TOC_LINE.test(t);
/** /\s\d{1,4}$/.test(t), run only when t ends in a digit. */
const NUMBERED = /\s\d{1,4}$/;
const endsNumbered = (t: string): boolean => {
  const c = t.charCodeAt(t.length - 1);
  return c >= 48 && c <= 57 && NUMBERED.test(t);
};
// (regular expressions with \p{...} are module constants: esbuild, which builds the service, writes each such literal
// as `new RegExp(...)`, which would construct one per call)
const HAS_LETTER = /\p{L}/u;
const ENDS_PUNCTUATED = /[.,;:]$/;
const COLON_PHRASE = /:\s+\S/;
const BULLET = /^[•●▪■◦‣·*\uF0B7]\s*(.*)$/s;
const PAGE_NUMBER = /^(page\s*)?[-–(]?\s*[\divxlc]{1,6}\s*[-–)]?(\s*(of|\/)\s*\d+)?$/i;

/**
 * Running headers and footers: text in the top or bottom band of the page that repeats (digits ignored)
 * on at least 40% of pages, plus bare page numbers there. Returns the blocks to leave out of the body.
 */
export function findRepeatedFurniture(layouts: PageLayout[]): Set<TextBlock> {
  const drop = new Set<TextBlock>();
  if (layouts.length < 2) return drop;
  const bands = layouts.map((p) =>
    p.blocks.filter((b): b is TextBlock => b.kind === 'text' && (b.y1 <= 0.1 * p.height || b.y0 >= 0.9 * p.height)),
  );
  const keys = bands.map((band) => band.map((b) => bandKeys(blockText(b))));
  const pagesWith = new Map<string, number>();
  for (const bandKeyLists of keys) {
    for (const k of new Set(bandKeyLists.flat())) pagesWith.set(k, (pagesWith.get(k) ?? 0) + 1);
  }
  const min = Math.max(3, Math.ceil(0.4 * layouts.length));
  bands.forEach((band, i) =>
    band.forEach((b, j) => {
      const text = blockText(b);
      if (PAGE_NUMBER.test(text.trim()) || (keys[i]?.[j] ?? []).some((k) => (pagesWith.get(k) ?? 0) >= min))
        drop.add(b);
    }),
  );
  // Furniture runs beside a page's content: a page whose every text block would go (a register of one-line
  // sheets, a slide deck's titles) keeps them, since there is nothing else to tell content from furniture by.
  for (const p of layouts) {
    const text = p.blocks.filter((b): b is TextBlock => b.kind === 'text');
    if (text.length > 0 && text.every((b) => drop.has(b))) for (const b of text) drop.delete(b);
  }
  return drop;
}

/**
 * What a header or footer block may repeat: its whole text, or, for a text of four words or more, the text
 * without one to three words at its end or start (a running header carrying the chapter's name:
 * "Coventry City Council 2017/18 Annual Monitoring Report Housing"), each of three words at least.
 */
function bandKeys(text: string): string[] {
  const key = normKey(text);
  const words = key.split(' ');
  const keys = [key];
  if (words.length >= 4)
    for (let k = 1; k <= 3 && words.length - k >= 3; k++)
      keys.push(words.slice(0, -k).join(' '), words.slice(k).join(' '));
  return keys;
}

/** A block's text (joined in the worker: page-layout.ts). */
export const blockText = (b: TextBlock): string => b.text;

export interface HeadingRules {
  level(b: TextBlock): number | null;
}

/**
 * Heading levels from font sizes relative to the document's body size (the size carrying most characters).
 * Sizes clearly above the body that recur as short blocks rank as levels 1, 2, ... (largest first); a size
 * seen only once (a cover title) takes the level of the nearest larger recurring size; short, fully bold
 * body-size blocks rank one level below the smallest size heading.
 */
export function headingRules(layouts: PageLayout[], skip: Set<TextBlock>): HeadingRules {
  const chars = new Map<number, number>();
  const blocks: TextBlock[] = [];
  for (const p of layouts)
    for (const b of p.blocks)
      if (b.kind === 'text' && !skip.has(b)) {
        blocks.push(b);
        chars.set(b.size, (chars.get(b.size) ?? 0) + b.chars);
      }
  let body = 0;
  let most = -1;
  for (const [s, n] of chars) if (n > most) [body, most] = [s, n];
  const headingish = (b: TextBlock): boolean =>
    b.chars >= 2 &&
    b.chars <= 200 &&
    b.lineCount <= 3 &&
    HAS_LETTER.test(blockText(b)) &&
    !PAGE_NUMBER.test(blockText(b)) &&
    !isTocLine(blockText(b));
  const isSizeHeading = (b: TextBlock): boolean => b.size >= body + Math.max(1, 0.12 * body) && headingish(b);
  const isBoldHeading = (b: TextBlock): boolean => {
    const t = blockText(b);
    return (
      b.bold &&
      Math.abs(b.size - body) <= 1 &&
      b.chars <= 120 &&
      b.lineCount <= 2 &&
      headingish(b) &&
      !ENDS_PUNCTUATED.test(t) &&
      !COLON_PHRASE.test(t)
    );
  };
  // contents pages (most blocks end in a page number): their bold entries are not headings
  const contents = new Set<PageLayout>();
  for (const p of layouts) {
    const texts = p.blocks.filter((b): b is TextBlock => b.kind === 'text').map(blockText);
    // (the end first: most texts end in neither a page number nor a numeral)
    const entries = texts.filter(
      (t) => t.length < 200 && (endsNumbered(t) || isTocLine(t)) && HAS_LETTER.test(t),
    ).length;
    if (entries >= 5 && entries >= 0.5 * texts.length) contents.add(p);
  }
  const onContents = new Set<TextBlock>();
  for (const p of contents) for (const b of p.blocks) if (b.kind === 'text') onContents.add(b);
  const counts = new Map<number, number>();
  for (const b of blocks) if (isSizeHeading(b)) counts.set(b.size, (counts.get(b.size) ?? 0) + 1);
  const single = layouts.length <= 1;
  const recurring = [...counts.entries()]
    .filter(([, n]) => n >= 2 || single)
    .map(([s]) => s)
    .sort((a, b) => b - a)
    .slice(0, 5);
  const sizeLevel = (s: number): number => {
    // smallest recurring size >= s
    let level = 1;
    recurring.forEach((r, i) => {
      if (r >= s) level = i + 1;
    });
    return level;
  };
  const boldLevel = Math.min(6, recurring.length + 1);
  return {
    level(b) {
      if (skip.has(b)) return null;
      if (onContents.has(b) && endsNumbered(blockText(b))) return null;
      if (isSizeHeading(b)) return sizeLevel(b.size);
      if (isBoldHeading(b) && blocks.length > 1 && !onContents.has(b)) return boldLevel;
      return null;
    },
  };
}

/** A fenced code block, its fence longer than any run of backticks inside. */
export function fenced(lines: string[]): string {
  let longest = 0;
  for (const l of lines) {
    // the longest run of backticks in the line
    for (let i = l.indexOf('`'); i >= 0; i = l.indexOf('`', i)) {
      const start = i;
      while (l.charCodeAt(i) === 96) i++;
      if (i - start > longest) longest = i - start;
    }
  }
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence, ...lines, fence].join('\n');
}

const escapeStart = (s: string): string => s.replace(/^(#|\||>|```)/, '\\$1');
/** Whether the line starting at `i` may start with what escapeStart escapes (#, |, > or a backtick). */
const mayNeedEscape = (s: string, i: number): boolean => {
  const c = s.charCodeAt(i);
  return c === 35 || c === 124 || c === 62 || c === 96;
};

function paragraph(b: TextBlock): string {
  const t = blockText(b);
  const bullet = BULLET.exec(t);
  if (bullet && bullet[1] !== undefined && bullet[1] !== t) return `- ${bullet[1]}`;
  // (a form's block keeps a line per row: page-layout.ts, formColumn); split only when a line needs escaping
  let escape = mayNeedEscape(t, 0);
  for (let i = t.indexOf('\n'); i >= 0 && !escape; i = t.indexOf('\n', i + 1)) escape = mayNeedEscape(t, i + 1);
  return escape ? t.split('\n').map(escapeStart).join('\n') : t;
}

/** The comment that starts page `n` in the Markdown when page markers are asked for. */
export const pageMarker = (n: number): string => `<!-- page ${n} -->`;

/** What buildMarkdown returns: the Markdown, where each page starts, and the running headers and footers it left out. */
export interface BuiltMarkdown {
  markdown: string;
  pageMap: PageMapEntry[];
  furniture: Set<TextBlock>;
}

/**
 * Builds the document's Markdown page by page, recording where each page starts (at its marker, with
 * `pageMarkers`). Words broken at a line end (page-layout.ts marks the break) are rejoined first.
 */
export function buildMarkdown(pages: BuildPage[], options: { pageMarkers?: boolean } = {}): BuiltMarkdown {
  const layouts = pages.flatMap((p) => ('layout' in p ? [p.layout] : []));
  rejoinBrokenWords(layouts);
  const skip = findRepeatedFurniture(layouts);
  const rules = headingRules(layouts, skip);
  let markdown = '';
  const pageMap: PageMapEntry[] = [];
  const bodies: { page: number; body: string }[] = [];
  for (const p of pages) {
    const parts: string[] = [];
    if ('layout' in p) {
      for (const b of p.layout.blocks) {
        if (b.kind === 'table') {
          parts.push(tableToMarkdown(b.rows));
          continue;
        }
        if (b.kind === 'code') {
          parts.push(fenced(b.lines));
          continue;
        }
        if (skip.has(b)) continue;
        const level = rules.level(b);
        if (level !== null) parts.push(`${'#'.repeat(level)} ${blockText(b)}`);
        else parts.push(paragraph(b));
      }
    } else {
      for (const para of p.ocrText.split(/\n\s*\n/)) {
        const t = para.replace(/\s*\n\s*/g, ' ').trim();
        if (t) parts.push(escapeStart(t));
      }
    }
    bodies.push({ page: p.pageNumber, body: parts.filter((x) => x.length > 0).join('\n\n') });
  }
  // markers only in a document with some text (one without stays empty: no_content)
  const markers = options.pageMarkers === true && bodies.some((b) => b.body.length > 0);
  for (const { page, body } of bodies) {
    if (markdown.length > 0) markdown += '\n\n';
    pageMap.push({ offset: markdown.length, page });
    markdown += markers ? (body ? `${pageMarker(page)}\n\n${body}` : pageMarker(page)) : body;
  }
  return { markdown, pageMap, furniture: skip };
}

/**
 * Words hyphenated across a line end, rejoined: "hyphen-" + "ated" is "hyphenated", unless the document
 * writes the word with its hyphen inside a line ("plan-making" elsewhere keeps "plan-" + "making" as
 * "plan-making"), or never writes it unbroken while it writes both parts as words of their own (a compound).
 */
export function rejoinBrokenWords(layouts: PageLayout[]): void {
  const blocks = layouts.flatMap((p) =>
    p.blocks.filter((b): b is TextBlock => b.kind === 'text' && b.text.includes('\u00AD')),
  );
  if (blocks.length === 0) return;
  // the only words the decisions below ask about (each break's parts, lower-cased, alone and joined both ways): the
  // document's words are looked up in this small set, not all gathered into one (issue 28: a long manual's words
  // were most of its Markdown build's CPU)
  const asked = new Set<string>();
  for (const b of blocks)
    replaceSoftHyphenated(b.text, (a, z) => {
      const [la, lz] = [a.toLowerCase(), z.toLowerCase()];
      asked
        .add(`${la}-${lz}`)
        .add(la + lz)
        .add(la)
        .add(lz);
      return '';
    });
  // (each word of the document hashed as it is scanned, cut out only when its hash is an asked word's: letters.ts)
  const list = wordList(asked);
  const words = new Set<string>();
  for (const p of layouts)
    for (const b of p.blocks) {
      // the broken words themselves left out: their parts are not evidence of anything
      const text =
        b.kind === 'text'
          ? replaceSoftHyphenated(b.text, () => ' ')
          : b.kind === 'table'
            ? b.rows.flat().join(' ')
            : b.lines.join(' ');
      findListedWords(text.toLowerCase(), list, words);
    }
  // a word broken at a line end, as page-layout.ts joins it: the two parts around a soft hyphen
  for (const b of blocks)
    b.text = replaceSoftHyphenated(b.text, (a, z) => {
      const [la, lz] = [a.toLowerCase(), z.toLowerCase()];
      if (words.has(`${la}-${lz}`)) return `${a}-${z}`;
      if (words.has(la + lz)) return a + z;
      return words.has(la) && words.has(lz) && la.length > 2 && lz.length > 2 ? `${a}-${z}` : a + z;
    });
}
