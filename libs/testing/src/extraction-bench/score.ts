// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Scoring of one extracted field against its expected value (issue 26's benchmark), in two modes.
 *
 * **Lenient** (the first rounds' scorer): `"value;unit"` is right when the extracted value's first number equals it
 * (`"0.64N·m"` for `"0.64;Nm"`); a number must be equal (`"IP65"` for `65`); a string is right when one contains the
 * other, case and spacing ignored; an expected `null` needs a `null`.
 *
 * **Strict** (the headline since round 3): a normalised exact match. Both sides are normalised (Unicode NFKC, case,
 * whitespace, punctuation, `&` as "and", range dashes and "…"/"~" as "to", a leading `+` dropped) and must then be
 * equal — a value that merely contains the expected one ("Acme Ltd, 1 High St" for "Acme Ltd") is wrong. Numbers
 * and units are compared as numbers and units: `"value;unit"` wants exactly one number equal to it and either no
 * unit or the same unit (`N·m` = `Nm` = `N m`, `°C` = `deg C`, `r/min` = `rpm` = `min-1`); an amount of money
 * may carry a currency sign or code and is compared as a number (`"10,50"` = `"EUR 10,50"` = `"10.50"`); two dates
 * are equal when they name the same day (`"14 March 2024"` = `"2024-03-14"`; `04.03.2025` is day.month).
 *
 * A per-model dict is right when every expected model has a key (matched by its name's end, `@` and spaces
 * ignored) holding the right value; it is wrong when any returned key holds a wrong value, and counts as
 * null-when-present when keys are only missing.
 */
export type Mode = 'strict' | 'lenient';
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

const lenientRight = (expected: unknown, got: unknown): boolean => {
  if (typeof expected === 'number') return firstNumber(got) === expected;
  const text = String(expected);
  if (/^-?[\d.]+;/.test(text)) return firstNumber(got) === Number(text.split(';')[0]);
  return squash(got).includes(squash(text)) || squash(text).includes(squash(got));
};

/** Units written several ways, to one spelling (lower case, spaces removed before the lookup). */
const UNIT_ALIASES: Record<string, string> = {
  'n·m': 'nm',
  'n.m': 'nm',
  'n*m': 'nm',
  'n-m': 'nm',
  '°c': 'degc',
  degc: 'degc',
  '℃': 'degc',
  c: 'degc',
  'r/min': 'rpm',
  'min-1': 'rpm',
  'min^-1': 'rpm',
  'min⁻¹': 'rpm',
  '1/min': 'rpm',
  kgs: 'kg',
  vac: 'v',
  vdc: 'v',
  arms: 'a',
  'a(rms)': 'a',
  ohm: 'ω',
  ohms: 'ω',
};
/** A unit's one spelling: multiplication dots and spaces dropped, "x10" as "10", an "(rms)" qualifier dropped. */
const unitKey = (unit: string): string => {
  const u = unit
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, '')
    .replace(/\(?rms\)?$/, '');
  const key = UNIT_ALIASES[u] ?? u;
  return key.replace(/[·⋅*.]/g, '').replace(/x(?=10)/g, '');
};

