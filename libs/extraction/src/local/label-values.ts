// SPDX-License-Identifier: AGPL-3.0-or-later
import { LABEL_MATCH, labelScore, nameWords } from '../fields/field-words.js';
import type { FieldKind } from '../fields/field-kinds.js';
import type { SchemaField } from '../schema-fields.js';
import { issuerRole, looksLikeAddressLine } from './issuer-block.js';

/**
 * A label returned as a value (issue 26, round 7): a form's labels printed in one column and their values in
 * another, or a boxed form's label row read as the row of values above it, give a candidate that is itself a
 * label ("Operate time" for a contact material, "Start Date" for an order number, "Licensee (Customer)" for the
 * parties). Refused, precision first, when:
 * - the field names a thing's identifier or number (`…_number`, `…_no`, `…_id`, `…_ref`, `…_reference`,
 *   `…_serial`) and the value has no digit;
 * - the field is a time (`…_time`) and the value states neither a length of time with its unit nor a clock time
 *   (a bare number stays: its table's header gives the unit);
 * - the field is a range (`…_range`) and the value is one number, not two ends (round 7); the field is a limit
 *   (`max_…`, `min_…`) and the value is a range (round 11);
 * - the value is only party roles ("Licensee (Customer)", "Disclosing Party");
 * - the value is another field's label: a short phrase with no digit whose words are all that field's name words;
 * - the field asks for a name (its name says name, company or party, or it is the issuer's) and the value is a
 *   line of an address ("17 • 5020 Salzburg • Austria" for a hotel; round 9), or has no letter ("60" for a
 *   `consultant`; round 11).
 * Returns why, or undefined.
 */
const IDENTIFIER_HEAD = /^(?:number|no|num|id|ref|reference|serial)$/;
const TIME_VALUE =
  /\d\s*(?:ms|µs|μs|us|ns|s|sec|secs|seconds?|min|mins|minutes?|h|hrs?|hours?|days?|weeks?)\b|\b\d{1,2}[:.]\d{2}\b/i;
const ROLE =
  /^(?:licensor|licensee|supplier|customer|buyer|seller|client|provider|contractor|consultant|landlord|tenant|lessor|lessee|employer|employee|principal|distributor|vendor|purchaser|party|parties|disclosing|receiving|the)$/;

const letterWords = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((w) => w.length > 0);

export const labelAsValue = (
  field: SchemaField,
  kind: FieldKind,
  value: string,
  others: SchemaField[],
): string | undefined => {
  const text = value.trim();
  const name = nameWords(field.path[field.path.length - 1]!);
  const head = name[name.length - 1] ?? '';
  if (text && !/\d/.test(text) && name.length >= 2 && IDENTIFIER_HEAD.test(head) && !name.includes('of'))
    return 'it has no digit, and an identifier or a number has one (a label, not a value)';
  // (a bare number is a time in the unit its table's header states: "| Conversion time | ms | 26 |")
  if (kind.kind === 'text' && head === 'time' && !TIME_VALUE.test(text) && !/^[-+~]?\d[\d.,]*$/.test(text))
    return 'it states no time (a number with a unit of time, or a clock time)';
  // a range (`…_range`) has two ends: one number of a Min/Typ/Max row is not it ("1.4" for 1.4 V to 3.6 V)
  if (
    head === 'range' &&
    /\d/.test(text) &&
    !/\d[^\d]{0,12}?(?:[~～–—-]|\bto\b|\.{2,3}|…|\/)\s*[-+±]?\d/.test(text) &&
    !/±\s*\d/.test(text)
  )
    return 'it is one number, and the field asks for a range (two ends)';
  // (round 11) a limit (`max_…`, `…_min`) is one number: a range's two ends ("-15 to 110 °C" for
  // max_liquid_temperature) are not it, and which end is meant is the label's business
  if (
    name.some((w) => /^(?:max|maximum|min|minimum)$/.test(w)) &&
    !name.includes('range') &&
    /\d[^\d]{0,12}?(?:[~～–—]|\bto\b|\.{2,3}|…)\s*[-+±]?\d/.test(text)
  )
    return 'it is a range (two ends), and the field asks for one limit';
  const asksName =
    kind.kind === 'text' &&
    !name.some((w) => /^(?:address|location|site|place|city|town|country|postcode|zip|branch|depot|street)$/.test(w)) &&
    (name.some((w) => /^(?:name|company|party|organisation|organization)$/.test(w)) ||
      issuerRole(field, others) === 'name');
  if (asksName && looksLikeAddressLine(text)) return 'it is a line of an address, and the field asks for a name';
  // (round 11) a name or a party has a letter: "60" for a `consultant` is a number of another column
  if ((asksName || (kind.kind === 'text' && name.length === 1 && ROLE.test(head))) && text && !/\p{L}/u.test(text))
    return 'it has no letter, and the field asks for a name';
  const words = letterWords(text);
  if (!/\d/.test(text) && words.length > 0 && words.length <= 4 && words.every((w) => ROLE.test(w)))
    return 'it is a party’s role (a label), not a name';
  if (!/\d/.test(text) && words.length > 0 && words.length <= 4 && labelScore(field, text, true) < LABEL_MATCH) {
    const other = others.find((o) => {
      if (o === field) return false;
      const own = new Set(nameWords(o.path[o.path.length - 1]!));
      return words.every((w) => own.has(w)) && labelScore(o, text, true) >= LABEL_MATCH;
    });
    if (other) return `it is the label of the field '${other.path.join('.')}', not a value`;
  }
  return undefined;
};
