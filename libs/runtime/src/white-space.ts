// SPDX-License-Identifier: AGPL-3.0-or-later

/**
 * A UTF-16 code unit that `/\s/` matches (and `trim()` removes): ASCII tab to carriage return and space; no-break
 * space, ogham space mark, en quad to hair space, line and paragraph separators, narrow no-break space, medium
 * mathematical space, ideographic space, BOM. white-space.spec.ts checks all 65,536 against the expression. Written
 * out because a regular expression per character is what the conversion's and the search's hot loops avoid.
 */
export const isSpaceCode = (c: number): boolean =>
  c < 128
    ? c === 32 || (c >= 9 && c <= 13)
    : c === 0xa0 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0xfeff;
