// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import type { Logger } from '@lectern/runtime';
import { chunkReader, docSearch, type ChunkReader } from '../doc-tool-calls.js';
import type { DocToolsClient } from '../doc-tools-client.js';
import type { MatchMethod } from '../evidence/verify-evidence.js';
import {
  DATE_PATTERN,
  DURATION_PATTERN,
  fieldKind,
  misfit,
  amountBeforeTerms,
  quantityOfUnit,
  type FieldKind,
} from '../fields/field-kinds.js';
import { proseCandidates, proseQueries, sectionCandidates } from './prose-patterns.js';
import {
  hasOwnWords,
  hintWords,
  LABEL_MATCH,
  labelMatches,
  labelScore,
  nameWords,
  partialLabel,
  wordGroups,
} from '../fields/field-words.js';
import { fieldName, getAt, isObject, setAt, type SchemaField } from '../schema-fields.js';
import { splitRow } from './markdown-table.js';
import { dateLineFromTop, isDocumentDate, issuerFromTop, issuerRole } from './issuer-block.js';
import {
  codeBeforeDimensions,
  identifierLabelled,
  isOrganisationName,
  measureWithoutRemark,
  withoutTolerance,
  organisationWord,
  stripQualifiers,
  withoutNoteReferences,
} from './value-cleanup.js';
import { unitAsPrinted, valueExtent } from './value-extent.js';
import { labelAsValue } from './label-values.js';
import type { GridCell, LayoutPair, Span } from './page-layout.js';
import { locateSnippet } from '../evidence/text-match.js';
import {
  ABSTAIN_BELOW,
  abstainWhy,
  labelOf,
  probability,
  recordFeatures,
  recordingFeatures,
  valueFeatures,
} from './calibration.js';

export interface LocalExtractInput {
  tools: DocToolsClient;
  indexId: string;
  fields: SchemaField[];
  signal?: AbortSignal | undefined;
  onField?: (done: number) => void;
  /** Reads the index's chunks (default: a reader of its own); the caller's, to share what was read with the evidence check. */
  read?: ChunkReader | undefined;
  /** Hits read per query (default 5). */
  readsPerQuery?: number;
  /** Where a field's failure is logged (its error is never sent to the client). */
  log?: Pick<Logger, 'error'> | undefined;
  /** The PDF's label ↔ value pairs from its page layout (page-layout.ts), read once per task; none for other formats. */
  layout?: LayoutPair[] | undefined;
  /** The PDF's grid cells (row label × column header) from its page layout (round 12); none for other formats. */
  grid?: GridCell[] | undefined;
}

/** What a field whose rules threw says (the error itself is in the server log). */
export const FIELD_FAILED =
  'could not be read: an internal error occurred while reading it (the server log has the details)';

export interface LocalExtractOutput {
  data: Record<string, unknown>;
  evidence: Record<string, unknown>;
  warnings: string[];
}

/** Search queries: the field's name, its path, and its synonyms. */
const queriesFor = (field: SchemaField): string[] => {
  const name = nameWords(field.path[field.path.length - 1]!).join(' ');
  const withParent =
    field.path.length > 1 ? `${nameWords(field.path[field.path.length - 2]!).join(' ')} ${name}` : undefined;
  const synonyms = wordGroups(field)
    .map((g) => g.find((w) => w !== g[0] && w.length > 2) ?? g[0])
    .join(' ');
  const hint =
    typeof field.hint === 'string' && field.hint.length > 0 && field.hint.length < 60
      ? `${name} ${field.hint}`
      : undefined;
  // every synonym at once: a label may use any of them ("Degree of protection" for an IP rating)
  const allWords = [...new Set(wordGroups(field).flatMap((g) => g.filter((w) => /^[a-z]{3,}$/.test(w))))]
    .slice(0, 16)
    .join(' ');
  return [
    ...new Set(
      [name, withParent, synonyms, allWords, hint, ...proseQueries(field)].filter((q): q is string =>
        Boolean(q && q.trim()),
      ),
    ),
  ];
};

/** A value cell: starts with a number (a unit cell such as "min-1" or "kg·m2x10-4" does not). */
const VALUE_CELL = /^[-+±~]?\d/;
/**
 * A value cell that may begin with a limit word ("min. 0.55 N·m", "< 20 mA"): where a row's label ends (round 7: the
 * label of "| Holding torque | min. 0.55 N·m | Leads | 4 (bipolar) |" was read as its first three cells).
 */
const QUALIFIED_VALUE_CELL =
  /^(?:(?:max|min|typ|approx|ca|nom)(?:\.\s*|\s+)|[<>≤≥]\s*|(?:up to|at least)\s+)?[-+±~]?\d/i;
const IP_CODE = /\bIP\s?(\d{2})\b/;

export interface Candidate {
  value: unknown;
  /** The table row's label, for a value read from a table. */
  label?: string;
  /** Read from the column of the target model the schema names. */
  targeted?: boolean;
  /** A per-model value: the table's models whose cell gave none (empty, or not one value). */
  missingModels?: string[];
  snippet: string;
  locator: string;
  score: number;
  method: MatchMethod;
  /** What a reader should know about how it was read ("from the Typ column"): said in the warnings. */
  note?: string;
}

/** A labelled value that did not fit the field: said in the null field's warning. */
interface Rejected {
  seen: string;
  label: string;
  why: string;
  score: number;
}

const isSeparator = (cells: string[]) => cells.every((c) => /^:?-{2,}:?$/.test(c) || c === '');
const hasNumber = (s: string) => /\d/.test(s);
const UNIT = /^(?:[A-Za-zµΩ°%·/().\-\d²³ ]{1,20})$/;
/** A model-like token: letters and digits mixed (R88M-G20030, G20030@, MOD 10KTL3-X2). */
const MODEL = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9][A-Za-z0-9\-./()@]{3,}$/;

const tableRowsOf = (content: string): string[][] =>
  content.split('\n').flatMap((line) => {
    const cells = splitRow(line);
    return cells && !isSeparator(cells) ? [cells] : [];
  });

/** A header row's label naming what its columns are ("Frame", "Servo motor model", "Type"). */
const HEADER_LABEL = /\b(?:frames?|frame size|models?|model names?|types?|part numbers?|sizes?|series)$/i;
/** In a row labelled so, a model may be short ("T10"). */
const SHORT_MODEL = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9][A-Za-z0-9\-./()@]{1,}$/;

export interface TableHeader {
  models: string[];
  /** The row's label says its cells are models ("Frame | T10 | T12 …"). */
  named: boolean;
}

/**
 * The model names a table's header rows list, in order (cells, or several in one merged cell). A row naming the
 * same model twice is not a header ("2 for any UT-AX2/4/11" in two cells).
 */
export const tableHeader = (rows: string[][]): TableHeader => {
  for (const row of rows.slice(0, 3)) {
    const label = row.slice(0, 3).find((c) => HEADER_LABEL.test(c.trim()) && !/\d/.test(c));
    const pattern = label ? SHORT_MODEL : MODEL;
    const models = row
      .slice(1)
      .flatMap((c) => c.split(/\s+/))
      .filter((t) => pattern.test(t));
    if (models.length >= 2 && new Set(models).size === models.length) return { models, named: label !== undefined };
  }
  return { models: [], named: false };
};

/**
 * Which cell of a row is each model's (issue 26: multi-model columns): the value positions of the rows that hold
 * exactly one value per model, the most frequent pattern. The converter keeps a merged cell (one value for two
 * models) in one column and leaves the other empty, so positions, not the order of the non-empty cells, say whose
 * a value is. `undefined` when no row has one value per model.
 */
export const modelColumns = (rows: string[][], modelCount: number): number[] | undefined => {
  const patterns = new Map<string, number>();
  for (const row of rows) {
    const at = row.flatMap((c, k) => (k > 0 && VALUE_CELL.test(c) ? [k] : []));
    if (at.length === modelCount) patterns.set(at.join(','), (patterns.get(at.join(',')) ?? 0) + 1);
  }
  const best = [...patterns.entries()].sort((a, b) => b[1] - a[1])[0];
  return best ? best[0].split(',').map(Number) : undefined;
};

/**
 * The value of model `k` in a row: the cell in its column; else a cell between its column and a neighbour's (a
 * merged cell spanning both, as the page prints one value for two models). `undefined` when the row has none.
 * Without known columns, the k-th value only when the row has exactly one value per model.
 */
export const modelValue = (
  cells: string[],
  labelEnd: number,
  k: number,
  modelCount: number,
  columns: number[] | undefined,
): string | undefined => {
  const filled = (i: number) => (i >= labelEnd && (cells[i] ?? '').length > 0 ? cells[i] : undefined);
  if (!columns) {
    const values = cells.slice(labelEnd).filter((c) => c.length > 0);
    return values.length === modelCount ? values[k] : undefined;
  }
  const own = filled(columns[k]!);
  if (own !== undefined) return own;
  const spanning = (from: number, to: number) => {
    const between = [];
    for (let i = from + 1; i < to; i += 1) if (filled(i) !== undefined) between.push(filled(i)!);
    return between.length === 1 ? between[0] : undefined;
  };
  return (
    (k > 0 ? spanning(columns[k - 1]!, columns[k]!) : undefined) ??
    (k < modelCount - 1 ? spanning(columns[k]!, columns[k + 1]!) : undefined) ??
    centredValue(cells, labelEnd, k, columns)
  );
};

/**
 * The value of a cell merged over an odd number of model columns: the page prints it once, centred, so the
 * converter puts it in the middle column and leaves the others empty ("| | 20 | | | 32 | |" for T10-T20 and
 * T21-T32). A value with `a` empty model cells on both sides (up to the next value or the table's edge) spans
 * `a` columns each way; model `k`'s empty cell takes the one value whose span covers it, else none (a value at
 * the edge, or two spans covering it, stays unknown). Only in rows whose values all sit in model columns.
 */
export const centredValue = (cells: string[], labelEnd: number, k: number, columns: number[]): string | undefined => {
  const isModelColumn = new Set(columns);
  if (cells.some((c, i) => i >= labelEnd && c.length > 0 && !isModelColumn.has(i))) return undefined;
  const own = columns.map((col) => (col >= labelEnd && (cells[col] ?? '').length > 0 ? cells[col] : undefined));
  const covering: string[] = [];
  own.forEach((value, j) => {
    if (value === undefined || j === k) return;
    let left = 0;
    while (j - left - 1 >= 0 && own[j - left - 1] === undefined) left += 1;
    let right = 0;
    while (j + right + 1 < own.length && own[j + right + 1] === undefined) right += 1;
    if (Math.abs(k - j) <= Math.min(left, right)) covering.push(value);
  });
  return covering.length === 1 ? covering[0] : undefined;
};

const targetIndex = (models: string[], target: string | undefined): number | undefined => {
  if (!target) return undefined;
  const wanted = target.toLowerCase().replace(/[^a-z0-9]/g, '');
  const index = models.findIndex((m) => {
    const model = m.toLowerCase().replace(/[^a-z0-9]/g, '');
    return model.length >= 4 && (wanted.includes(model) || model.includes(wanted));
  });
  return index >= 0 ? index : undefined;
};

/**
 * Labels printed once for the rows around them ("Coil consumption [VA]" centred between its "Sealed" and "Inrush"
 * rows): the converter gives such a label a row of its own, with no values. The rows just above and below that
 * have values and nothing in the label's column take it after their own label ("Sealed Coil consumption [VA]"),
 * so its words and its unit name their values. Keyed by line index, with the label's own line.
 */
export const spanningLabels = (rows: (string[] | undefined)[]): Map<number, { label: string; row: number }> => {
  const labels = new Map<number, { label: string; row: number }>();
  const hasValue = (r: string[] | undefined) => r !== undefined && r.some((c, k) => k > 0 && VALUE_CELL.test(c));
  rows.forEach((row, i) => {
    if (!row || isSeparator(row) || hasValue(row)) return;
    const at = row.findIndex((c) => c.length > 0);
    const text = row.filter((c) => c.length > 0);
    if (at < 0 || text.length === 0 || text.length > 2 || !/\p{L}{3}/u.test(text[0]!)) return;
    for (const n of [i - 1, i + 1]) {
      const near = rows[n];
      if (near && hasValue(near) && (near[at] ?? '') === '' && !labels.has(n))
        labels.set(n, { label: text.join(' '), row: i });
    }
  });
  return labels;
};

/** A currency's sign or its ISO code (round 14). */
const CURRENCY_SIGN = /[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|JPY|AUD|CAD|NZD|SEK|NOK|DKK|PLN|CZK|INR|ZAR)\b/;

/** An amount in a line: a currency sign or code and a number, or a number and a code after it. */
const MONEY_IN_LINE = /((?:[A-Z]{3}\s?|[$€£¥]\s?)[-+]?\d[\d,.]*\d|[-+]?\d[\d,.]*\d\s?(?:[A-Z]{3}|[$€£¥]))(?=\s|$)/g;

/**
 * "approx. 0.3 kg", "89 % typ.", "ca. 120 g": a word saying the value is approximate or typical is not part of
 * it. A limit word ("< 20 mA", "max. 2.5 A") stays while candidates are read; since round 6 it is dropped from the
 * returned value once, and named in the field's warning, by `stripQualifiers` (value-cleanup.ts).
 */
const dropQualifier = (text: string): string =>
  text
    .replace(/^(?:approx\.?|approximately|ca\.|circa|typ\.?|typically)\s*/i, '')
    .replace(/\s*\(?(?:typ\.?|typical|approx\.?)\)?\s*$/i, '')
    .trim();

/**
 * A label the converter put one row too high: a table prints a label once for the two rows around it ("Coil
 * consumption [VA]" between its Sealed and Inrush rows: `spanningLabels`) and the next label ("Power consumption
 * [W]") centred between the Inrush row and its own value row, so it lands in the Inrush row's label column, and its
 * values come in a row with no label at all. When a row under such a value-less label row has a label cell in that
 * label's column besides a sub-label of its own ("Inrush"), and the row below it has values and no label, that cell
 * is the lower row's label: it is moved down (`from`: the row it came from, for the evidence).
 */
export const labelsMovedDown = (
  rows: (string[] | undefined)[],
): { rows: (string[] | undefined)[]; from: Map<number, number> } => {
  const out = rows.map((r) => (r ? [...r] : r));
  const from = new Map<number, number>();
  const firstValue = (r: string[]) => r.findIndex((c, k) => k > 0 && VALUE_CELL.test(c));
  rows.forEach((above, i) => {
    const row = out[i + 1];
    const below = out[i + 2];
    if (!above || !row || !below || isSeparator(above) || firstValue(above) > 0) return;
    const text = above.filter((c) => c.length > 0);
    const at = above.findIndex((c) => c.length > 0);
    if (at < 0 || text.length === 0 || text.length > 2 || !/\p{L}{3}/u.test(text[0]!)) return;
    const rowValue = firstValue(row);
    const belowValue = firstValue(below);
    if (rowValue <= at + 1 || belowValue <= 0) return;
    const ownLabel = row.slice(at + 1, rowValue).some((c) => /\p{L}{3}/u.test(c));
    const belowLabelled = below.slice(0, belowValue).some((c) => c.length > 0);
    if (!(row[at] ?? '') || !ownLabel || belowLabelled) return;
    below[at] = row[at]!;
    row[at] = '';
    from.set(i + 2, i + 1);
  });
  return { rows: out, from };
};

