// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Scoring of one extracted field against its expected value (issue 26's benchmark), normalised as the
 * datasheetminer expected files write values: `"value;unit"` is right when the extracted value's first number
 * equals it (`"0.64N·m"` for `"0.64;Nm"`); a number must be equal (`"IP65"` for `65`); a string is right when one
 * contains the other, case and spacing ignored; an expected `null` needs a `null`. A per-model dict is right when
 * every expected model has a key (matched by its name's end, `@` and spaces ignored) holding the right value; it is
 * wrong when any returned key holds a wrong value, and counts as null-when-present when keys are only missing.
 */
export type Outcome = 'right' | 'wrong' | 'null_when_present' | 'null_correct';

export const firstNumber = (v: unknown): number | undefined => {
  const m = /-?\d+(?:[.,]\d+)?/.exec(String(v).replace(/(\d),(\d{3})(?!\d)/g, '$1$2'));
  return m ? Number(m[0].replace(',', '.')) : undefined;
};

const squash = (v: unknown) =>
  String(v)
    .toLowerCase()
    .replace(/[\s\-_@]+/g, '');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const isEmpty = (v: unknown) =>
  v === null || v === undefined || v === '' || (isObject(v) && Object.keys(v).length === 0);

const valueRight = (expected: unknown, got: unknown): boolean => {
  if (typeof expected === 'number') return firstNumber(got) === expected;
  const text = String(expected);
  if (/^-?[\d.]+;/.test(text)) return firstNumber(got) === Number(text.split(';')[0]);
  return squash(got).includes(squash(text)) || squash(text).includes(squash(got));
};

/** The returned key naming the expected model: equal, or ending with it (`S-T10` for `T10`). */
const keyFor = (got: Record<string, unknown>, model: string): string | undefined => {
  const want = squash(model);
  const keys = Object.keys(got);
  return keys.find((k) => squash(k) === want) ?? keys.find((k) => squash(k).endsWith(want));
};

export const score = (expected: unknown, got: unknown): Outcome => {
  if (expected === null || expected === undefined) return isEmpty(got) ? 'null_correct' : 'wrong';
  if (isEmpty(got)) return 'null_when_present';
  if (Array.isArray(expected)) {
    // a list (a contract's parties): every expected item in some returned item, nothing returned besides
    const items = (Array.isArray(got) ? got : [got]).map(String);
    if (!expected.every((e) => items.some((i) => valueRight(e, i)))) return 'wrong';
    return items.length === expected.length ? 'right' : 'wrong';
  }
  if (isObject(expected)) {
    if (!isObject(got)) return 'wrong';
    let missing = false;
    for (const [model, value] of Object.entries(expected)) {
      const key = keyFor(got, model);
      if (key === undefined) missing = true;
      else if (!valueRight(value, got[key])) return 'wrong';
    }
    return missing ? 'null_when_present' : 'right';
  }
  return valueRight(expected, got) ? 'right' : 'wrong';
};

/**
 * A per-model dict key by key (the field's outcome above is all-or-nothing): expected models whose key holds the
 * right value, a wrong one, or is missing; and returned keys naming no expected model.
 */
export const dictKeys = (
  expected: Record<string, unknown>,
  got: unknown,
): { right: number; wrong: number; missing: number; extra: number } => {
  const returned = isObject(got) ? got : {};
  const counts = { right: 0, wrong: 0, missing: 0, extra: 0 };
  const used = new Set<string>();
  for (const [model, value] of Object.entries(expected)) {
    const key = keyFor(returned, model);
    if (key === undefined) counts.missing += 1;
    else {
      used.add(key);
      counts[valueRight(value, returned[key]) ? 'right' : 'wrong'] += 1;
    }
  }
  counts.extra = Object.keys(returned).filter((k) => !used.has(k)).length;
  return counts;
};

export interface Tally {
  fields: number;
  right: number;
  /** Wrong values returned, of which `wrong_absent` for fields the document does not state. */
  wrong: number;
  wrong_absent: number;
  null_when_present: number;
  null_correct: number;
}

export const emptyTally = (): Tally => ({
  fields: 0,
  right: 0,
  wrong: 0,
  wrong_absent: 0,
  null_when_present: 0,
  null_correct: 0,
});

export const add = (tally: Tally, outcome: Outcome, expected: unknown): void => {
  tally.fields += 1;
  tally[outcome] += 1;
  if (outcome === 'wrong' && (expected === null || expected === undefined)) tally.wrong_absent += 1;
};

export const merge = (into: Tally, from: Tally): void => {
  for (const key of Object.keys(into) as (keyof Tally)[]) into[key] += from[key];
};

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)} %`);

/**
 * Precision: right among returned values; recall: right among values the document states; F1 of the two.
 * "Fields right" counts a correct null as right (the "≥ 70 % of fields right"); "returned wrong" is the
 * share of returned values that are wrong (its "≤ 5 %").
 */
export const summary = (t: Tally) => {
  const returned = t.right + t.wrong;
  const present = t.right + t.null_when_present + (t.wrong - t.wrong_absent);
  const precision = returned === 0 ? 0 : t.right / returned;
  const recall = present === 0 ? 0 : t.right / present;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return {
    returned,
    fieldsRight: pct(t.right + t.null_correct, t.fields),
    returnedWrong: pct(t.wrong, returned),
    precision: returned === 0 ? '–' : precision.toFixed(3),
    recall: present === 0 ? '–' : recall.toFixed(3),
    f1: f1.toFixed(3),
  };
};
