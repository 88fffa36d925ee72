// SPDX-License-Identifier: AGPL-3.0-or-later
import { isSpaceCode } from './white-space.js';

describe('isSpaceCode', () => {
  it('is /\\s/ on every UTF-16 code unit', () => {
    const differ: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (isSpaceCode(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
  });
});