/** A measured value or code written in prose ("IP65 for the housing", "0 to 40 °C in operation") keeps its leading value only. */
const leadingValue = (text: string): string => {
  const value = dropQualifier(text.trim());
  if (!/^(?:[-+±$€£¥]?\s?\d|[A-Z]{1,4}\s?\d)/.test(value)) return value;
  const cut = /,(?!\d)|;|\s\(|\s(?:for|in|at|when|with|under)\s/.exec(value);
  return (cut ? value.slice(0, cut.index) : value).replace(/\.$/, '').trim();
};

/**
 * The value a `Label: value` line or a label cell gives the field, by its kind: a date or a length of time is
 * the part that is one ("14 March 2024 (the Effective Date)" gives "14 March 2024"); a text keeps the whole
 * line (an address has commas); a measured value keeps its leading value.
 */
const valueByKind = (kind: FieldKind, text: string): string => {
  const value = text.trim();
  if (kind.kind === 'date') return DATE_PATTERN.exec(value)?.[0] ?? value;
  if (kind.kind === 'duration') return DURATION_PATTERN.exec(value)?.[0] ?? value;
  if (kind.kind === 'text') return value.replace(/[.;,]$/, '').trim();
  // an amount and how often it is due ("SGD 28,800 per year", "GBP 650 per day worked"): the amount
  // (and its other terms, "£9,840.00 plus VAT, payable quarterly": whole here, cut and said once; round 8)
  if (kind.kind === 'money') {
    const amount = value.replace(/\s+(?:per|a|an|each|every|\/)\s*(?:year|annum|month|week|day|hour)\b.*$/i, '');
    return amountBeforeTerms(amount) ? amount : leadingValue(amount);
  }
  return leadingValue(value);
};

/**
 * A remark in words at the end of a measured value or its unit ("0.8kg (without brake)", "kg (without brake)")
 * is not part of it; a unit's one-word qualifier is ("0.41N·m/A (rms)").
 */
export const dropRemark = (text: string): string =>
  text
    .replace(/\s*\((?=[^)]*\p{L}{2,}\s+\p{L})[^()]{3,40}\)\s*$/u, '')
    // "per piece" after a unit ("0.62 kg/pc", "1.2 kg/pcs"): the unit is the value's
    .replace(/(\p{L})\s*\/\s*(?:pcs?|piece|ea|each|unit)\.?\s*$/iu, '$1')
    .trim();

/** A value and the unit its header or unit cell gave, written as the page prints a unit beside a value (round 8). */
const withUnit = (value: string, unit: string | undefined) => {
  const printed = unit ? unitAsPrinted(unit) : undefined;
  return printed && !value.includes(printed) ? `${value} ${printed}` : value;
};

/**
 * A limits table's header ("| Parameter | Min | Typ | Max | Unit |"): its row and the columns of each limit and of
 * the unit; undefined when the chunk's tables have none (two of Min/Typ/Max needed).
 */
export const limitsHeader = (
  rows: (string[] | undefined)[],
): { row: number; min?: number; typ?: number; max?: number; unit?: number } | undefined => {
  const col = (r: string[], re: RegExp) => {
    const k = r.findIndex((c, j) => j > 0 && re.test(c.trim()));
    return k > 0 ? k : undefined;
  };
  for (const [row, r] of rows.entries()) {
    if (!r) continue;
    const min = col(r, /^min(?:\.|imum)?$/i);
    const typ = col(r, /^(?:typ(?:\.|ical)?|nom(?:\.|inal)?)$/i);
    const max = col(r, /^max(?:\.|imum)?$/i);
    if ([min, typ, max].filter((k) => k !== undefined).length < 2) continue;
    return { row, min, typ, max, unit: col(r, /^units?$/i) };
  }
  return undefined;
};

/**
 * A limits table row's value for a field: the column the field's name asks for (`max_supply_current`: Max;
 * `min_…`: Min), else Typ, else the one limit the row gives, else Min and Max as a range; the unit column's unit
 * appended; and which column it came from. Undefined when the asked-for column is empty.
 */
export const limitsValue = (
  field: SchemaField,
  cells: string[],
  header: NonNullable<ReturnType<typeof limitsHeader>>,
): { value: string; unit: string | undefined; note: string } | undefined => {
  const name = nameWords(field.path[field.path.length - 1]!);
  // (the name's limit word, else its description's: "Maximum output ripple and noise" asks for Max; round 7)
  const hint = typeof field.hint === 'string' && field.hint.length <= 200 ? nameWords(field.hint) : [];
  const at = (k: number | undefined) => (k === undefined ? '' : (cells[k] ?? '').trim());
  const unit = at(header.unit) || undefined;
  const limitOf = (words: string[]) =>
    words.some((w) => /^max(imum)?$/.test(w)) ? 'max' : words.some((w) => /^min(imum)?$/.test(w)) ? 'min' : undefined;
  const asks = limitOf(name) ?? limitOf(hint);
  const named = { min: 'Min', typ: 'Typ', max: 'Max' } as const;
  if (asks) return at(header[asks]) ? { value: at(header[asks]), unit, note: `the ${named[asks]} column` } : undefined;
  if (at(header.typ)) return { value: at(header.typ), unit, note: 'the Typ column' };
  const filled = (['min', 'max'] as const).filter((k) => at(header[k]));
  if (filled.length === 1)
    return { value: at(header[filled[0]!]), unit, note: `the ${named[filled[0]!]} column (the only limit given)` };
  if (filled.length === 2)
    return { value: `${at(header.min)} to ${at(header.max)}`, unit, note: 'the Min and Max columns, as a range' };
  return undefined;
};

/** The header row of the markdown table holding row `i` (the row above its `| --- |` line); undefined when none. */
export const tableHeaderAbove = (rows: (string[] | undefined)[], i: number): string[] | undefined => {
  for (let k = i; k >= 1 && rows[k]; k -= 1) if (isSeparator(rows[k]!)) return rows[k - 1];
  return undefined;
};

/**
 * Does the field's description name this test condition ("Dropout voltage at full load (500 mA)" and "IOUT =
 * 500 mA")? A number with its unit of the description occurring in the condition, spacing aside.
 */
export const hintNamesCondition = (field: SchemaField, condition: string): boolean => {
  if (typeof field.hint !== 'string') return false;
  const squash = (t: string) => t.replace(/\s+/g, '').toLowerCase();
  const cond = squash(condition);
  return [...field.hint.matchAll(/(?<![\d.])\d[\d.,]*\s*[A-Za-zµΩ°%]+/g)].some((m) => {
    const q = squash(m[0]);
    const at = cond.indexOf(q);
    // the whole number: "500mA" is not in "1500mA"
    return at >= 0 && !/[\d.]/.test(cond[at - 1] ?? '');
  });
};

/**
 * A row of two label and value pairs ("| Step angle | 1.8° | Inductance | 3.0 mH |"): the two pairs, else the row.
 * Only four cells, the first value a number (a limit word may lead it), the third cell a label of words (four
 * letters or more, no digit), the last cell not empty.
 */
export const labelValuePairs = (cells: string[] | undefined): (string[] | undefined)[] => {
  if (!cells || cells.length !== 4) return [cells];
  const [l1, v1, l2, v2] = cells.map((c) => c.trim()) as [string, string, string, string];
  const labelLike = (c: string) => /\p{L}{4,}/u.test(c) && !/\d/.test(c);
  if (labelLike(l1) && QUALIFIED_VALUE_CELL.test(v1) && labelLike(l2) && v2.length > 0)
    return [
      [l1, v1],
      [l2, v2],
    ];
  return [cells];
};

/**
 * A boxed form printed as a table of label rows, each over its row of values ("| Licensor | Licensee |" over
 * "| Acme Oy | Beta Ltd |", "| Order No. | Start Date |" over "| TS-1 | 1 April 2026 |"): a label cell names the cell
 * below it. Only a table of four rows or more whose every other row, from the first, is labels (words, no digit,
 * five words at most a cell, none empty) and whose value rows hold a digit somewhere; a party or list field takes
 * every column its label row names (two or more). Round 7.
 */
export const stackedCandidates = (
  field: SchemaField,
  kind: FieldKind,
  content: string,
  locator: string,
  rank: number,
): Candidate[] => {
  const lines = content.split('\n').filter((l) => l.trim().startsWith('|'));
  const rows = lines.map((l) => ({ line: l.trim(), cells: splitRow(l) }));
  const data = rows.filter((r): r is { line: string; cells: string[] } => Boolean(r.cells) && !isSeparator(r.cells!));
  if (data.length < 4 || data.length % 2 !== 0) return [];
  const width = data[0]!.cells.length;
  if (width < 2 || data.some((r) => r.cells.length !== width)) return [];
  const labelRow = (cells: string[]) =>
    cells.every((c) => c.length > 0 && /\p{L}{2}/u.test(c) && !/\d/.test(c) && c.split(/\s+/).length <= 5);
  const labels = data.filter((_, k) => k % 2 === 0);
  const values = data.filter((_, k) => k % 2 === 1);
  if (!labels.every((r) => labelRow(r.cells)) || !values.some((r) => /\d/.test(r.line))) return [];
  const many = field.kind === 'list' || isPartyField(field);
  const found: Candidate[] = [];
  labels.forEach((row, n) => {
    const below = values[n]!;
    const hits = row.cells.flatMap((cell, k) => {
      const score = labelScore(field, cell, true);
      const value = valueByKind(kind, below.cells[k] ?? '');
      return score >= LABEL_MATCH && value && !misfit(kind, value) ? [{ cell, value, score }] : [];
    });
    const snippet = `${row.line}\n${below.line}`;
    const weight = (1 - rank * 0.05) * 0.9;
    if (many && hits.length >= 2) {
      const vals = hits.map((h) => h.value);
      found.push({
        value: field.kind === 'list' ? vals : vals.join(' and '),
        snippet,
        locator,
        score: Math.max(...hits.map((h) => h.score)) * weight,
        method: 'table_cell',
      });
    } else if (hits.length === 1 && !many)
      found.push({
        value: hits[0]!.value,
        label: hits[0]!.cell,
        snippet,
        locator,
        score: hits[0]!.score * weight,
        method: 'table_cell',
      });
  });
  return found;
};

/**
 * A contract's parties side by side: a table whose header row names each party's role in a column ("|  | Disclosing
 * Party | Receiving Party |") and a row labelled "Name" (or "Company", "Legal name"): the name in the column its
 * header names. Only for a party field, and only when one column's header names it. Round 7.
 */
export const partyColumnCandidates = (
  field: SchemaField,
  content: string,
  locator: string,
  rank: number,
): Candidate[] => {
  if (!isPartyField(field) || field.kind !== 'scalar') return [];
  const lines = content.split('\n').filter((l) => l.trim().startsWith('|'));
  const rows = lines.map((l) => ({ line: l.trim(), cells: splitRow(l) }));
  const data = rows.filter((r): r is { line: string; cells: string[] } => Boolean(r.cells) && !isSeparator(r.cells!));
  const header = data[0];
  if (!header || header.cells.length < 3 || (header.cells[0] ?? '').trim() !== '') return [];
  const columns = header.cells.flatMap((c, k) => (k > 0 && labelScore(field, c, true) >= LABEL_MATCH ? [k] : []));
  if (columns.length !== 1) return [];
  const row = data.find((r) =>
    /^(?:name|company|company name|legal name|full name|party)$/i.test((r.cells[0] ?? '').trim()),
  );
  const value = row?.cells[columns[0]!]?.trim();
  if (!row || !value || !/\p{L}{2}/u.test(value)) return [];
  return [
    {
      value,
      label: header.cells[columns[0]!]!,
      snippet: `${header.line}\n${row.line}`,
      locator,
      score: labelScore(field, header.cells[columns[0]!]!, true) * (1 - rank * 0.05) * 0.9,
      method: 'table_cell',
    },
  ];
};

/** Candidates of one chunk: table rows whose label matches, and `Label: value` lines. */
/**
 * Another schema field whose label begins `cell`, with a value for that field after it ("PO number 4500018832",
 * "Coil voltage 24V DC") or alone ("CUSTOMER"): the cell is that field's label and value, printed beside this field's
 * label (two blocks of a form side by side, read as one table row), not this field's value.
 */
export const otherFieldLabelled = (
  field: SchemaField,
  others: SchemaField[],
  cell: string,
): SchemaField | undefined => {
  const words = cell.trim().split(/\s+/);
  // the label is the words before the first one holding a digit, at most four
  const leading = words.findIndex((w) => /\d/.test(w));
  const most = Math.min(4, leading < 0 ? words.length : leading);
  for (let n = most; n >= 1; n -= 1) {
    const label = words.slice(0, n).join(' ');
    const rest = words.slice(n).join(' ');
    if (labelScore(field, label, true) >= LABEL_MATCH) return undefined;
    const other = others.find(
      (o) =>
        o !== field &&
        labelScore(o, label, true) >= LABEL_MATCH &&
        (rest === ''
          ? // the cell is the other field's name alone ("CUSTOMER" beside "PROVIDER")
            n === words.length && nameWords(label).every((w) => nameWords(o.path[o.path.length - 1]!).includes(w))
          : // a typed value of the other field; for a field of words, one with a number in it ("No. 4471")
            !misfit(fieldKind(o), rest) && (fieldKind(o).kind !== 'text' || /\d/.test(rest))),
    );
    if (other) return other;
  }
  return undefined;
};

