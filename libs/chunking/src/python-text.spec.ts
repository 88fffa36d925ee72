// SPDX-License-Identifier: AGPL-3.0-or-later
import { codePointLength, countWords, isPythonSpace, pythonStrip } from './python-text.js';

describe('Python string semantics', () => {
  it('codePointLength counts like len(): a surrogate pair is one character, a lone surrogate is one', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength('abc')).toBe(3);
    expect(codePointLength('naïve café')).toBe(10);
    expect(codePointLength('😀😀')).toBe(2);
    expect(codePointLength('a\uD83Db')).toBe(3);
  });

  it('isPythonSpace matches str.isspace() where JavaScript differs', () => {
    for (const c of ['\t', '\n', '\v', '\f', '\r', ' ', '\u001c', '\u001f', '\u0085', '\u00a0', '\u2003', '\u3000']) {
      expect(isPythonSpace(c.charCodeAt(0))).toBe(true);
    }
    for (const c of ['\ufeff', '\u200b', 'a', '\u0000', '\u180e']) expect(isPythonSpace(c.charCodeAt(0))).toBe(false);
  });

  it('pythonStrip strips like str.strip()', () => {
    expect(pythonStrip('\u0085 \u00a0text\u3000\n')).toBe('text');
    expect(pythonStrip('\ufefftext')).toBe('\ufefftext');
    expect(pythonStrip(' \n ')).toBe('');
  });

  it('countWords counts like len(text.split())', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('   ')).toBe(0);
    expect(countWords('The development provides 200 covered cycle parking spaces.')).toBe(8);
    expect(countWords('a  b\tc\u00a0d\ufeffe\n\nf')).toBe(5);
    expect(countWords('25/01178/REM, D&A')).toBe(2);
  });
});
