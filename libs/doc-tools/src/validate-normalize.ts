// SPDX-License-Identifier: AGPL-3.0-or-later
import type { JsonValidateAndNormalizeInput, JsonValidateAndNormalizeOutput } from '@lectern/contracts';
import type { z } from 'zod';

type Input = z.infer<typeof JsonValidateAndNormalizeInput>;
type Output = z.infer<typeof JsonValidateAndNormalizeOutput>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeName = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : isObject(v) ? 'an object' : `a ${typeof v}`;

/** Units written against their number ("1100V", not "1100 V"): SI prefixes on electrical and physical units. */
const UNIT_AFTER_SPACE =
  /(\d)\s+((?:[kMGmµu]?(?:V|A|W|Wh|VA|var|Hz|Ω|ohm))|%|°C|°F|mm|cm|kg|Nm|N·m|rpm|min-1|r\/min)(?![\p{L}\p{N}])/gu;
/** Ranges: `~`, `～`, `–`, `—` (and spaces around them or a hyphen) between two numbers become one hyphen. */
const RANGE = /(\d)\s*(?:~|～|–|—|-)\s*(?=[-+]?\d)/g;
/**
 * A range whose upper end carries its own sign ("-30 ~ +70 °C", "-40 – -10 °C"): one hyphen would read as a minus
 * ("-30-+70"), so it becomes "to". Only after `~`, `～`, `–`, `—` (a hyphen before a sign is left as printed).
 */
const SIGNED_RANGE = /(\d)\s*(?:~|～|–|—)\s*(?=[-+]\d)/g;

/** Spec 003's formatting normalisation of one string: whitespace, ranges, number-unit spacing. */
export const normalizeString = (value: string): string =>
  value
    .replace(/[\s\u00a0]+/g, ' ')
    .trim()
    .replace(SIGNED_RANGE, '$1 to ')
    .replace(RANGE, '$1-')
    .replace(UNIT_AFTER_SPACE, '$1$2');

/** A key that holds one value per model: named so (`..._per_model`), or an empty object in the skeleton. */
const isPerModel = (key: string, skeleton: unknown): boolean =>
  /(^|_)per_model(_|$)|(^|_)by_model(_|$)/.test(key) || (isObject(skeleton) && Object.keys(skeleton).length === 0);

interface Report {
  errors: string[];
  warnings: string[];
}

/** A scalar leaf against its skeleton: strings normalised; a number or boolean skeleton coerces a clear string. */
const leaf = (skeleton: unknown, value: unknown, path: string, report: Report): unknown => {
  if (isObject(value) || Array.isArray(value)) {
    report.errors.push(`Field '${path}' should be a single value, got ${typeName(value)}`);
    return value;
  }
  if (typeof value === 'string') {
    const text = normalizeString(value);
    if (text === '') {
      report.warnings.push(`Field '${path}' is empty; set to null`);
      return null;
    }
    if (typeof skeleton === 'number') {
      const n = Number(text.replace(/,/g, ''));
      if (Number.isFinite(n)) return n;
      report.errors.push(`Field '${path}' should be a number, got "${text.slice(0, 40)}"`);
    }
    if (typeof skeleton === 'boolean') {
      if (/^(true|yes)$/i.test(text)) return true;
      if (/^(false|no)$/i.test(text)) return false;
      report.errors.push(`Field '${path}' should be true or false, got "${text.slice(0, 40)}"`);
    }
    return text;
  }
  if (typeof skeleton === 'number' && typeof value === 'boolean')
    report.errors.push(`Field '${path}' should be a number, got a boolean`);
  if (typeof skeleton === 'boolean' && typeof value === 'number')
    report.errors.push(`Field '${path}' should be true or false, got a number`);
  return value;
};

/** `value` (undefined: missing) against the skeleton node at `path`. */
const walk = (key: string, skeleton: unknown, value: unknown, path: string, report: Report): unknown => {
  if (value === undefined || value === null) {
    if (isObject(skeleton) && !isPerModel(key, skeleton))
      return group(skeleton, {}, path, report, value === undefined ? 'missing' : 'null');
    report.warnings.push(value === undefined ? `Field '${path}' is missing; set to null` : `Field '${path}' is null`);
    return null;
  }
  if (isPerModel(key, skeleton)) {
    if (Array.isArray(value)) {
      report.errors.push(`Field '${path}' should be a dict keyed by model, got a list`);
      return value;
    }
    if (!isObject(value)) {
      report.warnings.push(`Field '${path}' should be a dict keyed by model, got a flat value`);
      return leaf(undefined, value, path, report);
    }
    const inner = isObject(skeleton) ? Object.values(skeleton)[0] : undefined;
    return Object.fromEntries(
      Object.entries(value).map(([model, v]) => [
        normalizeString(model),
        v === null ? null : walk('', inner, v, `${path}.${model}`, report),
      ]),
    );
  }
  if (isObject(skeleton)) {
    if (!isObject(value)) {
      report.errors.push(`Field '${path}' should be an object, got ${typeName(value)}`);
      return group(skeleton, {}, path, report, 'replaced');
    }
    return group(skeleton, value, path, report);
  }
  if (Array.isArray(skeleton)) {
    if (!Array.isArray(value)) {
      report.errors.push(`Field '${path}' should be a list, got ${typeName(value)}`);
      return value;
    }
    const item = skeleton[0];
    return value.map((v, i) =>
      isObject(item)
        ? walk(key, item, v, `${path}[${i}]`, report)
        : v === null
          ? null
          : leaf(item, v, `${path}[${i}]`, report),
    );
  }
  return leaf(skeleton, value, path, report);
};

/**
 * Every key of the skeleton group, in the skeleton's order, then the data's keys the skeleton lacks (kept, with a
 * warning). `absent`: the whole group was missing, null or of the wrong type, so its leaves are null (one
 * warning for the group instead of one per leaf).
 */
const group = (
  skeleton: Record<string, unknown>,
  data: Record<string, unknown>,
  path: string,
  report: Report,
  absent?: 'missing' | 'null' | 'replaced',
): Record<string, unknown> => {
  if (absent) {
    if (absent !== 'replaced')
      report.warnings.push(
        absent === 'missing'
          ? `Field '${path}' is missing; its fields set to null`
          : `Field '${path}' is null; its fields set to null`,
      );
    const quiet: Report = { errors: [], warnings: [] };
    return Object.fromEntries(
      Object.entries(skeleton).map(([k, s]) => [k, walk(k, s, undefined, `${path}.${k}`, quiet)]),
    );
  }
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(skeleton)) out[k] = walk(k, s, data[k], path ? `${path}.${k}` : k, report);
  for (const [k, v] of Object.entries(data)) {
    if (k in skeleton) continue;
    report.warnings.push(`Field '${path ? `${path}.${k}` : k}' is not in the schema; kept as is`);
    out[k] = v;
  }
  return out;
};

/**
 * Spec 003 tool D: walk the schema skeleton; every missing key added as null with a warning; strings normalised
 * (whitespace, ranges `1000~1500V` → `1000-1500V`, `1100 V` → `1100V`); per-model values must be dicts (a flat
 * value is a warning); any other type mismatch is an error. `ok` means no errors.
 */
export const validateAndNormalize = (input: Input): Output => {
  const report: Report = { errors: [], warnings: [] };
  const normalized = group(input.schema, input.data, '', report);
  return { ok: report.errors.length === 0, errors: report.errors, warnings: report.warnings, normalized };
};