/** A short line of words, no digit, no sentence: how a form prints a label on a line of its own. */
const labelLike = (line: string): boolean => {
  const text = line.trim();
  return (
    text.length > 0 &&
    !/\d/.test(text) &&
    !/^[|#>]/.test(text) &&
    text.split(/\s+/).length <= 4 &&
    !/[.!?,;:]$/.test(text) &&
    !/^[^:]{1,40}:\s*\S/.test(text)
  );
};

/**
 * Is the line at `at` (read as the value under a label on the line before) itself a label? Round 9, issue 26: a
 * labels-above-values form, or a column of labels the converter set before its column of values. Refused when:
 * - its words are all one schema field's own name words ("Name" for `hirer_name`, "Registration" for
 *   `vehicle_registration`): a field's words on a line of their own are its label, never its value;
 * - it is one of a run of three or more label-like lines (short, no digit) from the label on, and the block after
 *   that run (past blank lines) opens with as many lines that are not label-like (the values, in order): the
 *   labels' column printed before the values' column.
 * Returns why, or undefined.
 */
/**
 * The section label a form's label line sits under: the nearest line above it, within eight lines and past no
 * blank line, printed in capitals with no digit ("HIRER", "VEHICLE AND HIRE PERIOD"), or undefined.
 */
const sectionLabel = (lines: string[], at: number): string | undefined => {
  for (let j = at - 1; j >= Math.max(0, at - 8); j -= 1) {
    const text = (lines[j] ?? '').trim();
    if (!text) return undefined;
    if (/^[|#>]/.test(text)) return undefined;
    const letters = text.replace(/[^\p{L}]/gu, '');
    if (letters.length >= 3 && letters === letters.toUpperCase() && !/\d/.test(text) && text.split(/\s+/).length <= 5)
      return text;
  }
  return undefined;
};

const AMOUNT_PART = /^(?:net|subtotal|sub-total|vat|tax|discount|excl)\b/i;
const AMOUNT_WHOLE = /^(?:gross|total|amount|incl)\b/i;
/**
 * The cell of an amounts row a field asks for, by the table's header (round 9), or undefined (the first value):
 * the column whose header is one of the field's own words; else, for a field asking a whole amount (total, gross,
 * amount, due, paid, payable) whose row's first value is under a part's header (Net, VAT, Subtotal), the column
 * under a whole's header (Gross, Total, Amount).
 */
const amountColumn = (
  field: SchemaField,
  header: string[],
  cells: string[],
  labelEnd: number,
  unitCol: number,
): string | undefined => {
  const words = nameWords(field.path[field.path.length - 1]!);
  const cols = cells.map((c, k) => k).filter((k) => k >= labelEnd && k !== unitCol && (cells[k] ?? '').length > 0);
  if (cols.length < 2) return undefined;
  const head = (k: number) => (header[k] ?? '').trim();
  const firstWords = head(cols[0]!)
    .toLowerCase()
    .split(/[^\p{L}]+/u);
  if (firstWords.some((w) => words.includes(w))) return undefined;
  const own = cols.find((k) =>
    head(k)
      .toLowerCase()
      .split(/[^\p{L}]+/u)
      .some((w) => w.length > 1 && words.includes(w)),
  );
  if (own !== undefined) return cells[own];
  if (AMOUNT_PART.test(head(cols[0]!)) && words.some((w) => /^(?:total|gross|amount|due|paid|payable)$/.test(w))) {
    const whole = cols.find((k) => AMOUNT_WHOLE.test(head(k)));
    if (whole !== undefined) return cells[whole];
  }
  return undefined;
};

/** Are a line's words all a field's own name words ("Name" for `hirer_name`)? */
const ownWords = (field: SchemaField, line: string): boolean => {
  const own = new Set(nameWords(field.path[field.path.length - 1]!));
  const words = line
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((w) => w.length > 0);
  return words.length > 0 && words.every((w) => own.has(w));
};

export const labelLine = (text: string, lines: string[], at: number, fields: SchemaField[]): string | undefined => {
  if (!labelLike(text)) return undefined;
  const owner = fields.find((f) => ownWords(f, text));
  if (owner) return `it is a label (the words of the field '${owner.path.join('.')}'), not a value`;
  let start = at;
  while (start > 0 && labelLike(lines[start - 1] ?? '')) start -= 1;
  let end = at;
  while (end + 1 < lines.length && labelLike(lines[end + 1] ?? '')) end += 1;
  const run = end - start + 1;
  if (run < 3) return undefined;
  let k = end + 1;
  while (k < lines.length && !(lines[k] ?? '').trim()) k += 1;
  // (the converter's chunk may end with the column of labels, the values in the next chunk: then five lines or
  // more, at least half of them the schema's labels and two of those one after the other, which a form's
  // alternating label / value lines are not)
  if (k >= lines.length) {
    const isLabel = lines
      .slice(start, end + 1)
      .map((l) => fields.some((f) => labelScore(f, l.trim(), true) >= LABEL_MATCH || ownWords(f, l)));
    const labels = isLabel.filter(Boolean).length;
    const adjacent = isLabel.some((l, j) => l && isLabel[j + 1]);
    return run >= 5 && labels * 2 >= run && adjacent
      ? `it is one of a column of ${run} labels (the values are printed after them), not a value`
      : undefined;
  }
  if (k === end + 1) return undefined;
  // (the values: as many lines as the labels, less one at most, none a table row or a heading, one with a digit)
  const after = lines.slice(k, k + run - 1);
  if (
    after.length < run - 1 ||
    after.some((l) => !l.trim() || /^[|#>]/.test(l.trim())) ||
    !after.some((l) => /\d/.test(l))
  )
    return undefined;
  return `it is one of a column of ${run} labels whose values are printed after them, not a value`;
};

/**
 * A text read from the page layout (a label/value pair or a grid cell, written as one `Label: value` line) through
 * the Markdown's reader: its `key_value` readings whose value is not itself a label (`labelAsValue`).
 */
const layoutReadings = (
  field: SchemaField,
  kind: FieldKind,
  line: string,
  target: string | undefined,
  others: SchemaField[],
): Candidate[] =>
  candidatesIn(field, kind, [], 'layout', line, 0, target, [], undefined, new Map(), others).filter(
    (c) =>
      c.method === 'key_value' &&
      ![c.value].flat().some((v) => typeof v === 'string' && labelAsValue(field, kind, v, others)),
  );

export const candidatesIn = (
  field: SchemaField,
  kind: FieldKind,
  rejected: Rejected[],
  locator: string,
  content: string,
  rank: number,
  target: string | undefined,
  models: string[],
  columns: number[] | undefined,
  /** The values of every table row whose label matches, by label (filled here, for the caller's ambiguity check). */
  rowsSeen: Map<string, Set<string>>,
  /** The schema's other fields: a value cell that is one of them labelled is not this field's. */
  others: SchemaField[] = [],
): Candidate[] => {
  const found: Candidate[] = [];
  const lines = content.split('\n');
  const { rows, from: movedFrom } = labelsMovedDown(lines.map(splitRow));
  const isIp = kind.kind === 'ip_code';
  const inherited = spanningLabels(rows);
  const limitsAt = limitsHeader(rows);
  /** A `Label: value` text (a line, or a form's cell) whose label matches: a candidate, or a rejection. */
  const keyValue = (text: string, rankWeight: number) => {
    // (or a label and its value set apart by a wide gap, as a form's blocks print them: "Invoice No.  INV-20417"; the
    // converter keeps such a gap as two spaces)
    const kv =
      /^\s*(?:[-*]\s*)?([^:|]{2,80}?)\s*[:：]\s*(.{1,200})$/.exec(text) ??
      // a definition: "Commencement Date" means 1 March 2026 (a contract's definitions clause; round 6)
      /^\s*["“]([^"”]{2,60})["”]\s+means\s+(.{1,200}?)\s*[;.]?$/.exec(text) ??
      /^\s*(?:[-*]\s*)?([^:|\d\s][^:|\d]{1,60}?) {2,}(\S.{0,200})$/.exec(text);
    if (!kv) return;
    const score = Math.max(labelScore(field, kv[1]!, true), identifierLabelled(field, kv[1]!, kv[2]!));
    if (score < LABEL_MATCH || !kv[2]!.trim()) return;
    // a unit in the label ("Rated current (A): 16", "Weight [kg]: 1.2")
    const unit = /[[(]([^\])[(\d]{1,12})[\])]\s*$/.exec(kv[1]!)?.[1];
    // only a unit of the field's quantity: "Supply voltage (rated)" names no unit
    const labelUnit =
      unit && UNIT.test(unit) && kind.kind === 'quantity' && kind.units.test(`1 ${unit}`) ? unit : undefined;
    let value = valueByKind(kind, kv[2]!);
    // a party's name ends where its description begins ("Acme GmbH, a company registered in …")
    if (isPartyField(field))
      value = value.replace(/,\s+(?:an?|the|whose|which|incorporated|registered|having|acting)\b.*$/i, '').trim();
    const wrong = misfit(kind, value, labelUnit);
    if (wrong && !isIp) rejected.push({ seen: value, label: kv[1]!, why: wrong, score });
    else
      found.push({
        value: withUnit(value, labelUnit),
        // (without a list's bullet: the page prints "•" where the Markdown has "- ", so the line is found without it)
        snippet: text.trim().replace(/^[-*]\s+/, ''),
        locator,
        score: score * rankWeight * 0.95,
        method: 'key_value',
      });
  };
  const rowBody = (line: string, i: number, cells: string[] | undefined) => {
    const rankWeight = 1 - rank * 0.05;
    // a form laid out in columns ("| Licensor: Acme | Licensee: Beta |"): each cell is a `Label: value`
    if (cells && !isSeparator(cells) && cells.some((c) => /^[^:]{2,40}:\s*\S/.test(c) && !/^\d/.test(c))) {
      for (const cell of cells) if (cell.includes(':')) keyValue(cell, rankWeight);
      return;
    }
    if (cells && !isSeparator(cells)) {
      const startsNumeric = cells.findIndex((c, k) => k > 0 && QUALIFIED_VALUE_CELL.test(c));
      let labelEnd = startsNumeric > 0 ? startsNumeric : cells.findIndex((c, k) => k > 0 && hasNumber(c));
      // a label cell and a value in words (a vendor, an address, a governing law): the first cell is the label
      if (labelEnd <= 0 && cells.length >= 2 && kind.kind !== 'quantity' && cells[0]) labelEnd = 1;
      // (a form's label and value in the middle of a row whose first column is another block, empty here:
      // "|  | GUEST | Lars Halvorsen |"; round 6)
      if (labelEnd <= 0 && kind.kind !== 'quantity' && !cells[0]) {
        const at = cells.findIndex((c) => c.length > 0);
        if (at > 0 && cells.slice(at + 1).some((c) => c.length > 0)) labelEnd = at + 1;
      }
      if (labelEnd <= 0) return;
      const header = tableHeaderAbove(rows, i);
      // a conditions column after the labels ("| Item | Condition | Specification |"): its cell is the row's
      // condition ("0.2C discharge at 25 °C"), never its value (round 8)
      const condAfter = header
        ? header.findIndex((c, k) => k >= labelEnd && k < cells.length - 1 && /\bconditions?\b/i.test(c.trim()))
        : -1;
      if (condAfter >= labelEnd && cells.slice(condAfter + 1).some((c) => c.length > 0)) labelEnd = condAfter + 1;
      const labelCells = cells.slice(0, labelEnd);
      const spanning = inherited.get(i);
      const label = [...labelCells.filter((c) => c.length > 0), spanning?.label ?? ''].join(' ').trim();
      // a table with a "Unit" column after its values and a "Test conditions" column among its labels
      // ("| Parameter | Symbol | Test conditions | Value | Unit |"): the unit is the row's Unit cell, and the
      // conditions are not part of the parameter's name: two rows of one parameter under different conditions are
      // one label (ambiguous), unless the field's description names the row's condition ("at full load (500 mA)")
      const unitCol = header ? header.findIndex((c, k) => k >= labelEnd && /^units?$/i.test(c.trim())) : -1;
      const condCol = header
        ? header.findIndex((c, k) => k > 0 && k < labelEnd && /\bconditions?\b/i.test(c.trim()))
        : -1;
      const condition = condCol > 0 ? (cells[condCol] ?? '').trim() : '';
      const conditionNamed = condition !== '' && hintNamesCondition(field, condition);
      const rowLabel =
        condCol > 0
          ? [
              ...labelCells.filter((c, k) => k !== condCol && c.length > 0),
              ...(conditionNamed ? [`(${condition})`] : []),
              spanning?.label ?? '',
            ]
              .join(' ')
              .trim()
          : label;
      // the evidence of a row under a label printed once for it holds both lines (the label names the value)
      // (and of a row whose label the converter put on the row above, both lines)
      const first = Math.min(i, spanning?.row ?? i, movedFrom.get(i) ?? i);
      const last = Math.max(i, spanning?.row ?? i);
      const rowSnippet = (first === last ? line : lines.slice(first, last + 1).join('\n')).trim().slice(0, 400);
      // (a limits table's column is the label's limit word: "Supply current" under Max is a max supply current)
      const limitWord =
        limitsAt !== undefined && limitsAt.row < i
          ? nameWords(field.path[field.path.length - 1]!).find((w) => /^m(?:ax|in)(?:imum)?$/.test(w))
          : undefined;
      let score = labelScore(field, limitWord ? `${label} ${limitWord}` : label, true);
      // (round 14) a label cell holding a note's sentences (a footnote merged into the row's cell: "Weight Noise
      // measured at 1 m in free air. Airflow and pressure at …"): more than ten words and a sentence ending inside
      // it; the field's words in the note do not make the row the field's
      if (label.split(/\s+/).length > 10 && /\p{Ll}[.;]\s+\p{Lu}/u.test(label)) score = 0;
      // (or the label cell right before the value alone, when the row's first cells are another column's block:
      // "| UID ATU63970412 | ROOM | 312 |" is labelled "ROOM"; round 6)
      const nearest = labelCells.filter((c) => c.length > 0);
      if (score < LABEL_MATCH && nearest.length >= 2 && !limitWord && condCol < 0 && !spanning)
        score = labelScore(field, nearest[nearest.length - 1]!, true) * 0.95;
      // an identifier labelled by its thing alone ("| ROOM | 312 |" for room_number): one code with a digit
      if (score < LABEL_MATCH && cells.length - labelEnd === 1 && nearest.length >= 1)
        score = Math.max(score, identifierLabelled(field, nearest[nearest.length - 1]!, cells[labelEnd] ?? ''));
      // the row's Unit cell says which quantity it is ("Thermal shutdown | … | 160 | °C" is a temperature)
      const unitSays = unitCol > 0 ? quantityOfUnit(`1 ${cells[unitCol] ?? ''}`) : undefined;
      if (score < LABEL_MATCH && unitSays) score = labelScore(field, `${label} ${unitSays}`, true);
      // (or the value's own unit, in a two-cell row: "| Motor | 3.0 kW, 2-pole |" is the motor's power; round 6)
      const valueSays =
        kind.kind === 'quantity' && cells.length - labelEnd === 1 && labelEnd === 1
          ? quantityOfUnit(leadingValue(cells[labelEnd] ?? ''))
          : undefined;
      if (score < LABEL_MATCH && kind.kind === 'quantity' && valueSays === kind.quantity)
        score = labelScore(field, `${label} ${valueSays}`, true) * 0.95;
      if (score < LABEL_MATCH) return;
      // (round 11) a bulleted cell is a list item set beside another column, not a row's label ("• SOIC-16W
      // package | Output at 0 A | 2.5 V": the converter joined a feature list and a parameter column)
      if (/^[•▪◦●■‣∙]/u.test(labelCells.find((c) => c.length > 0) ?? '')) {
        rejected.push({ seen: cells.slice(labelEnd).join(' ').trim(), label, why: 'its label is a list item', score });
        return;
      }
      // (round 11) a row labelled by another field's own name, which that field matches better ("Parts total" with
      // `parts_total` beside `total`): that field's row, not this one's
      const owner = others.find((o) => o !== field && ownWords(o, label) && labelScore(o, label, true) > score + 1e-9);
      if (owner) {
        rejected.push({
          seen: cells.slice(labelEnd).join(' ').trim(),
          label,
          why: `its label is the field '${owner.path.join('.')}'`,
          score,
        });
        return;
      }
      // the rows' values by label: one label giving different values on different rows is ambiguous
      // (under one heading: a catalogue's other section may repeat a label for other products)
      const key = `${locator.split('-')[0]}|${rowLabel}`;
      rowsSeen.set(key, (rowsSeen.get(key) ?? new Set()).add(cells.slice(labelEnd).join(' ').trim()));
      // units from the header: the label's last non-empty cell when it is a unit ("N·m", "[kV]", "A (rms)")
      // (a condition cell is no unit: "| Discharge current | at 25 °C | 10 A |"; round 8)
      const named = labelCells.filter((c, k) => c.length > 0 && k !== condCol);
      const lastLabel = named.length > 1 ? named[named.length - 1] : undefined;
      const bracketed = lastLabel && /^\[([^\]]{1,20})\]$/.exec(lastLabel);
      // or the label's own end: "Rated current [A]", "Amount (EUR)", "Mass (kg)"
      const trailing = /[[(]([^\])[(]{1,12})[\])]\s*$/.exec(label);
      let unitCell = bracketed
        ? bracketed[1]
        : // a word is no unit ("Inrush", "Sealed": a row's sub-label)
          lastLabel &&
            UNIT.test(lastLabel) &&
            !/^[A-Z]?[a-z]{4,}$/.test(lastLabel) &&
            (kind.kind !== 'quantity' || kind.units.test(`1 ${lastLabel}`))
          ? lastLabel
          : trailing &&
              UNIT.test(trailing[1]!) &&
              !/\d/.test(trailing[1]!) &&
              // a quantity's unit must be one of its units: "Output current (max.)", "Efficiency (typ.)" name none
              (kind.kind !== 'quantity' || kind.units.test(`1 ${trailing[1]!}`))
            ? trailing[1]
            : undefined;
      // a remark in words after a unit or a value ("kg (without brake)") is not part of it
      if (unitCell) unitCell = dropRemark(unitCell);
      // only a measured value or an amount has a unit: the label's last cell beside a code, a name or a date is a
      // neighbouring label ("| Spiegelgasse 14 | INVOICE NO. | 2026/00417 |", "| 10/14 | Overdraft item fee |
      // $34.00 |"), not a unit to write after the value (round 6)
      // (a unit has no word of four letters or more outside its brackets: "N·m/A (rms)", "VA", "x10000"; a
      // quantity's unit was checked against its units above)
      if (
        unitCell &&
        kind.kind !== 'quantity' &&
        (/\p{L}{4,}/u.test(unitCell.replace(/\([^)]*\)/g, '')) || kind.kind === 'money' || kind.kind === 'date')
      )
        unitCell = undefined;
      const unitOfColumn = unitCol > 0 ? (cells[unitCol] ?? '').trim() : '';
      if (unitOfColumn && UNIT.test(unitOfColumn) && !/^\d/.test(unitOfColumn)) unitCell = unitOfColumn;
      const values = cells
        .slice(labelEnd)
        .filter((c, k) => c.length > 0 && !(unitOfColumn && k + labelEnd === unitCol));
      if (values.length === 0) return;
      let value: unknown;
      const reject = (seen: string, why: string) => rejected.push({ seen, label, why, score });
      if (field.kind === 'dict' && models.length >= 2) {
        const dict: Record<string, string> = {};
        models.forEach((m, k) => {
          const v = modelValue(cells, labelEnd, k, models.length, columns);
          if (!v) return;
          const wrong = misfit(kind, v, unitCell ?? label);
          if (wrong) reject(v, wrong);
          else dict[m] = withUnit(v, unitCell);
        });
        if (Object.keys(dict).length === 0)
          return reject(
            values.join(' '),
            `its ${values.length} values do not line up with the ${models.length} models`,
          );
        value = dict;
      } else if (field.kind === 'list') {
        value = values;
      } else {
        const k = targetIndex(models, target);
        // a limits table's row: the column the field asks for, the unit column's unit (said in the warnings)
        const limits = limitsAt !== undefined && limitsAt.row < i ? limitsValue(field, cells, limitsAt) : undefined;
        if (limitsAt !== undefined && limitsAt.row < i && !limits)
          return reject(values.join(' '), 'the limits column its name asks for is empty');
        // a table with a Typ column states operating characteristics, never absolute maximum ratings (those tables
        // give no typical value): a field asking for an absolute rating is not read from it (round 6)
        if (limits && limitsAt?.typ !== undefined && asksAbsolute(field))
          return reject(
            limits.value,
            'it is from a table of operating characteristics (Min/Typ/Max), and the field asks for an absolute rating',
          );
        if (limits) unitCell = limits.unit;
        // the target model's column; a row of several models' values without it is not this product's value
        // which of an amounts row's numbers (round 9): the column its header names by the field's own words
        // ("| Total | 439.59 | 46.31 | 485.90 |" under "| Rate | Net | VAT | Gross |": VAT for `vat_total`), or for a
        // total the gross column, not the first (a net)
        const partCell =
          !limits && k === undefined && header && values.length >= 2
            ? amountColumn(field, header, cells, labelEnd, unitCol)
            : undefined;
        // (round 14) an amount's row with a count before the amount ("| Total labour | 2.2 | | £198.00 |"): for an
        // amount, the first cell that prints a currency, not a bare number before it
        const amountCell =
          kind.kind === 'money' && values.length >= 2 && !CURRENCY_SIGN.test(values[0]!)
            ? values.find((v) => CURRENCY_SIGN.test(v) && /\d/.test(v))
            : undefined;
        const cell = limits
          ? limits.value
          : k !== undefined
            ? modelValue(cells, labelEnd, k, models.length, columns)
            : (partCell ?? amountCell ?? values[0]!);
        // the target model's values on the rows with this label: two different ones are ambiguous too
        if (k !== undefined && cell !== undefined)
          rowsSeen.set(`${key}|target`, (rowsSeen.get(`${key}|target`) ?? new Set()).add(cell.trim()));
        if (cell === undefined)
          return reject(
            values.join(' '),
            `its ${values.length} values do not line up with the ${models.length} models, so ${target}'s is not known`,
          );
        // a measured value and its unit, then a comma and more about the part ("3.0 kW, 2-pole, IE3"): the value
        // (round 6); else a cell of many words is a merged block of several rows, not a value
        const listed =
          kind.kind === 'quantity' ? /^([-+±~]?\d[\d.,]*\s*[^\s\d,]{1,8}),\s+\S/.exec(cell)?.[1] : undefined;
        // (an amount and its payment terms is one value: value-extent.ts cuts the terms; round 8)
        const terms = kind.kind === 'money' ? amountBeforeTerms(cell) : undefined;
        if (!listed && !terms && cell.split(/\s+/).length > (kind.kind === 'text' ? 16 : 6) && !isIp)
          return reject(cell, 'it is a block of several cells');
        const labelled = otherFieldLabelled(field, others, cell);
        if (labelled) return reject(cell, `it is labelled as ${fieldName(labelled.path)}, another field`);
        const picked = kind.kind === 'quantity' ? dropQualifier(dropRemark(listed ?? cell)) : valueByKind(kind, cell);
        const wrong = misfit(kind, picked, unitCell ?? label);
        if (wrong) return reject(cell, wrong);
        value = withUnit(picked, unitCell);
        // a table naming the target model is where its values are
        if (target && k === undefined)
          return found.push({
            value,
            label: rowLabel,
            snippet: rowSnippet,
            locator,
            score: score * rankWeight * 0.6,
            method: 'table_cell',
          });
      }
      const limitsNote =
        field.kind === 'scalar' && limitsAt !== undefined && limitsAt.row < i
          ? limitsValue(field, cells, limitsAt)?.note
          : undefined;
      found.push({
        value,
        label: rowLabel,
        ...(limitsNote ? { note: `read from ${limitsNote} of its table row "${label}"` } : {}),
        targeted: field.kind === 'scalar' && targetIndex(models, target) !== undefined,
        ...(isObject(value) ? { missingModels: models.filter((m) => !(m in value)) } : {}),
        // (a limits table's row with its header: the column it was read from is named there)
        snippet: limitsNote ? `${(lines[limitsAt!.row] ?? '').trim()}\n${rowSnippet}` : rowSnippet,
        locator,
        score: score * rankWeight * (conditionNamed ? 1.05 : 1),
        method: 'table_cell',
      });
      return;
    }
    keyValue(line, rankWeight);
    // several definitions on one line ("Products" means …; "Territory" means …): each from its term to the next
    const definitions = line.split(/;\s*(?=["“][^"”]{2,60}["”]\s+means\b)/);
    if (definitions.length >= 2) for (const d of definitions) keyValue(d.trim(), rankWeight);
    // several `Label: value` pairs on one line ("Subscription start: 01/07/2026 Subscription term: 12 months"): each
    // pair from its label to the next one's
    const pairs = [...line.matchAll(/(?<=^|\s)\p{Lu}[\p{L} .'/&-]{1,40}?:\s/gu)];
    if (pairs.length >= 2)
      pairs.forEach((m, k) => keyValue(line.slice(m.index, pairs[k + 1]?.index ?? line.length).trim(), rankWeight));
  };
  // a spec list printed in two columns of label and value pairs ("| Holding torque | min. 0.55 N·m | Leads | 4 |"):
  // each pair is a row of its own (the evidence is still the whole line; round 7)
  lines.forEach((line, i) => {
    for (const cells of labelValuePairs(rows[i])) rowBody(line, i, cells);
  });
  // "TOTAL $43.20", "Date 14/03/2024": a label and an amount or date with no colon (receipts print them so)
  // "TOTAL $43.20", "Date 14/03/2024 21:05": a label and an amount or date with no colon (receipts print them so);
  // several on one line when the converter joined a paragraph's lines ("Subtotal $1,200.00 … Balance Due
  // $1,296.00"): each amount with the words since the previous one as its label
  if (kind.kind === 'money')
    for (const line of lines) {
      if (line.trim().startsWith('|')) continue;
      let from = 0;
      for (const m of line.matchAll(MONEY_IN_LINE)) {
        const label = line
          .slice(from, m.index)
          .replace(/^\s*[-*]\s+/, '')
          .trim();
        from = m.index + m[0].length;
        if (!/^[A-Za-z][A-Za-z .#/&()%\d-]{1,40}$/.test(label)) continue;
        const score = labelScore(field, label, true);
        if (score < LABEL_MATCH || misfit(kind, m[1]!.trim())) continue;
        found.push({
          value: m[1]!.trim(),
          snippet: `${label} ${m[1]!.trim()}`,
          locator,
          score: score * (1 - rank * 0.05) * 0.9,
          method: 'key_value',
        });
      }
    }
  // "Measuring range 0 ... 10 bar", "Date 14-02-2026 21:05": a label, then the value from its first number or
  // sign (a time may follow a date)
  // (a table row with one cell, the rest empty, is a line: a form's line the converter put in a table, "| Order
  // number PW-5590-2718 |  |  |"; round 6)
  const single = (line: string) => {
    const cells = splitRow(line);
    const filled = cells?.filter((c) => c.length > 0) ?? [];
    return cells && !isSeparator(cells) && filled.length === 1 && cells[0] === filled[0] ? filled[0]! : undefined;
  };
  // an identifier's field ("order_number", "booking_ref"): a label, then one code with a digit ("Order number
  // PW-5590-2718")
  const idField = /^(?:number|no|id|code|ref|reference)$/.test(
    nameWords(field.path[field.path.length - 1]!).at(-1) ?? '',
  );
  if (kind.kind !== 'money')
    for (const raw of lines) {
      const line = single(raw) ?? raw;
      // (a `Label: value` line is read above; a time's colon is not a label's)
      if (line.trim().startsWith('|') || /^[^:\d]{1,40}:/.test(line)) continue;
      const m =
        kind.kind === 'text' && idField
          ? /^\s*(?:[-*]\s*)?([A-Za-z][A-Za-z .#/&()-]{1,40}?)\s+((?=[A-Z0-9-/.]*\d)[A-Z0-9][A-Z0-9\-/.]{2,30})\s*$/.exec(
              line,
            )
          : kind.kind === 'date'
            ? new RegExp(
                `^\\s*(?:[-*]\\s*)?([A-Za-z][A-Za-z .#/&()-]{1,40}?)\\s+(${DATE_PATTERN.source})(?:\\s+\\d{1,2}:\\d{2}(?::\\d{2})?)?\\s*$`,
                'i',
              ).exec(line)
            : /^\s*(?:[-*]\s*)?([A-Za-z][A-Za-z .()/-]{1,40}?)\s+((?:approx\.?\s*|ca\.\s*|typ\.\s*)?[<>≤≥±~+-]?\s?\d.{0,40})$/.exec(
                line,
              );
      if (!m || /\d/.test(m[1]!)) continue;
      const score = labelScore(field, m[1]!, true);
      if (score < LABEL_MATCH) continue;
      // (read as a `Label: value` line's value is: "16 A at 40 °C" gives "16 A")
      const value = kind.kind === 'date' ? m[2]!.trim() : valueByKind(kind, dropQualifier(m[2]!.trim()));
      const wrong = misfit(kind, value);
      if (wrong) {
        if (kind.kind !== 'ip_code') rejected.push({ seen: value, label: m[1]!, why: wrong, score });
        continue;
      }
      found.push({
        value,
        snippet: line.trim(),
        locator,
        score: score * (1 - rank * 0.05) * 0.9,
        method: 'key_value',
      });
    }
  // a date inside a line of several labelled values with no colons ("Rx # 6604418 Filled 11/28/2025"): the words
  // since the previous number are its label (at most four)
  // (and in a table's value cell: "| Under | Master Services Agreement dated 12 January 2025 |", the words before
  // the date in the cell; round 6)
  if (kind.kind === 'date')
    for (const row of lines) {
      const cells = splitRow(row);
      const texts = cells
        ? isSeparator(cells)
          ? []
          : cells.slice(1).map((c) => ({ text: c, cell: true }))
        : [{ text: row, cell: false }];
      for (const { text: line, cell } of texts)
        for (const m of line.matchAll(new RegExp(DATE_PATTERN.source, 'gi'))) {
          const words = line.slice(0, m.index).trim().split(/\s+/).filter(Boolean);
          const since = words.length - 1 - [...words].reverse().findIndex((w) => /\d/.test(w));
          const labelWords = (since >= words.length ? words : words.slice(since + 1)).slice(-4);
          const label = labelWords.join(' ');
          if (!label || (labelWords.length === words.length && !cell)) continue;
          const score = labelScore(field, label, true);
          if (score < LABEL_MATCH) continue;
          found.push({
            value: m[0],
            label,
            snippet: `${label} ${m[0]}`,
            locator,
            score: score * (1 - rank * 0.05) * 0.85,
            method: 'key_value',
          });
        }
    }
  // a label on a line of its own, its value on the next line of the same block ("PROVIDER" / "Cobalt Ledger Ltd",
  // "Vendor" / "Rhein-Ventil GmbH": a form's block as the converter gives it, a line per row)
  for (const [i, line] of lines.entries()) {
    const label = line.trim().replace(/\s*[:：]$/, '');
    // (a blank line between them: the converter sets a box's label and its value as paragraphs, "Amount due" /
    // "" / "£139.58"; round 7; only for a typed value: a line and a paragraph of words are a heading and its text)
    const gap = kind.kind !== 'text' && !(lines[i + 1] ?? '').trim() && i + 2 < lines.length ? 2 : 1;
    const next = (lines[i + gap] ?? '').trim();
    if (!label || !next || /^[|#>]/.test(label) || /^[|#>]/.test(next)) continue;
    if (/\d/.test(label) || label.split(/\s+/).length > 4 || /[.!?,;]$/.test(label)) continue;
    // the next line is a value, not a label and value of its own, nor a sentence
    if (/^[^:]{1,40}:\s*\S/.test(next) || / {2,}/.test(next) || next.split(/\s+/).length > 10 || /[.!?]$/.test(next))
      continue;
    // (a form's block under a section label in capitals: "HIRER" / "Name" / "Oluwaseun …" is the hirer's name; the
    // section's words qualify a label that alone does not name the field; round 9)
    // (and only when the label itself says one of the field's own words: "Registration" under "VEHICLE …" is the
    // vehicle's registration, not the vehicle)
    const sharesWord = label
      .toLowerCase()
      .split(/[^\p{L}]+/u)
      .some((w) => w.length > 0 && nameWords(field.path[field.path.length - 1]!).includes(w));
    const section = sharesWord && !labelMatches(field, label) ? sectionLabel(lines, i) : undefined;
    const score = Math.max(
      labelScore(field, label, true),
      section ? labelScore(field, `${section} ${label}`, true) : 0,
    );
    if (score < LABEL_MATCH) continue;
    // the next line is itself a label (round 9): a schema field's own words ("HIRER" / "Name" / "Oluwaseun …",
    // "VEHICLE" / "Registration" / "YR24 KZP"), or one of a column of labels whose values the converter set in a
    // block after it ("Interface" / "Bus address" / "Package" … then "2-wire …" / "0x48 …")
    const nextLabel = labelLine(next, lines, i + gap, [field, ...others]);
    if (nextLabel) {
      rejected.push({ seen: next, label, why: nextLabel, score });
      continue;
    }
    const value = kind.kind === 'quantity' ? dropQualifier(dropRemark(next)) : valueByKind(kind, next);
    const wrong = misfit(kind, value);
    if (wrong) {
      if (!isIp) rejected.push({ seen: value, label, why: wrong, score });
      continue;
    }
    found.push({
      value,
      label,
      snippet: lines
        .slice(i, i + gap + 1)
        .map((l) => l.trim())
        .join('\n'),
      locator,
      score: score * (1 - rank * 0.05) * 0.9,
      method: 'key_value',
    });
  }
  // a list (or the parties of a contract) written as several labelled lines ("Party A: …", "Party B: …"): one
  // value of all of them, the lines from the first to the last as its evidence
  // (and a table's or a form's rows: "Supplier | …", "Customer | …"; "| Licensor: … | Licensee: … |")
  const lineOf = (c: Candidate) => lines.findIndex((l) => l.trim() === c.snippet || l.includes(c.snippet));
  const one = (v: unknown) => (Array.isArray(v) && v.length === 1 ? v[0] : v);
  const labelled = found.filter(
    (c) => (c.method === 'key_value' || c.method === 'table_cell') && typeof one(c.value) === 'string',
  );
  // (the labelled lines when there are two or more: a table row elsewhere does not join them)
  const lines2 = labelled.filter((c) => c.method === 'key_value');
  const lineValues = (lines2.length >= 2 ? lines2 : labelled).sort((a, b) => lineOf(a) - lineOf(b));
  if (lineValues.length >= 2 && (field.kind === 'list' || /part(y|ies)$/.test(field.path[field.path.length - 1]!))) {
    const first = lineOf(lineValues[0]!);
    const last = lineOf(lineValues[lineValues.length - 1]!);
    if (first >= 0 && last >= first && last - first <= 8) {
      const values = lineValues.map((c) => String(one(c.value)));
      found.splice(0, found.length, {
        value: field.kind === 'list' ? values : values.join(' and '),
        snippet: lines
          .slice(first, last + 1)
          .join('\n')
          .trim(),
        locator,
        // (a little above any one of its lines: the lines together are the value)
        score: Math.max(...lineValues.map((c) => c.score)) + 0.01 * (lineValues.length - 1),
        method: 'key_value',
      });
    }
  }
  found.push(...stackedCandidates(field, kind, content, locator, rank));
  found.push(...partyColumnCandidates(field, content, locator, rank));
  found.push(...modelRowCandidates(field, kind, content, locator, rank, target));
  found.push(...proseCandidates(field, kind, content, locator, rank));
  found.push(...organisationCandidates(field, content, locator, rank));
  // An IP rating is an IP code: from a matching row or line when it has one, else anywhere in the chunk.
  if (isIp) {
    const codes = found.flatMap((c) => {
      const ip = IP_CODE.exec(String(c.value));
      return ip ? [{ ...c, value: `IP${ip[1]}` }] : [];
    });
    const ip = IP_CODE.exec(content);
    if (ip) codes.push({ value: `IP${ip[1]}`, snippet: ip[0], locator, score: 0.5 - rank * 0.05, method: 'pattern' });
    return codes;
  }
  return found.filter((c) => {
    if (labelledByOrganisation(field, c)) return false;
    // a signature block's heading ("For the Supplier", "On behalf of the Tenant") is no party's name
    const party = isPartyField(field)
      ? [c.value].flat().find((v) => typeof v === 'string' && SIGNATURE_HEADING.test(v))
      : undefined;
    // (round 11) and the value a signature block's heading labels ("For the Supplier | M. Hollinsworth, Managing
    // Director") is its signatory, not the party
    if (isPartyField(field) && c.label && SIGNATURE_HEADING.test(c.label.trim())) {
      rejected.push({
        seen: String([c.value].flat()[0] ?? ''),
        label: c.label,
        why: 'its label is a signature block’s heading: the value is a signatory, not the party',
        score: c.score,
      });
      return false;
    }
    if (party) {
      rejected.push({
        seen: String(party),
        label: c.label ?? c.snippet.slice(0, 60),
        why: 'it is a signature block’s heading, not a name',
        score: c.score,
      });
      return false;
    }
    const why = typeof c.value === 'string' ? wordsWanted(field, c.value) : undefined;
    if (why) rejected.push({ seen: c.value as string, label: c.label ?? c.snippet.slice(0, 60), why, score: c.score });
    return !why;
  });
};

/**
 * A candidate whose label (a row's label, the heading or line over its value) is the organisation's own name, and
 * whose value is something else: the name is the value, not a label ("Hotel Graben Hof" over "INVOICE").
 */
export const labelledByOrganisation = (
  field: SchemaField,
  c: { value: unknown; snippet: string; label?: string },
): boolean => {
  const organisation = organisationWord(nameWords(field.path[field.path.length - 1]!));
  if (!organisation) return false;
  const first = c.snippet.split('\n')[0] ?? '';
  const over = [c.label ?? '', ...(splitRow(first) ?? [first])];
  return over.some((t) => isOrganisationName(organisation, t) && t.trim().replace(/^#{1,6}\s+/, '') !== c.value);
};

/**
 * An organisation's name printed as itself ("# Caldera Community Bank", "| Hotel Graben Hof | INVOICE |") is the
 * value of its `bank_name` / `hotel_name`, not a label over the next cell or line (round 6): a candidate per heading,
 * line or table cell that is such a name.
 */
export const organisationCandidates = (
  field: SchemaField,
  content: string,
  locator: string,
  rank: number,
): Candidate[] => {
  const organisation = organisationWord(nameWords(field.path[field.path.length - 1]!));
  if (!organisation) return [];
  return content.split('\n').flatMap((line) =>
    (splitRow(line) ?? [line])
      .filter((text) => isOrganisationName(organisation, text))
      .map((text) => ({
        value: text.trim().replace(/^#{1,6}\s+/, ''),
        label: text.trim(),
        snippet: line.trim().replace(/^#{1,6}\s+/, ''),
        locator,
        score: 0.9 * (1 - rank * 0.05),
        method: 'pattern' as const,
      })),
  );
};

/** Does the field ask for an absolute (maximum) rating: "absolute" in its name or description? */
export const asksAbsolute = (field: SchemaField): boolean =>
  nameWords(field.path[field.path.length - 1]!).includes('absolute') ||
  (typeof field.hint === 'string' && /\babsolute\b/i.test(field.hint));

/** Fields whose value is words by their name's last word: a name, a type, a material, a title. */
const WORDS_FIELD =
  /^(name|names|type|material|title|brand|manufacturer|colou?r|method|medication|product|city|country)$/;

/**
 * A field named for words ("customer_name", "fuel_type") is not given a value without a letter: "0345 600 1234"
 * beside "Customer service", "70.57" beside "FUEL TOTAL" are another thing's number. Undefined when it fits.
 */
export const wordsWanted = (field: SchemaField, value: string): string | undefined => {
  const words = nameWords(field.path[field.path.length - 1]!);
  return WORDS_FIELD.test(words[words.length - 1] ?? '') && !/\p{L}/u.test(value)
    ? `it has no letters, and a ${words[words.length - 1]} is words`
    : undefined;
};

/**
 * A table with one model per row ("| Model | Rated power [kW] | Rated current [A] |" / "| MX-1.5 | 1.5 | 3.8 |"):
 * the column whose header names the field holds its values, the unit from the header. A per-model field takes
 * the column keyed by the rows' models; a scalar field the target model's row (no target: which row is not known,
 * nothing is taken). Only when the header's first cell says its column is models and most rows start with a
 * model-like name. The evidence is the table from its header down to the row (the header names the field).
 */
export const modelRowCandidates = (
  field: SchemaField,
  kind: FieldKind,
  content: string,
  locator: string,
  rank: number,
  target: string | undefined,
): Candidate[] => {
  const lines = content.split('\n').filter((l) => l.trim().startsWith('|'));
  const rows = lines.map((l) => splitRow(l) ?? []);
  const headerAt = rows.findIndex((r) => r.length > 0 && !isSeparator(r));
  const header = rows[headerAt];
  if (!header || header.length < 2 || !HEADER_LABEL.test(header[0]!.trim())) return [];
  const body = rows
    .map((r, i) => ({ cells: r, line: i }))
    .filter((r) => r.line > headerAt && !isSeparator(r.cells) && r.cells.length > 0);
  // a second header row of units under the titles, its model cell empty ("|  | W | r/min | N·m |"): each column's
  // unit (round 6)
  const unitRow =
    body[0] &&
    !body[0].cells[0]!.trim() &&
    body[0].cells.slice(1).every((c) => !c.trim() || (UNIT.test(c.trim()) && !VALUE_CELL.test(c.trim())))
      ? body[0].cells
      : undefined;
  const data = unitRow ? body.slice(1) : body;
  const models = data.map((r) => r.cells[0]!.trim());
  if (
    data.length < 2 ||
    models.filter((m) => SHORT_MODEL.test(m)).length < Math.max(2, Math.ceil((data.length * 2) / 3)) ||
    new Set(models).size !== models.length
  )
    return [];
  const found: Candidate[] = [];
  header.forEach((title, c) => {
    if (c === 0 || !title) return;
    const score = labelScore(field, title, true);
    if (score < LABEL_MATCH) return;
    const trailing = /[[(]([^\])[(]{1,12})[\])]\s*$/.exec(title)?.[1] ?? (unitRow?.[c]?.trim() || undefined);
    const unit =
      trailing && UNIT.test(trailing) && (kind.kind !== 'quantity' || kind.units.test(`1 ${trailing}`))
        ? trailing
        : undefined;
    const valueOf = (cell: string | undefined) => {
      const value = (cell ?? '').trim();
      if (!value || (kind.kind === 'quantity' && !VALUE_CELL.test(value))) return undefined;
      return misfit(kind, value, unit ?? title) ? undefined : withUnit(value, unit);
    };
    const snippet = (row: number) =>
      row - headerAt <= 12
        ? lines
            .slice(headerAt, row + 1)
            .join('\n')
            .trim()
        : undefined;
    const weight = score * (1 - rank * 0.05) * 0.9;
    if (field.kind === 'dict') {
      const dict: Record<string, string> = {};
      for (const r of data) {
        const v = valueOf(r.cells[c]);
        if (v !== undefined) dict[r.cells[0]!.trim()] = v;
      }
      const last = Math.max(...data.map((r) => r.line));
      const evidence = snippet(last);
      if (Object.keys(dict).length >= 2 && evidence)
        found.push({
          value: dict,
          label: title,
          missingModels: models.filter((m) => !(m in dict)),
          snippet: evidence,
          locator,
          score: weight,
          method: 'table_cell',
        });
      return;
    }
    const k = targetIndex(models, target);
    if (field.kind !== 'scalar') return;
    if (k === undefined) {
      // no target model: the column's value only when every model has the same one ("Rated speed" 3000 on every
      // row is the series' rated speed; different values: which model's is not known)
      const all = data.map((r) => valueOf(r.cells[c]));
      const last = data[data.length - 1]!.line;
      const evidence = snippet(last);
      if (all.every((v) => v !== undefined && v === all[0]) && evidence)
        found.push({ value: all[0], label: title, snippet: evidence, locator, score: weight, method: 'table_cell' });
      return;
    }
    const v = valueOf(data[k]!.cells[c]);
    const evidence = snippet(data[k]!.line);
    if (v !== undefined && evidence)
      found.push({
        value: v,
        label: title,
        targeted: true,
        snippet: evidence,
        locator,
        score: weight,
        method: 'table_cell',
      });
  });
  return found;
};

/**
 * How many different values the table rows carrying the best candidate's label give under its heading: the rows'
 * values, or for a value read from the target model's column, that column's values (the model column decides
 * which cell of a row, not which row). More than one: which row is the field's is not known. 0 for a value not
 * read from a table.
 */
export const sameLabelValues = (best: Candidate, rowsSeen: Map<string, Set<string>>): number => {
  if (best.method !== 'table_cell') return 0;
  const key = `${best.locator.split('-')[0]}|${best.label ?? ''}`;
  return rowsSeen.get(best.targeted ? `${key}|target` : key)?.size ?? 0;
};

const leafOf = (c: Candidate) => ({
  locator: c.locator,
  snippet: c.snippet,
  match: c.method,
  confidence: Math.round(Math.min(1, c.score) * 100) / 100,
});

/**
 * A per-model field's dicts merged over every table whose matching row scores within 75 % of the best (a
 * catalogue prints its models in several tables): the best table's value wins a model both give, and each model's
 * evidence is its own row. `undefined` when fewer than two tables qualify (the best candidate stands alone).
 */
export const mergePerModel = (
  best: Candidate,
  perModel: Candidate[],
): { value: Record<string, unknown>; evidence: Record<string, unknown> } | undefined => {
  const tables = perModel.filter(
    (c, i) => c.score >= 0.75 * best.score && perModel.findIndex((o) => o.snippet === c.snippet) === i,
  );
  if (tables.length <= 1) return undefined;
  const value: Record<string, unknown> = {};
  const evidence: Record<string, unknown> = {};
  for (const c of [best, ...tables.filter((t) => t !== best)]) {
    if (typeof c.value !== 'object' || c.value === null) continue;
    for (const [model, v] of Object.entries(c.value as Record<string, unknown>)) {
      if (model in value) continue;
      value[model] = v;
      evidence[model] = leafOf(c);
    }
  }
  return { value, evidence };
};

/** The one value the alternatives give (those giving none aside); undefined when none or they differ. */
const agreed = <T extends { value: string }>(found: (T | undefined)[]): T | undefined => {
  const given = found.filter((f): f is T => f !== undefined);
  return given.length > 0 && given.every((f) => f.value === given[0]!.value) ? given[0] : undefined;
};

/** A target model named by the schema (a `part_number`/`model` field's hint), to pick its column in per-model tables. */
const targetModelOf = (fields: SchemaField[]): string | undefined => {
  const field = fields.find(
    (f) =>
      /(^|_)(part_number|model|model_number)$/.test(f.path[f.path.length - 1]!) &&
      typeof f.hint === 'string' &&
      f.hint.trim(),
  );
  return field ? String(field.hint).trim() : undefined;
};

const SIGNATURE_HEADING = /^(?:for|on behalf of|signed|signature|by)\b/i;

/** A contract's parties or one party's role ("parties", "supplier", "landlord"). */
const isPartyField = (field: SchemaField): boolean => {
  const words = nameWords(field.path[field.path.length - 1]!);
  return (
    words.some((w) => /^(?:part(?:y|ies)|counterparties)$/.test(w)) ||
    (words.length === 1 && PARTY_ROLE.test(words[0]!))
  );
};
const PARTY_ROLE =
  /^(?:licensor|licensee|supplier|customer|buyer|seller|client|provider|contractor|consultant|landlord|tenant|lessor|lessee|employer|employee|distributor|vendor|purchaser)$/;

/**
 * A table the converter cut after its Min/Typ/Max header row ("| Parameter Conditions | Min. | Typ. | Max. | Unit |"
 * closing the part before): the part's rows under that header, read from the nearest earlier part under the same
 * heading whose last row it is (parts between without a header of their own). The header is aligned on the right
 * when it has fewer cells (a merged first cell), only when it ends with a Unit column and every row's last cell is
 * a unit or empty. Round 7.
 */
export const withLimitsHeader = async (
  locator: string,
  content: string,
  read: (locator: string) => Promise<string | undefined>,
): Promise<string> => {
  const part = /^(h\d+)-t(\d+)$/.exec(locator);
  const rows = tableRowsOf(content);
  if (!part || rows.length === 0 || limitsHeader(rows)) return content;
  const width = rows[0]!.length;
  if (rows.some((r) => r.length !== width)) return content;
  for (let m = Number(part[2]) - 1; m >= 1; m -= 1) {
    const earlier = await read(`${part[1]}-t${m}`);
    if (earlier === undefined) return content;
    const earlierRows = tableRowsOf(earlier);
    const last = earlierRows[earlierRows.length - 1];
    const header = last && limitsHeader([last]) ? last : undefined;
    if (!header) {
      if (earlierRows.some((r) => r.length !== width) || limitsHeader(earlierRows)) return content;
      continue;
    }
    if (header.length > width) return content;
    if (header.length < width) {
      const unitLast = /^units?$/i.test(header[header.length - 1]!.trim());
      const unitsLast = rows.every((r) => !r[width - 1] || (UNIT.test(r[width - 1]!) && !/^\d/.test(r[width - 1]!)));
      if (!unitLast || !unitsLast) return content;
    }
    const aligned = [...Array<string>(width - header.length).fill(''), ...header];
    aligned[0] = header[0]!;
    if (header.length < width) aligned[width - header.length] = '';
    const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
    const body = content.split('\n').filter((l) => {
      const cells = splitRow(l);
      return !cells || !isSeparator(cells);
    });
    return [line(aligned), line(aligned.map(() => '---')), ...body].join('\n');
  }
  return content;
};

/** Does the text print a word of the field's description (a remark the description asks for)? */
const hintWordsIn = (field: SchemaField, text: string): boolean => {
  const have = new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  return hintWords(field).some((w) => have.has(w));
};

/**
 * A grid's row label or column header as a label (round 12): its unit in brackets at the end ("Weight (kg)",
 * "Bore [mm]") is the unit of its bare-number cells, not a word of the label; a symbol printed after the name ("Width
 * B", "Bore d", "Dyn. load C0": one letter, or a letter and digits) is not one either.
 */
export const gridLabel = (text: string): { label: string; unit?: string } => {
  let label = text.replace(/[:：]\s*$/, '').trim();
  let unit: string | undefined;
  const bracket = /^(.*\p{L}.*?)\s*[([]\s*([^()[\]\d]{1,8}?)\s*[)\]]$/u.exec(label);
  if (bracket && /^[\p{L}°%µΩ/·³²\s.-]+$/u.test(bracket[2]!)) {
    label = bracket[1]!.trim();
    unit = bracket[2]!.trim();
  }
  const symbol = /^(.*\p{L}{3,}.*?)\s+\p{L}\d*$/u.exec(label);
  if (symbol) label = symbol[1]!.trim();
  return unit ? { label, unit } : { label };
};

/** A column header that says which limit a cell is (round 12): Min, Typ (or Nom), Max. */
const limitOf = (text: string): 'min' | 'typ' | 'max' | undefined => {
  const t = text.trim().toLowerCase().replace(/[.:]$/, '');
  if (/^(?:min|minimum)$/.test(t)) return 'min';
  if (/^(?:typ|typical|nom|nominal)$/.test(t)) return 'typ';
  if (/^(?:max|maximum)$/.test(t)) return 'max';
  return undefined;
};

/** Letter words of a text, lower case, of two letters or more. */
const letterWordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => /\p{L}/u.test(w) && w.length >= 2);

/** A cell that is a bare number or range of numbers: the row's `Unit` cell completes it. */
const BARE_NUMBER = /^[-+±~<>≤≥]?\s*\d[\d.,]*(?:\s*(?:to|~|–|-|\.\.\.?|…)\s*[-+]?\d[\d.,]*)?$/;

/**
 * The cell of a grid row that is a field's (round 12), by its row label × its column header, or undefined:
 * - the field names a limit its row label does not (`max_…`, "Maximum …", `typical_…`): the one cell under that
 *   limit's column (Min / Typ or Nom / Max);
 * - else the column headed by the schema's target model;
 * - else the row's only value cell, or its one cell under a Typ / Nom column;
 * - else the one column whose header's words are all words of the field's name or description, one at least not
 *   the row label's (a condition or a variant the description names: "at 25 °C", "12 V input").
 * Returns the cell and the label it is read under (the row label, with the column's header when that chose it).
 */
export const gridCellFor = (
  field: SchemaField,
  row: GridCell[],
  target: string | undefined,
): { cell: GridCell; label: string } | undefined => {
  const rowLabel = gridLabel(row[0]!.row.text).label;
  const rowWords = new Set(letterWordsOf(rowLabel));
  const own = [...nameWords(field.path[field.path.length - 1]!), ...hintWords(field)];
  const asked = new Set(
    own
      .filter((w) => !rowWords.has(w))
      .map(limitOf)
      .filter((q) => q !== undefined),
  );
  if (asked.size > 0) {
    const under = row.filter((c) => {
      const q = limitOf(c.column.text);
      return q !== undefined && asked.has(q);
    });
    if (under.length !== 1) return undefined;
    // read under the field's own word for the limit ("Input voltage" under "Typ" for nominal_input_voltage)
    const q = limitOf(under[0]!.column.text);
    const said = own.filter((w) => !rowWords.has(w) && limitOf(w) === q);
    return { cell: under[0]!, label: `${rowLabel} ${[...new Set(said)].join(' ')}` };
  }
  const norm = (t: string) => t.toLowerCase().replace(/[\s\-_.]+/g, '');
  if (target) {
    const targeted = row.filter((c) => norm(c.column.text) === norm(target));
    if (targeted.length === 1) return { cell: targeted[0]!, label: rowLabel };
  }
  if (row.length === 1) return { cell: row[0]!, label: rowLabel };
  const typical = row.filter((c) => limitOf(c.column.text) === 'typ');
  if (typical.length === 1) return { cell: typical[0]!, label: rowLabel };
  const known = new Set(own);
  const named = row.filter((c) => {
    const words = letterWordsOf(c.column.text);
    return words.length > 0 && words.every((w) => known.has(w)) && words.some((w) => !rowWords.has(w));
  });
  return named.length === 1 ? { cell: named[0]!, label: `${rowLabel} ${named[0]!.column.text.trim()}` } : undefined;
};

/** A layout label's match to a field (labelScore), stricter than a Markdown line's `LABEL_MATCH`. */
/**
 * Is the layout's reading the Markdown's value without the remark in brackets printed after it ("CN" / "CN (normal)",
 * "Biscuit" / "Biscuit (canine, 6 y)")? The layout reads the value's own text beside its label and leaves out such a
 * remark unless the field's description asks for it (round 10); the Markdown's cell keeps the whole text. Case,
 * spacing and quotes aside; a remark of 2 to 60 characters, one bracket, nothing after it.
 */
export const layoutDropsRemark = (markdown: unknown, layout: unknown): boolean => {
  if (typeof markdown !== 'string' || typeof layout !== 'string') return false;
  const remark = /^(.*\S)\s*\(([^()]{1,60})\)$/.exec(markdown.trim());
  if (!remark || remark[2]!.trim().length < 1) return false;
  const flat = (t: string) =>
    t
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[\s"]+/g, '');
  return flat(layout).length > 0 && flat(remark[1]!) === flat(layout);
};

export const LAYOUT_LABEL_MATCH = 0.9;
/** A layout candidate under a partial label (`partialLabel`) scores this share of a full label's. */
export const PARTIAL_LABEL_WEIGHT = 0.75;

/**
 * The offline extractor (`EXTRACTOR=local`): no LLM. For each field it searches the index with the field's name,
 * path and synonyms (`doc_search`), reads the best hits (`doc_read`), and takes the value from a table row or a
 * `Label: value` line whose label matches the field's words; per-model table columns become a dict for a
 * per-model field, and a target model named by the schema picks its column for a scalar one. The evidence is the
 * row or line it read, and it is verified like an LLM's.
 */

export const extractLocally = async (input: LocalExtractInput): Promise<LocalExtractOutput> => {
  const data: Record<string, unknown> = {};
  const evidence: Record<string, unknown> = {};
  const warnings: string[] = [];
  const target = targetModelOf(input.fields);
  const read = input.read ?? chunkReader(input.tools, input.indexId, input.signal);
  /**
   * The models a table's columns are: its header's, else (a table the converter cut in parts) those of the
   * nearest earlier table under the same heading that names them.
   */
  const tableModels = async (locator: string, content: string): Promise<string[]> => {
    const rows = tableRowsOf(content);
    const own = tableHeader(rows);
    const part = /^(h\d+)-t(\d+)$/.exec(locator);
    if (own.named || !part) return own.models;
    for (let m = Number(part[2]) - 1; m >= 1; m -= 1) {
      const earlier = await read(`${part[1]}-t${m}`);
      const header = earlier === undefined ? undefined : tableHeader(tableRowsOf(earlier));
      if (!header || header.models.length === 0) continue;
      // a header row labelled as models ("Frame | T10 | T12 …") names the columns of the tables after it under
      // the same heading, when this table has rows with one value per model; else its own first row is
      if (header.named && modelColumns(rows, header.models.length)) return header.models;
      if (own.models.length === 0) return header.models;
    }
    return own.models;
  };
  /**
   * The top of the document: the section before the first heading (`h0`) when it has text, else the first
   * heading's. The chunker moves a short text block after the table that follows it, so a section's text and its
   * first table are read in both orders (the caller keeps a value only when the orders agree).
   */
  let top: Promise<{ locator: string; orders: string[] } | undefined> | undefined;
  const documentTop = () =>
    (top ??= (async () => {
      for (const locator of ['h0', 'h1']) {
        const section = await read(locator);
        if (section === undefined || !section.trim()) continue;
        const heading = /^#{1,6}\s.*$/m.exec(section.split('\n')[0] ?? '')?.[0] ?? '';
        const text = (await read(`${locator}-c1`)) ?? '';
        const table = (await read(`${locator}-t1`)) ?? '';
        return { locator, orders: [[heading, text, table].join('\n\n'), [heading, table, text].join('\n\n')] };
      }
      return undefined;
    })());
  /**
   * A chunk holding both the label and the value of a layout pair, for the evidence (its locator and a snippet
   * "label\n…\nvalue" the evidence check locates in it and finds on the page: the two boxes are its quads).
   */
  const layoutChunks = new Map<string, Promise<string | undefined>>();
  const chunkOfPair = (label: string, value: string, snippet: string): Promise<string | undefined> => {
    const key = snippet;
    let found = layoutChunks.get(key);
    if (!found) {
      found = (async () => {
        const hits = await docSearch(
          input.tools,
          { index_id: input.indexId, query: `${label} ${value}`, top_k: 5, scope: 'all' },
          input.signal,
        );
        const tried = new Set<string>();
        for (const hit of hits)
          for (const locator of [hit.locator, /^(h\d+)-[ct]\d+$/.exec(hit.locator)?.[1]]) {
            if (!locator || tried.has(locator)) continue;
            tried.add(locator);
            const content = await read(locator);
            const where = content === undefined ? undefined : locateSnippet(snippet, content);
            if (where === 'exact' || where === 'normalized') return locator;
          }
        return undefined;
      })();
      layoutChunks.set(key, found);
    }
    return found;
  };
  /**
   * The field's value from the page layout (round 10): each pair read as a `Label: value` line by the same reader
   * as the Markdown's (`candidatesIn`: label matcher, type and unit checks), a label returned as a value refused
   * (`labelAsValue`), the best by score; only a pair whose label and value one chunk holds (its evidence).
   */
  const layoutCandidate = async (field: SchemaField, kind: FieldKind): Promise<Candidate | undefined> => {
    if (!input.layout || input.layout.length === 0 || field.kind !== 'scalar') return undefined;
    const found: { c: Candidate; pair: LayoutPair }[] = [];
    for (const pair of input.layout) {
      const label = pair.label.text.replace(/[:：]\s*$/, '').trim();
      // (a signature block's heading labels a signatory, not a party)
      if (SIGNATURE_HEADING.test(label)) continue;
      // a stricter match than a Markdown line's: a layout pairs every short text with its neighbour, so a label
      // that shares one word with the field ("FUEL TOTAL" for fuel_type) is not taken
      const full = labelScore(field, label, true) >= LAYOUT_LABEL_MATCH - 1e-9;
      // (or a label printing part of this field's name and of no other's: "Account" for account_number, read as
      // the field's name so that the same reader checks the value; its score is lower)
      const partial = !full && partialLabel(field, label, input.fields);
      // (or the label qualified by its block's heading: "Life expectancy" / "Mechanical" for mechanical_life)
      const headed =
        !full && !partial && pair.heading ? `${pair.heading.replace(/[:：]\s*$/, '')} ${label}` : undefined;
      const underHeading = headed !== undefined && labelScore(field, headed, true) >= LAYOUT_LABEL_MATCH - 1e-9;
      // (or a label leaving out the quantity its value's unit states: "Supply" / "3.3 V" for supply_voltage; the
      // evidence check reads the value's unit the same way)
      const unitWord = kind.kind === 'quantity' ? quantityOfUnit(pair.value.text) : undefined;
      const unitLabel =
        !full && !partial && !underHeading && unitWord && !new RegExp(`\\b${unitWord}\\b`, 'i').test(label)
          ? `${label} ${unitWord}`
          : undefined;
      const byUnit = unitLabel !== undefined && labelScore(field, unitLabel, true) >= LAYOUT_LABEL_MATCH - 1e-9;
      if (!full && !partial && !underHeading && !byUnit) continue;
      const asRead = partial
        ? nameWords(field.path[field.path.length - 1]!).join(' ')
        : underHeading
          ? headed!
          : byUnit
            ? unitLabel!
            : label;
      // a remark in brackets after a value ("1 Form A (SPST-NO)", "IP67 (with mating connector fitted)") is not the
      // value, unless the field's description asks for what it says
      const remark = /^(.*\S)\s+\(([^()]{2,60})\)$/.exec(pair.value.text);
      const keepRemark = remark && hintWordsIn(field, remark[2]!);
      const valueText = remark && !keepRemark ? remark[1]! : pair.value.text;
      const line = `${asRead}: ${valueText}`;
      for (const c of layoutReadings(field, kind, line, target, input.fields)) {
        found.push({
          c: {
            ...c,
            label,
            score: c.score * (partial ? PARTIAL_LABEL_WEIGHT : 1),
            ...(underHeading ? { label: headed! } : {}),
            ...(remark && !keepRemark ? { note: `without the remark "(${remark[2]!})" printed after it` } : {}),
          },
          pair,
        });
      }
    }
    found.sort((a, b) => b.c.score - a.c.score);
    for (const { c, pair } of found.slice(0, 4)) {
      const label = c.label!;
      // (a label read with its block's heading has the heading in its evidence: it names the field)
      const head = pair.heading && label !== pair.label.text.replace(/[:：]\s*$/, '').trim() ? pair.heading : undefined;
      const snippet = `${head ? `${head}\n…\n` : ''}${pair.label.text}\n…\n${pair.value.text}`;
      const locator = await chunkOfPair(label, pair.value.text, snippet);
      if (!locator) continue;
      return {
        ...c,
        snippet,
        locator,
        note: `read from the page layout: "${pair.value.text.slice(0, 40)}" ${pair.where === 'right' ? 'right of' : 'under'} its label "${label.slice(0, 40)}" on page ${pair.page}${c.note ? `, ${c.note}` : ''}`,
      };
    }
    return undefined;
  };
  /**
   * The field's value from a grid on the page (round 12): the rows whose label names the field (a strict label
   * match, or a partial label), the cell its qualifier picks (`gridCellFor`), with the row's `Unit` cell when the
   * cell is a bare number, read as a `Label: value` line by the same reader as the Markdown's; evidence as a layout
   * pair's (the row label's and the cell's boxes).
   */
  const gridCandidate = async (field: SchemaField, kind: FieldKind): Promise<Candidate | undefined> => {
    if (!input.grid || input.grid.length === 0 || field.kind !== 'scalar') return undefined;
    const rows = new Map<Span, GridCell[]>();
    for (const cell of input.grid) rows.set(cell.row, [...(rows.get(cell.row) ?? []), cell]);
    const found: { c: Candidate; cell: GridCell; withUnit: boolean }[] = [];
    const limitWords = [...nameWords(field.path[field.path.length - 1]!), ...hintWords(field)].filter(
      (w) => limitOf(w) !== undefined,
    );
    /** Rows whose label names the field, whether a cell of theirs was taken or not. */
    let named = 0;
    for (const [row, cells] of rows) {
      const { label: rowLabel, unit: rowUnit } = gridLabel(row.text);
      if (
        labelScore(field, rowLabel, true) >= LAYOUT_LABEL_MATCH - 1e-9 ||
        labelScore(field, `${rowLabel} ${limitWords.join(' ')}`, true) >= LAYOUT_LABEL_MATCH - 1e-9
      )
        named += 1;
      const picked = gridCellFor(field, cells, target);
      if (!picked) continue;
      const full = labelScore(field, picked.label, true) >= LAYOUT_LABEL_MATCH - 1e-9;
      const partial = !full && picked.label === rowLabel && partialLabel(field, rowLabel, input.fields);
      if (!full && !partial) continue;
      const { cell } = picked;
      // (a bare number takes its row's Unit cell, else the unit in its row label's or column header's brackets)
      const unitText = cell.unit?.text.trim() ?? rowUnit ?? gridLabel(cell.column.text).unit;
      const withUnit = unitText !== undefined && BARE_NUMBER.test(cell.value.text.trim());
      const valueText = withUnit ? `${cell.value.text.trim()} ${unitText}` : cell.value.text;
      const asRead = partial ? nameWords(field.path[field.path.length - 1]!).join(' ') : picked.label;
      for (const c of layoutReadings(field, kind, `${asRead}: ${valueText}`, target, input.fields)) {
        found.push({
          c: { ...c, label: picked.label, score: c.score * (partial ? PARTIAL_LABEL_WEIGHT : 1) },
          cell,
          withUnit,
        });
      }
    }
    found.sort((a, b) => b.c.score - a.c.score);
    // precision first: one label on rows of two grids ("Supply voltage" of the absolute maximum ratings and of the
    // operating conditions) says nothing, unless every such row gives the same value
    const rowsFound = new Set(found.map((f) => f.cell.row)).size;
    if (named > 1 && (rowsFound < named || found.some((f) => !agrees(f.c.value, found[0]!.c.value)))) return undefined;
    for (const { c, cell, withUnit } of found.slice(0, 4)) {
      const snippet = `${cell.row.text}\n…\n${cell.value.text}`;
      const locator = await chunkOfPair(cell.row.text, cell.value.text, snippet);
      if (!locator) continue;
      return {
        ...c,
        snippet,
        locator,
        method: 'table_cell',
        note: `read from a grid on the page: "${cell.value.text.slice(0, 40)}" in the row "${cell.row.text.slice(0, 40)}" under the column "${cell.column.text.slice(0, 30)}" on page ${cell.page}${withUnit ? `, with the unit of its ${cell.unit ? 'Unit column' : 'label'}` : ''}${c.note ? `, ${c.note}` : ''}`,
      };
    }
    return undefined;
  };
  /**
   * A per-model field's values from a grid on the page (round 12), one candidate per model (merged by
   * `mergePerModel`, each with its own evidence: the model's label and its cell): the row whose label names the
   * field, keyed by the column headers when they are models (a letter and a digit each: "HCS-120-05"); or the column
   * whose header names the field, keyed by the row labels when they are models (one row per model). Each cell is read
   * as a `Label: value` line by the same reader as the Markdown's; two models at least.
   */
  const gridDictCandidates = async (field: SchemaField, kind: FieldKind): Promise<Candidate[]> => {
    if (!input.grid || input.grid.length === 0 || field.kind !== 'dict') return [];
    const scalar: SchemaField = { ...field, kind: 'scalar' };
    // (a model's name has a letter and a digit; a quantity, "4 mm", "1 V", is a condition, not a model)
    const modelLike = (t: string) =>
      /\p{L}/u.test(t) &&
      /\d/.test(t) &&
      t.length <= 24 &&
      t.split(/\s+/).length <= 3 &&
      !/^[-+±~]?\d[\d.,]*\s*[\p{L}°%µΩ/³²]{1,5}$/u.test(t.trim());
    const names = (label: string) => labelScore(field, gridLabel(label).label, true) >= LAYOUT_LABEL_MATCH - 1e-9;
    const byRow = new Map<Span, GridCell[]>();
    const byColumn = new Map<Span, GridCell[]>();
    for (const cell of input.grid) {
      byRow.set(cell.row, [...(byRow.get(cell.row) ?? []), cell]);
      byColumn.set(cell.column, [...(byColumn.get(cell.column) ?? []), cell]);
    }
    const sets: { label: string; entries: { model: Span; cell: GridCell }[] }[] = [];
    for (const [row, cells] of byRow)
      if (names(row.text) && cells.length >= 2 && cells.every((c) => modelLike(c.column.text)))
        sets.push({ label: row.text, entries: cells.map((c) => ({ model: c.column, cell: c })) });
    for (const [column, cells] of byColumn)
      if (names(column.text) && cells.length >= 2 && cells.every((c) => modelLike(c.row.text)))
        sets.push({ label: column.text, entries: cells.map((c) => ({ model: c.row, cell: c })) });
    // precision first: one grid, one reading (a label naming the field in two grids says nothing)
    if (sets.length !== 1) return [];
    const { label: printed, entries } = sets[0]!;
    const { label, unit: labelUnit } = gridLabel(printed);
    const out: Candidate[] = [];
    for (const { model, cell } of entries) {
      const unitText = cell.unit?.text.trim() ?? labelUnit;
      const valueText =
        unitText && BARE_NUMBER.test(cell.value.text.trim())
          ? `${cell.value.text.trim()} ${unitText}`
          : cell.value.text;
      const read = candidatesIn(
        scalar,
        kind,
        [],
        'layout',
        `${label}: ${valueText}`,
        0,
        undefined,
        [],
        undefined,
        new Map(),
        input.fields,
      )
        .filter((c) => c.method === 'key_value' && typeof c.value === 'string')
        .filter((c) => !labelAsValue(field, kind, c.value as string, input.fields))[0];
      if (!read) continue;
      // (the evidence names the field by the row or column label that does, when one chunk holds the three: the
      // evidence check then finds the field's label in it; else the model and its cell, as before; round 13)
      const named = `${printed}\n…\n${model.text}\n…\n${cell.value.text}`;
      const bare = `${model.text}\n…\n${cell.value.text}`;
      const withLabel = await chunkOfPair(model.text, cell.value.text, named);
      const locator = withLabel ?? (await chunkOfPair(model.text, cell.value.text, bare));
      const snippet = withLabel ? named : bare;
      if (!locator) continue;
      out.push({
        ...read,
        value: { [model.text]: read.value },
        label,
        snippet,
        locator,
        method: 'table_cell',
        note: `read from a grid on the page: "${cell.value.text.slice(0, 40)}" for the model "${model.text.slice(0, 30)}" under "${label.slice(0, 40)}" on page ${cell.page}`,
      });
    }
    return out.length >= 2 ? out : [];
  };
  /** The layout's pair whose label is this text (colon, case, spacing and quotes aside), if any. */
  const layoutLabels = new Map<string, LayoutPair>();
  const squashed = (t: string) =>
    t
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[:：.]+\s*$/, '')
      .replace(/[\s"]+/g, '');
  for (const pair of input.layout ?? []) {
    const key = squashed(pair.label.text);
    if (key && !layoutLabels.has(key)) layoutLabels.set(key, pair);
  }
  // (printed as a label: in capitals or ending in a colon, no digit; a name over its address is paired as a label
  // with the address, so a name is not refused for that alone — the first version did, and lost 5 right values)
  const printedAsLabel = (t: string) =>
    !/\d/.test(t) && (/[:：]$/.test(t) || (/\p{L}/u.test(t) && t === t.toUpperCase() && /\p{Lu}{2}/u.test(t)));
  const layoutLabelOf = (value: unknown): LayoutPair | undefined => {
    if (typeof value !== 'string' || !value.trim()) return undefined;
    const pair = layoutLabels.get(squashed(value));
    return pair && printedAsLabel(pair.label.text.trim()) ? pair : undefined;
  };
  const gridHeaders = new Map<string, GridCell>();
  for (const cell of input.grid ?? []) {
    const key = squashed(cell.column.text);
    if (key && !gridHeaders.has(key)) gridHeaders.set(key, cell);
  }
  const gridHeaderOf = (value: unknown): GridCell | undefined =>
    typeof value === 'string' && value.trim() ? gridHeaders.get(squashed(value)) : undefined;
  /** Two readings agree when one's text holds the other's (a value with or without its condition, its address). */
  const agrees = (a: unknown, b: unknown): boolean => {
    const flat = (v: unknown) =>
      (typeof v === 'string' ? v : JSON.stringify(v))
        .normalize('NFKC')
        .toLowerCase()
        .replace(/[\s"]+/g, '');
    const [x, y] = [flat(a), flat(b)];
    return x.length > 0 && y.length > 0 && (x.includes(y) || y.includes(x));
  };
  let done = 0;
  /** One field's search and rules: what it finds is written to `data`, `evidence` and `warnings`. */
  const readField = async (field: SchemaField): Promise<void> => {
    const groups = wordGroups(field);
    const kind = fieldKind(field);
    const rejected: Rejected[] = [];
    let best: Candidate | undefined;
    /** The value is the issuer or the date printed without a label at the top of the document. */
    let fromTop = false;
    /** What the page layout paired with the field's label when it differs from the Markdown's value (said). */
    let layoutDisagrees: string | undefined;
    /** A per-model field's dicts from every matching table (a catalogue prints its models in several). */
    const perModel: Candidate[] = [];
    const rowsSeen = new Map<string, Set<string>>();
    /** Every candidate that could have been taken, with the rank of its search hit (the calibration's competitors). */
    const considered: { candidate: Candidate; rank: number }[] = [];
    const consider = (candidate: Candidate, rank: number) => {
      considered.push({ candidate, rank });
      if (!best || weighed(candidate) > weighed(best)) best = candidate;
    };
    /** The value chosen so far is refused, and why is said (the field stays open for the readings after). */
    const refuseBest = (b: Candidate, why: string, score = b.score): void => {
      rejected.push({ seen: String(b.value).slice(0, 60), label: b.label ?? '', why, score });
      best = undefined;
    };
    // a label that prints the field's own words beats one matched by synonyms only ("Amount due" over "Total
    // charges" for amount_due; round 7)
    const weighed = (c: Candidate) => c.score * (c.label && hasOwnWords(field, c.label) ? 1.1 : 1);
    // a label returned as a value ("Operate time" for a contact material, "Start Date" for an order number): refused
    // and said (label-values.ts, round 7)
    const labelledByName = (c: Candidate) => {
      if (labelledByOrganisation(field, c)) return true;
      for (const v of [c.value].flat())
        if (typeof v === 'string') {
          const why = labelAsValue(field, kind, v, input.fields);
          if (why) {
            rejected.push({ seen: v, label: c.label ?? c.snippet.slice(0, 60), why, score: c.score });
            return true;
          }
        }
      return false;
    };
    if (groups.length > 0) {
      for (const [q, query] of queriesFor(field).entries()) {
        const hits = await docSearch(
          input.tools,
          { index_id: input.indexId, query, top_k: 5, scope: 'all' },
          input.signal,
        );
        const reads = hits.slice(0, input.readsPerQuery ?? 5);
        // a label word that prose repeats ("the Software" in every clause) pushes the table stating the value
        // ("| Software | RouteWise Planner 5 |") below the prose hits: the best two tables for the first query
        // are read too, after them
        if (q === 0)
          for (const hit of await docSearch(
            input.tools,
            { index_id: input.indexId, query, top_k: 2, scope: 'tables' },
            input.signal,
          ))
            if (!reads.some((r) => r.locator === hit.locator)) reads.push(hit);
        for (const [rank, hit] of reads.entries()) {
          const own = await read(hit.locator);
          if (own === undefined) continue;
          const models = await tableModels(hit.locator, own);
          const content = await withLimitsHeader(hit.locator, own, read);
          // (the evidence is this chunk's row alone: the header borrowed from the part before is not in the chunk)
          const borrowed = content === own ? undefined : `${content.split('\n')[0]!}\n`;
          const ownSnippet = <C extends { snippet: string }>(c: C): C =>
            borrowed && c.snippet.startsWith(borrowed) ? { ...c, snippet: c.snippet.slice(borrowed.length) } : c;
          const columns = models.length >= 2 ? modelColumns(tableRowsOf(content), models.length) : undefined;
          // a chunk of a section ("h3-c1") does not hold its heading; the section ("h3") does: a heading that names
          // the field is the label of the section's value ("2. Commencement" / "… begins on 2025-04-01")
          const section = /^(h\d+)-c\d+$/.exec(hit.locator)?.[1];
          const sectionContent = section ? await read(section) : undefined;
          for (const candidate of candidatesIn(
            field,
            kind,
            rejected,
            hit.locator,
            content,
            rank,
            target,
            models,
            columns,
            rowsSeen,
            input.fields,
          ).map(ownSnippet)) {
            if (labelledByName(candidate)) continue;
            consider(candidate, rank);
            if (field.kind === 'dict' && typeof candidate.value === 'object') perModel.push(candidate);
          }
          // and a sentence the chunker cut over two chunks (one per PDF line) is whole in its section
          // (and a list or a contract's parties defined over several paragraphs of one section: round 6)
          if (section && sectionContent !== undefined)
            for (const candidate of [
              ...(field.kind === 'list' || isPartyField(field)
                ? candidatesIn(
                    field,
                    kind,
                    rejected,
                    section,
                    sectionContent,
                    rank,
                    target,
                    [],
                    undefined,
                    new Map(),
                    input.fields,
                  )
                : []),
              ...sectionCandidates(field, kind, sectionContent, section, rank),
              ...proseCandidates(field, kind, sectionContent, section, rank),
              ...organisationCandidates(field, sectionContent, section, rank),
            ])
              if (!labelledByName(candidate)) consider(candidate, rank);
        }
      }
    }
    // precision first: one label on several rows ("Conventional free air thermal current" of the main and of the
    // auxiliary contacts), no target model's column to choose by: which row is the field's is not known
    const conflicting = best && field.kind === 'scalar' ? sameLabelValues(best, rowsSeen) : 0;
    if (best && conflicting > 1)
      refuseBest(
        best,
        `${conflicting} table rows with that label give different values, so which one is meant is not known`,
        1,
      );
    // the page layout's pairing (round 10) fills a field the Markdown's rules gave no value (none found, or every
    // one refused). Where both give one, the Markdown's stands and a disagreement is said in the warnings: voiding
    // it (tried first) turned 2 right values null for every wrong one it removed on the tuning sets
    // a Markdown value the page layout pairs as a label with a value of its own ("MEMBERSHIP NO." beside its number,
    // read from a framed box's Markdown row under "INSURER") is a label, not a value (round 13): refused and said
    const asLabel = best && field.kind === 'scalar' ? layoutLabelOf(best.value) : undefined;
    if (best && asLabel)
      refuseBest(
        best,
        `the page layout pairs it as a label with "${asLabel.value.text.slice(0, 40)}" on page ${asLabel.page}`,
      );
    // (and a per-model field's one text that a grid on the page prints as a column's header: "Stat. load C0" over its
    // column of loads; the grid's own row or column for the field may then fill it. A scalar field is not refused
    // so: a form's "Invoice no. INV-20417" line reads as a header row to the grid, and 7 right values were lost)
    const asHeader = best && field.kind === 'dict' ? gridHeaderOf(best.value) : undefined;
    if (best && asHeader)
      refuseBest(best, `it heads a column of a grid on page ${asHeader.page} (a label, not a value)`);
    /** Which reading gave the value (bench diagnostics: `FeatureRecord.paths`). */
    let source: string = best?.method ?? '';
    const fromLayout = !best || field.kind === 'scalar' ? await layoutCandidate(field, kind) : undefined;
    if (fromLayout && !best && conflicting <= 1) {
      best = fromLayout;
      source = 'layout_pair';
      considered.push({ candidate: fromLayout, rank: 0 });
    } else if (fromLayout && best && field.kind === 'scalar' && layoutDropsRemark(best.value, fromLayout.value)) {
      // both read the same value; the Markdown's cell kept the remark in brackets printed after it, which the layout
      // reads apart (round 13): the layout's reading is taken, with its evidence
      best = fromLayout;
      source = 'layout_pair';
      considered.push({ candidate: fromLayout, rank: 0 });
    } else if (fromLayout && best && !agrees(best.value, fromLayout.value))
      layoutDisagrees = `the page layout pairs the label "${fromLayout.label ?? ''}" with ${JSON.stringify(fromLayout.value).slice(0, 60)} (page ${/on page (\d+)/.exec(fromLayout.note ?? '')?.[1] ?? '?'}); the Markdown's reading was kept`;
    // a per-model field's row or column of a grid (round 12): only for a field still without a value
    if (!best && field.kind === 'dict') {
      const fromGrid = await gridDictCandidates(field, kind);
      if (fromGrid.length > 0) {
        best = fromGrid[0]!;
        source = 'grid_cell';
        perModel.push(...fromGrid);
        considered.push({ candidate: best, rank: 0 });
      }
    }
    // a grid's cell by its row label × its column header (round 12): only for a field still without a value
    // (read for the bench's diagnostics when the field has a value already)
    const gridReading =
      conflicting <= 1 && (!best || (recordingFeatures() && field.kind === 'scalar'))
        ? await gridCandidate(field, kind)
        : undefined;
    if (!best && conflicting <= 1) {
      const fromGrid = gridReading;
      if (fromGrid) {
        best = fromGrid;
        source = 'grid_cell';
        considered.push({ candidate: fromGrid, rank: 0 });
      }
    }
    // an invoice's or receipt's issuer printed without a label at the top (its name, its address), and a till
    // receipt's bare date line: only when no label gave the field a value or was refused, and only for a field
    // that asks for the issuer or the document's own date (local/issuer-block.ts)
    if (!best && rejected.length === 0) {
      const role = issuerRole(field, input.fields);
      const wantsDate =
        kind.kind === 'date' && isDocumentDate(field, input.fields, (f) => fieldKind(f).kind === 'date');
      if (role || wantsDate) {
        const top = await documentTop();
        const found = top && agreed(top.orders.map((o) => (role ? issuerFromTop(o, role) : dateLineFromTop(o))));
        if (top && found) {
          best = { value: found.value, snippet: found.snippet, locator: top.locator, score: 0.5, method: 'pattern' };
          fromTop = true;
          source = 'top';
        }
      }
    }
    const merged = best ? mergePerModel(best, perModel) : undefined;
    if (best && getAt(data, field.path) === undefined) {
      let value = merged?.value ?? best.value;
      const warningsBefore = warnings.length;
      let wasCleaned = false;
      // a value is the number, not the limit or approximation words printed with it ("max. 30 V" gives "30 V"),
      // unless the field's description asks for them; the warning says what was dropped (value-cleanup.ts)
      const cleaned = (v: unknown): unknown => {
        if (typeof v !== 'string') return v;
        const n = withoutNoteReferences(v);
        const q = stripQualifiers(field, kind, n.value);
        const d = codeBeforeDimensions(kind, q.value);
        const r = measureWithoutRemark(field, d.value);
        const t = withoutTolerance(field, r.value);
        // (a value's extent from its field's type: a name without its address, an amount without its terms, a
        // measured value without its condition; round 8, value-extent.ts)
        const x = valueExtent(field, kind, t.value);
        const c = {
          value: x.value,
          dropped: [...n.dropped, ...q.dropped, ...d.dropped, ...r.dropped, ...t.dropped, ...x.dropped],
        };
        const why = [
          ...(n.dropped.length > 0 ? ['a note reference points elsewhere on the page'] : []),
          ...(q.dropped.length > 0 ? ['a value is the number; the label says which limit'] : []),
          ...(d.dropped.length > 0 ? ['a code is the value, not the dimensions after it'] : []),
          ...(r.dropped.length > 0 ? ['a measured value is its number and unit, not the remark after it'] : []),
          ...(t.dropped.length > 0 ? ['the value is the nominal one; its tolerance was printed with it'] : []),
          ...x.why,
        ];
        if (c.dropped.length > 0) wasCleaned = true;
        if (c.dropped.length > 0)
          warnings.push(
            `Field '${fieldName(field.path)}' was read as ${JSON.stringify(c.value)} from ${JSON.stringify(v)}: ${c.dropped.map((d) => JSON.stringify(d)).join(', ')} printed with it ${c.dropped.length > 1 ? 'were' : 'was'} dropped (${why.join('; ')})`,
          );
        return c.value;
      };
      value = isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleaned(v)]))
        : Array.isArray(value)
          ? value.map(cleaned)
          : cleaned(value);
      // calibrated confidence (calibration.ts): the probability that the value is right, from what is known about how
      // it was read; below the abstention threshold the field is null and the warning says what was seen
      const features = valueFeatures(field, kind, best, value, considered, weighed, {
        fromTop,
        cleaned: wasCleaned,
      });
      const confidence = Math.round(probability(features) * 100) / 100;
      const abstained = confidence < ABSTAIN_BELOW;
      recordFeatures({
        path: field.path,
        value,
        features,
        confidence,
        abstained,
        snippet: best.snippet,
        chosen: true,
        paths: { source, layout: fromLayout?.value ?? null, grid: gridReading?.value ?? null },
      });
      // (for the bench's dump only: the values the other candidates would have given, as if chosen)
      if (recordingFeatures()) {
        const seen = new Set([JSON.stringify(best.value)]);
        const quiet = (v: unknown): unknown => {
          if (typeof v !== 'string') return v;
          const n = withoutNoteReferences(v);
          const q = stripQualifiers(field, kind, n.value);
          return withoutTolerance(field, measureWithoutRemark(field, codeBeforeDimensions(kind, q.value).value).value)
            .value;
        };
        for (const { candidate } of [...considered].sort((a, b) => weighed(b.candidate) - weighed(a.candidate))) {
          const key = JSON.stringify(candidate.value);
          if (seen.has(key)) continue;
          seen.add(key);
          const v = candidate.value;
          const other = isObject(v)
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, quiet(x)]))
            : Array.isArray(v)
              ? v.map(quiet)
              : quiet(v);
          const f = valueFeatures(field, kind, candidate, other, considered, weighed, {
            fromTop: false,
            cleaned: JSON.stringify(other) !== key,
          });
          recordFeatures({
            path: field.path,
            value: other,
            features: f,
            confidence: probability(f),
            abstained: false,
            snippet: candidate.snippet,
            chosen: false,
          });
        }
      }
      if (abstained) {
        warnings.splice(warningsBefore);
        setAt(data, field.path, null);
        setAt(evidence, field.path, {
          locator: null,
          snippet: null,
          warning: `saw ${JSON.stringify(value).slice(0, 80)} under "${labelOf(best).slice(0, 60)}" (${best.locator}), but its confidence ${confidence.toFixed(2)} is below ${ABSTAIN_BELOW} (calibrated on the bench's sets: ${abstainWhy(features)})`,
        });
        return;
      }
      setAt(data, field.path, value);
      setAt(
        evidence,
        field.path,
        merged
          ? Object.fromEntries(
              Object.entries(merged.evidence).map(([m, l]) => [m, isObject(l) ? { ...l, confidence } : l]),
            )
          : { ...leafOf(best), confidence },
      );
      if (best.note) warnings.push(`Field '${fieldName(field.path)}' was ${best.note}`);
      if (layoutDisagrees) warnings.push(`Field '${fieldName(field.path)}': ${layoutDisagrees}`);
      // honest about a partial per-model value: the table's models left without one are named
      if (isObject(value)) {
        const used = merged
          ? perModel.filter((c) =>
              Object.values(merged.evidence).some((l) => isObject(l) && l['snippet'] === c.snippet),
            )
          : [best];
        const missing = [...new Set(used.flatMap((c) => c.missingModels ?? []))].filter((m) => !(m in value));
        if (missing.length > 0)
          warnings.push(
            `Field '${fieldName(field.path)}' has no value for ${missing.length} of the table's models (${missing.slice(0, 12).join(', ')}): their cells are empty or not one value`,
          );
      }
    } else {
      setAt(data, field.path, null);
      // precision first: say what was seen and why it was not taken
      const seen = rejected.sort((a, b) => b.score - a.score)[0];
      if (seen)
        setAt(evidence, field.path, {
          locator: null,
          snippet: null,
          warning: `saw ${JSON.stringify(seen.seen.slice(0, 60))} under "${seen.label.slice(0, 60)}", but ${seen.why}`,
        });
    }
    if (!best && groups.length === 0)
      warnings.push(`Field '${fieldName(field.path)}' has no searchable words in its name`);
  };
  for (const field of input.fields) {
    const warningsBefore = warnings.length;
    try {
      await readField(field);
    } catch (error) {
      // per-field isolation: a rule that throws on one field's text (a bug, a recursion) costs that field, not the
      // task. A cancelled task and a doc tool's error (AppError: the tools are unreachable, the task is retried)
      // still fail it. The error goes to the log only; the client learns that the field could not be read.
      if (input.signal?.aborted || error instanceof AppError) throw error;
      input.log?.error({ err: error, field: fieldName(field.path) }, 'a field of the offline extractor failed');
      warnings.splice(warningsBefore);
      setAt(data, field.path, null);
      setAt(evidence, field.path, { locator: null, snippet: null, warning: FIELD_FAILED });
      warnings.push(`Field '${fieldName(field.path)}' ${FIELD_FAILED}`);
    }
    done += 1;
    input.onField?.(done);
  }
  return { data, evidence, warnings };
};