/** Unicode, case, whitespace and punctuation normalised; ranges written one way ("-20 ... +60" = "-20 to 60"). */
export const normalise = (v: unknown): string =>
  String(v)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/(\d)\s*(?:\.\.\.|…|~|～|–|—)\s*(?=[-+]?\d)/g, '$1 to ')
    .replace(/(^|\s)\+(?=\d)/g, '$1')
    .replace(/(\d),(\d{3})(?!\d)/g, '$1$2')
    // a number and its unit with or without a space ("60°C" = "60 °C")
    .replace(/(\d)(?=[^\d\s.,])/g, '$1 ')
    .replace(/[\s"'`’“”()[\]{}<>:;,!?*_]+/g, ' ')
    .replace(/(?<!\d)\.|\.(?!\d)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const NUM = String.raw`[-+]?\d+(?:[.,]\d+)?`;
/** One number and an optional unit, nothing else ("0.64 N·m", "230 V AC", "20"). */
const quantity = (v: unknown): { n: number; unit: string } | undefined => {
  const text = String(v)
    .normalize('NFKC')
    .trim()
    .replace(/(\d),(\d{3})(?!\d)/g, '$1$2');
  const m = new RegExp(String.raw`^(${NUM})\s*([^\d\s].{0,15})?$`).exec(text);
  if (!m) return undefined;
  return { n: Number(m[1]!.replace(',', '.')), unit: m[2] ? unitKey(m[2]) : '' };
};

/** An amount: a currency sign or code and one number ("$1,234.50", "EUR 10,50", "10.50 €"). */
const amount = (v: unknown): number | undefined => {
  const text = String(v).trim();
  const m = /^(?:[A-Z]{3}\s?|[$€£¥]\s?)?([-+]?\d[\d.,]*)(?:\s?(?:[A-Z]{3}|[$€£¥]))?$/.exec(text);
  if (!m) return undefined;
  let n = m[1]!;
  // the last separator followed by 1-2 digits is the decimal one ("1.234,50", "1,234.50", "10,50")
  const dec = /[.,](\d{1,2})$/.exec(n);
  n = dec ? `${n.slice(0, dec.index).replace(/[.,]/g, '')}.${dec[1]}` : n.replace(/[.,]/g, '');
  const value = Number(n);
  return Number.isFinite(value) ? value : undefined;
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** A whole value that is one date, as yyyy-mm-dd; numeric dates are day first unless the year leads. */
export const isoDate = (v: unknown): string | undefined => {
  const text = String(v).trim().toLowerCase().replace(/,/g, ' ').replace(/\s+/g, ' ');
  const iso = (y: number, m: number, d: number) =>
    m >= 1 && m <= 12 && d >= 1 && d <= 31
      ? `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
      : undefined;
  const year = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})$/.exec(text);
  if (m) return iso(year(m[3]!), Number(m[2]), Number(m[1]));
  const month = (w: string) => MONTHS.indexOf(w.slice(0, 3)) + 1;
  m = /^(?:the )?(\d{1,2})(?:st|nd|rd|th)?(?: day)?(?: of)? ([a-z]{3,9})\.? (\d{4})$/.exec(text);
  if (m && month(m[2]!) > 0) return iso(Number(m[3]), month(m[2]!), Number(m[1]));
  m = /^([a-z]{3,9})\.? (\d{1,2})(?:st|nd|rd|th)? (\d{4})$/.exec(text);
  if (m && month(m[1]!) > 0) return iso(Number(m[3]), month(m[1]!), Number(m[2]));
  return undefined;
};

const strictRight = (expected: unknown, got: unknown): boolean => {
  if (typeof got === 'object' && got !== null) return false;
  if (typeof expected === 'number') {
    // a count or a code's number: the number alone, or a code of letters and it ("IP65" for 65)
    const text = String(got).trim();
    return new RegExp(String.raw`^(?:[A-Za-z]{1,4}\s?)?${expected}$`).test(text);
  }
  const text = String(expected);
  const unitValue = /^(-?[\d.]+);(.*)$/.exec(text);
  if (unitValue) {
    const q = quantity(got);
    if (!q || q.n !== Number(unitValue[1])) return false;
    return q.unit === '' || q.unit === unitKey(unitValue[2]!);
  }
  if (normalise(got) === normalise(text)) return true;
  const dates = [isoDate(text), isoDate(got)];
  if (dates[0] !== undefined) return dates[0] === dates[1];
  const amounts = [amount(text), amount(got)];
  if (amounts[0] !== undefined && amounts[1] !== undefined) return amounts[0] === amounts[1];
  // a measured value written out ("0.35 kg", "-20 to 60 °C"): number and unit normalised
  const q = [quantity(text), quantity(got)];
  return q[0] !== undefined && q[1] !== undefined && q[0].n === q[1].n && q[0].unit === q[1].unit;
};

const valueRight = (expected: unknown, got: unknown, mode: Mode): boolean =>
  // lenient is a superset of strict: a normalised exact match is right in both
  strictRight(expected, got) || (mode === 'lenient' && lenientRight(expected, got));

/** The returned key naming the expected model: equal, or ending with it (`S-T10` for `T10`). */
const keyFor = (got: Record<string, unknown>, model: string): string | undefined => {
  const want = squash(model);
  const keys = Object.keys(got);
  return keys.find((k) => squash(k) === want) ?? keys.find((k) => squash(k).endsWith(want));
};

export const score = (expected: unknown, got: unknown, mode: Mode = 'lenient'): Outcome => {
  if (expected === null || expected === undefined) return isEmpty(got) ? 'null_correct' : 'wrong';
  if (isEmpty(got)) return 'null_when_present';
  if (Array.isArray(expected)) {
    // a list (a contract's parties): every expected item in some returned item, nothing returned besides
    const items = (Array.isArray(got) ? got : [got]).map(String);
    if (!expected.every((e) => items.some((i) => valueRight(e, i, mode)))) return 'wrong';
    return items.length === expected.length ? 'right' : 'wrong';
  }
  if (isObject(expected)) {
    if (!isObject(got)) return 'wrong';
    let missing = false;
    for (const [model, value] of Object.entries(expected)) {
      const key = keyFor(got, model);
      if (key === undefined) missing = true;
      else if (!valueRight(value, got[key], mode)) return 'wrong';
    }
    return missing ? 'null_when_present' : 'right';
  }
  return valueRight(expected, got, mode) ? 'right' : 'wrong';
};

/**
 * A per-model dict key by key (the field's outcome above is all-or-nothing): expected models whose key holds the
 * right value, a wrong one, or is missing; and returned keys naming no expected model.
 */
export const dictKeys = (
  expected: Record<string, unknown>,
  got: unknown,
  mode: Mode = 'lenient',
): { right: number; wrong: number; missing: number; extra: number } => {
  const returned = isObject(got) ? got : {};
  const counts = { right: 0, wrong: 0, missing: 0, extra: 0 };
  const used = new Set<string>();
  for (const [model, value] of Object.entries(expected)) {
    const key = keyFor(returned, model);
    if (key === undefined) counts.missing += 1;
    else {
      used.add(key);
      counts[valueRight(value, returned[key], mode) ? 'right' : 'wrong'] += 1;
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
