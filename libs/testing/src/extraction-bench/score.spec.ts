// SPDX-License-Identifier: AGPL-3.0-or-later
import { dictKeys, isoDate, normalise, score } from './score.js';

describe('extraction bench scorer, strict mode (normalised exact match)', () => {
  it.each([
    ['Acme Ltd', 'acme  ltd', 'case and whitespace'],
    ['Keller & Moss Architects', 'Keller and Moss Architects.', '& and a trailing full stop'],
    ['State of New York', '"State of New York"', 'quotes'],
    ['-20 to 60 °C', '-20 ... +60°C', 'a range written with dots, a plus sign, no space before the unit'],
    ['14 March 2024', '2024-03-14', 'the same day in another form'],
    ['5th day of May, 2025', '5 May 2025', 'ordinal day words'],
    ['04.03.2025', '4 March 2025', 'a dotted date is day.month'],
    ['Feb 3, 2026', 'February 3 2026', 'month first'],
    ['10,50', 'EUR 10,50', 'an amount with its currency code'],
    ['1.234,50', '€1,234.50', 'European and English separators'],
    ['0.35 kg', '0.35kg', 'a measured value'],
  ])('%j = %j (%s)', (expected, got) => {
    expect(score(expected, got, 'strict')).toBe('right');
  });

  it.each([
    ['Acme Ltd', 'Acme Ltd, 1 High Street', 'more than the value (containment is lenient only)'],
    ['Lumen Software Pty Ltd', 'Lumen Software Pty Lt', 'a cut name'],
    ['14 March 2024', '14 March 2025', 'another day'],
    ['04.03.2025', '3 April 2025', 'month and day swapped'],
    ['10,50', '10.05', 'another amount'],
    ['-10 to 50 °C', '-10', 'half a range'],
  ])('%j != %j (%s)', (expected, got) => {
    expect(score(expected, got, 'strict')).toBe('wrong');
    expect(score(expected, null, 'strict')).toBe('null_when_present');
  });

  it('reads "value;unit" as one number and the same unit, or no unit', () => {
    expect(score('3000;min-1', '3,000min-1', 'strict')).toBe('right');
    expect(score('3000;min-1', '3000 r/min', 'strict')).toBe('right');
    expect(score('0.64;Nm', '0.64 N·m', 'strict')).toBe('right');
    expect(score('0.41;Nm/A', '0.41N·m/A (rms)', 'strict')).toBe('right');
    expect(score('0.14;kg*m2*10-4', '0.14kg·m2x10-4', 'strict')).toBe('right');
    expect(score('230;V', '230 V AC', 'strict')).toBe('right');
    expect(score('20;A', '20', 'strict')).toBe('right');
    // another unit, another number, a second number, a remark after the value: wrong
    expect(score('230;V', '230 A', 'strict')).toBe('wrong');
    expect(score('50;Hz', '50/60Hz', 'strict')).toBe('wrong');
    expect(score('0.8;kg', '0.8kg (without brake)', 'strict')).toBe('wrong');
    expect(score('230;V', '230V AC rated', 'strict')).toBe('wrong');
    expect(score('0.64;Nm', '0.640 N·m', 'strict')).toBe('right');
    expect(score('0.64;Nm', '0.65 N·m', 'strict')).toBe('wrong');
  });

  it('a number is the number alone or a code ending in it', () => {
    expect(score(65, 'IP65', 'strict')).toBe('right');
    expect(score(3, '3', 'strict')).toBe('right');
    expect(score(3, 'degree 3 or 4', 'strict')).toBe('wrong');
  });

  it('lists and per-model dicts are strict item by item', () => {
    expect(score(['Acme Ltd', 'Beta LLC'], ['ACME LTD', 'Beta LLC.'], 'strict')).toBe('right');
    expect(score(['Acme Ltd', 'Beta LLC'], ['Acme Ltd (the "Supplier")', 'Beta LLC'], 'strict')).toBe('wrong');
    expect(score(['Acme Ltd', 'Beta LLC'], ['Acme Ltd (the "Supplier")', 'Beta LLC'], 'lenient')).toBe('right');
    const expected = { T10: '20;A', T21: '32;A' };
    expect(score(expected, { 'S-T10': '20 A', 'S-T21': '32A' }, 'strict')).toBe('right');
    expect(score(expected, { 'S-T10': '20 A', 'S-T21': '32 A 45' }, 'strict')).toBe('wrong');
    expect(score(expected, { 'S-T10': '20 A' }, 'strict')).toBe('null_when_present');
    expect(dictKeys(expected, { 'S-T10': '20 A', 'S-T21': '3 A', X: '1' }, 'strict')).toEqual({
      right: 1,
      wrong: 1,
      missing: 0,
      extra: 1,
    });
  });

  it('an expected null needs a null in both modes', () => {
    expect(score(null, null, 'strict')).toBe('null_correct');
    expect(score(null, 'x', 'strict')).toBe('wrong');
    expect(score(null, {}, 'lenient')).toBe('null_correct');
  });
});

describe('extraction bench scorer, lenient mode (containment)', () => {
  it('is a superset of strict: containment and the first number count', () => {
    expect(score('Acme Ltd', 'Acme Ltd, 1 High Street', 'lenient')).toBe('right');
    expect(score('0.8;kg', '0.8kg (without brake)', 'lenient')).toBe('right');
    expect(score('-20 to 60 °C', '-20 ... +60°C', 'lenient')).toBe('right');
    expect(score('Acme Ltd', 'Beta LLC', 'lenient')).toBe('wrong');
  });
});

describe('normalisers', () => {
  it('normalise keeps decimal points and signs, drops punctuation', () => {
    expect(normalise('  Total: EUR 1,234.50; ')).toBe('total eur 1234.50');
    expect(normalise('-10 … +50 ℃')).toBe('-10 to 50 °c');
  });
  it('isoDate reads a whole value that is one date, else nothing', () => {
    expect(isoDate('2025/03/04')).toBe('2025-03-04');
    expect(isoDate('21/06/2025')).toBe('2025-06-21');
    expect(isoDate('January 15, 2026')).toBe('2026-01-15');
    expect(isoDate('12th day of January, 2026')).toBe('2026-01-12');
    expect(isoDate('32/01/2025')).toBeUndefined();
    expect(isoDate('on 21/06/2025')).toBeUndefined();
  });
});
