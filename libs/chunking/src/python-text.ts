// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The three string primitives the splitter's behaviour depends on, with Python's semantics (the spec's
 * system is Python: `len()`, `str.strip()` and `str.split()` define chunk sizes, stripping and word counts).
 *
 * JavaScript differs on each: `.length` counts UTF-16 code units (an emoji is 2), and `String#trim` /
 * `/\s/` use a different whitespace set (JS adds U+FEFF; Python adds U+001C–U+001F and U+0085). Hand-written
 * because no library exposes Python's exact `str.isspace` set; the set below is CPython's
 * `Py_UNICODE_ISSPACE` (all of it lies in the BMP, so a char-code test suffices).
 */

/** True when the UTF-16 code unit is whitespace for Python's `str.isspace()`. */
export function isPythonSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Python's `len(s)`: the number of Unicode code points (a surrogate pair counts once). */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The [start, end) UTF-16 range of `s.slice(from, to)` after Python's `str.strip()`. */
export function stripRange(s: string, from = 0, to = s.length): [number, number] {
  let start = from;
  let end = to;
  while (start < end && isPythonSpace(s.charCodeAt(start))) start++;
  while (end > start && isPythonSpace(s.charCodeAt(end - 1))) end--;
  return [start, end];
}

/** Python's `s.strip()`. */
export function pythonStrip(s: string): string {
  const [start, end] = stripRange(s);
  return s.slice(start, end);
}

/** Python's `len(s.split())`: the number of maximal runs of non-whitespace characters. */
export function countWords(s: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const space = isPythonSpace(s.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}
