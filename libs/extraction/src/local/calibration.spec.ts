// SPDX-License-Identifier: AGPL-3.0-or-later
import { fieldKind } from '../fields/field-kinds.js';
import type { SchemaField } from '../schema-fields.js';
import {
  ABSTAIN_BELOW,
  abstainWhy,
  FEATURE_NAMES,
  featureVector,
  labelBy,
  probability,
  valueShape,
  WEIGHTS,
  type ValueFeatures,
} from './calibration.js';

const field = (name: string, hint: unknown = ''): SchemaField => ({ path: [name], kind: 'scalar', hint });

/** A clean key_value reading of a name under its own label, nothing competing. */
const clean: ValueFeatures = {
  method: 'key_value',
  labelBy: 'own',
  labelScore: 1,
  kind: 'text',
  fit: 'words',
  layout: 'same_line',
  rank: 0,
  competitors: 0,
  margin: 0.95,
  support: 3,
  extraWords: 0,
  digitInWords: false,
  cleaned: false,
  perModel: false,
  score: 0.95,
};

describe('calibration features and model', () => {
  it('has one weight per input and an intercept', () => {
    expect(WEIGHTS).toHaveLength(FEATURE_NAMES.length + 1);
    expect(featureVector(clean)).toHaveLength(FEATURE_NAMES.length);
  });

  it('counts the words a value has beyond its kind, and a digit in a name', () => {
    const supplier = field('supplier');
    expect(valueShape(supplier, fieldKind(supplier), 'Acme Ltd')).toEqual({ extraWords: 0, digitInWords: false });
    expect(valueShape(supplier, fieldKind(supplier), 'Acme Widgets Ltd, 5 Tanner Row, York YO1 6JB')).toEqual({
      extraWords: 4,
      digitInWords: true,
    });
    // an address is many words by nature, and its number is no neighbour
    const address = field('vendor_address');
    expect(valueShape(address, fieldKind(address), '1450 Commerce Blvd, Suite 200, Denver, CO 80202')).toEqual({
      extraWords: 0,
      digitInWords: false,
    });
    const current = field('max_discharge_current');
    expect(valueShape(current, fieldKind(current), '10 A at 25 °C').extraWords).toBe(3);
  });

  it("tells a label of the field's own words from a synonym and a description", () => {
    expect(labelBy(field('amount_due'), 'Amount due').by).toBe('own');
    expect(labelBy(field('amount_due'), 'Total charges').by).toBe('synonym');
    expect(labelBy(field('xq_value', 'Coil resistance'), 'Coil resistance').by).toBe('description');
    expect(labelBy(field('amount_due'), 'Delivery address').by).toBe('none');
  });

  it('a clean reading is returned; the same value with its neighbour kept is withheld, and the warning says why', () => {
    expect(probability(clean)).toBeGreaterThan(0.9);
    const neighbour = { ...clean, extraWords: 4, digitInWords: true };
    expect(probability(neighbour)).toBeLessThan(ABSTAIN_BELOW);
    expect(abstainWhy(neighbour)).toBe(
      'more words than its kind needs; a name holding a number (an address kept with it?)',
    );
  });
});
