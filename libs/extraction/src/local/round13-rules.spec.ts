// SPDX-License-Identifier: AGPL-3.0-or-later
import { layoutDropsRemark } from './local-extractor.js';

// Issue 26, round 13: which reading wins where the Markdown's and the page layout's differ; text no bench document prints.
describe('round 13: the layout’s reading without the remark the Markdown’s cell kept', () => {
  it('is the Markdown value less a remark in brackets at its end', () => {
    expect(layoutDropsRemark('Teak (laid 1998)', 'Teak')).toBe(true);
    expect(layoutDropsRemark('Class A(rated 2 h)', 'class a')).toBe(true);
    expect(layoutDropsRemark('"Kestrel"  (ketch rig)', 'Kestrel')).toBe(true);
  });

  it('is nothing else: a unit dropped, a longer layout reading, a remark in the middle, a per-model value', () => {
    expect(layoutDropsRemark('±3 %RH', '±3')).toBe(false);
    expect(layoutDropsRemark('Teak', 'Teak (laid 1998)')).toBe(false);
    expect(layoutDropsRemark('Teak (laid 1998) deck', 'Teak deck')).toBe(false);
    expect(layoutDropsRemark('Teak (laid 1998)', 'Oak')).toBe(false);
    expect(layoutDropsRemark({ A1: 'Teak (laid)' }, 'Teak')).toBe(false);
    expect(layoutDropsRemark('(laid 1998)', '')).toBe(false);
  });
});
