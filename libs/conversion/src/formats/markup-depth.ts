// SPDX-License-Identifier: AGPL-3.0-or-later
/** Deepest element nesting a document may have: far beyond real pages (tens of levels), far below the parser's limits. */
export const MAX_NESTING_DEPTH = 512;

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
  'keygen',
  'frame',
  'basefont',
  'isindex',
]);
/** Elements whose end tag is optional: an unclosed one is closed by its next sibling, so it does not nest. */
const OPTIONAL_END = new Set([
  'p',
  'li',
  'dt',
  'dd',
  'tr',
  'td',
  'th',
  'option',
  'optgroup',
  'thead',
  'tbody',
  'tfoot',
  'colgroup',
  'rb',
  'rt',
  'rtc',
  'rp',
]);
/** Raw-text elements: their content is not markup. */
const RAW = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'noscript',
  'template',
  'iframe',
  'noembed',
  'noframes',
  'plaintext',
]);

const isNameStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isNameChar = (c: number): boolean => isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 58 || c === 95;

/**
 * True when `html` nests elements more than `limit` deep. One linear pass over the tags, before any parser
 * runs: a deeply nested file makes a DOM parser and turndown's recursive walk cost minutes of CPU (or the
 * stack), so it is refused instead. Counted as a browser would roughly see it: void elements and elements
 * with optional end tags do not nest, comments and raw text (scripts, styles) are skipped.
 */
export function nestsDeeperThan(html: string, limit = MAX_NESTING_DEPTH): boolean {
  let depth = 0;
  let i = 0;
  const n = html.length;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0 || lt + 1 >= n) return false;
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      if (end < 0) return false;
      i = end + 3;
      continue;
    }
    let j = lt + 1;
    const closing = html.charCodeAt(j) === 47; // '/'
    if (closing) j += 1;
    if (j >= n || !isNameStart(html.charCodeAt(j))) {
      i = lt + 1;
      continue;
    }
    const nameStart = j;
    while (j < n && isNameChar(html.charCodeAt(j))) j += 1;
    const name = html.slice(nameStart, j).toLowerCase();
    const gt = html.indexOf('>', j);
    if (gt < 0) return false;
    const selfClosing = html.charCodeAt(gt - 1) === 47;
    i = gt + 1;
    if (VOID.has(name) || OPTIONAL_END.has(name)) continue;
    if (closing) {
      if (depth > 0) depth -= 1;
      continue;
    }
    if (RAW.has(name)) {
      const end = indexOfCaseless(html, `</${name}`, i);
      i = end < 0 ? n : end;
      continue;
    }
    if (selfClosing) continue;
    depth += 1;
    if (depth > limit) return true;
  }
  return false;
}

function indexOfCaseless(s: string, needle: string, from: number): number {
  const a = s.indexOf(needle, from);
  const b = s.indexOf(needle.toUpperCase(), from);
  return a < 0 ? b : b < 0 ? a : Math.min(a, b);
}
