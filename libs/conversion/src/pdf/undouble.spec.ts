// SPDX-License-Identifier: AGPL-3.0-or-later
import { seededRandom } from '@lectern/testing';
import { undouble, undoubleWords } from './page-layout.js';

// The scanned undoubling (letters.ts) changes exactly what the regular expressions it replaced changed, on random
// lines rich in doubled letters, shadow-printed words and their near misses.
const PIECES = [
  'CCoonntteennttss',
  'Coonntteennttss',
  'aaabbcc',
  'ttaabbllee',
  'all',
  'see',
  'aa',
  'bb',
  'cc',
  'Ab',
  'é',
  'éé',
  '𝐀𝐀',
  ' ',
  '-',
  '1',
  'x',
];
/** What page-layout.ts did before: its per-word `undouble` over runs found by a regular expression. */
const byRegex = (s: string): string => (/(\p{L})\1/u.test(s) ? s.replace(/\p{L}{7,}/gu, undouble) : s);

it('undoubleWords gives what the regular expressions gave', () => {
  const r = seededRandom(7);
  const lines = Array.from({ length: 5000 }, () =>
    Array.from({ length: r(8) }, () => PIECES[r(PIECES.length)]).join(''),
  );
  const differing = lines.filter((s) => undoubleWords(s) !== byRegex(s));
  expect(differing).toEqual([]);
  expect(lines.filter((s) => undoubleWords(s) !== s).length).toBeGreaterThan(100); // the cases change something
  expect(undoubleWords('CCoonntteennttss page')).toBe('Contents page');
  expect(undoubleWords('aaabbcc')).toBe('aabc');
});
