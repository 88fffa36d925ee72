// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Calibrated confidence and abstention for the offline extractor (issue 26, round 8). Each value the extractor
 * would return is described by what the extractor already knows about it (`ValueFeatures`): how it was matched, how
 * its label matched the field, whether its type and unit fit, where it stood from its label, what competed with it,
 * and how long it is for its kind. A small logistic model (`WEIGHTS`, one weight a feature, fitted leave-one-set-out
 * by `bench/extraction/calibrate.ts` on the bench's per-value right/wrong, strict) turns them into the probability
 * that the value is right; that probability is the value's `confidence`, and below `ABSTAIN_BELOW` the field is
 * null with a warning naming what was seen and its confidence (docs/benchmarks/extraction.md, "Round 8").
 */
import type { FieldKind } from '../fields/field-kinds.js';
import { hasOwnWords, LABEL_MATCH, labelScore } from '../fields/field-words.js';
import type { SchemaField } from '../schema-fields.js';

/** How the label matched the field. */
export type LabelBy =
  /** every word the field's name requires, printed as such ("Amount due" for amount_due) */
  | 'own'
  /** the name's words through synonyms, abbreviations or inflections ("Total charges", "Operating temp.") */
  | 'synonym'
  /** only the field's description's words */
  | 'description'
  /** no label (a pattern in prose, the issuer block at the top, an identifier named by its thing) */
  | 'none';

/** Where the value stood from its label. */
export type Layout = 'cell' | 'same_line' | 'next_line' | 'prose' | 'top';

export interface ValueFeatures {
  method: 'table_cell' | 'key_value' | 'pattern';
  labelBy: LabelBy;
  /** labelScore of the label (0..1). */
  labelScore: number;
  kind: FieldKind['kind'];
  /** A quantity whose value states one of its units, a typed value (date, amount, count, duration, IP code), or words. */
  fit: 'unit' | 'typed' | 'words';
  layout: Layout;
  /** 0-based rank of the search hit the value came from. */
  rank: number;
  /** Other values the field's candidates gave. */
  competitors: number;
  /** The best candidate's weighed score over the best other value's (its own score when there is none). */
  margin: number;
  /** Candidates giving this same value (1 = only this one). */
  support: number;
  /** Words of the value beyond what its kind needs (a quantity "10A at 25°C": 2; a name "Acme Ltd, 5 Row, York": 3). */
  extraWords: number;
  /** A name-like value (a text field, not an identifier) holding a digit (an address kept with a name). */
  digitInWords: boolean;
  /** Something printed with the value was dropped (a limit word, a tolerance, a remark, a note reference). */
  cleaned: boolean;
  /** A per-model dict. */
  perModel: boolean;
  /** The candidate's raw score (what `confidence` was before round 8). */
  score: number;
}

/** The label a candidate was read under: its own, else the snippet's text before the value. */
export const labelOf = (c: { label?: string | undefined; snippet: string; value: unknown }): string => {
  if (c.label) return c.label;
  const first = String([c.value].flat()[0] ?? '');
  const at = first ? c.snippet.indexOf(first) : -1;
  return (at > 0 ? c.snippet.slice(0, at) : c.snippet.split('\n')[0]!).replace(/[:：|]+\s*$/, '').trim();
};

export const labelBy = (field: SchemaField, label: string): { by: LabelBy; score: number } => {
  const score = label ? labelScore(field, label, true) : 0;
  if (score < LABEL_MATCH) return { by: 'none', score };
  const byName = labelScore({ ...field, hint: '' }, label, true);
  if (byName < LABEL_MATCH) return { by: 'description', score };
  return { by: hasOwnWords(field, label) ? 'own' : 'synonym', score };
};

const WORDS_NEEDED: Record<FieldKind['kind'], number> = {
  quantity: 2,
  money: 2,
  count: 1,
  ip_code: 1,
  duration: 3,
  date: 4,
  text: 5,
};

const IDENTIFIER = /(?:^|_)(?:number|no|id|code|ref|reference|serial|address|postcode|zip|phone|version|model)$/;

/** What a value's text says: words beyond its kind's, a digit in a name. */
export const valueShape = (
  field: SchemaField,
  kind: FieldKind,
  value: unknown,
): { extraWords: number; digitInWords: boolean } => {
  const texts = [value]
    .flat()
    .flatMap((v) => (typeof v === 'object' && v !== null ? Object.values(v) : [v]))
    .map((v) => String(v ?? ''));
  const words = Math.max(0, ...texts.map((t) => t.split(/\s+/).filter(Boolean).length));
  const name = field.path[field.path.length - 1]!.toLowerCase();
  // (an address is many words by nature: a street, a town, a postcode, a country)
  const needed = kind.kind === 'text' && /address$/.test(name) ? 12 : WORDS_NEEDED[kind.kind];
  return {
    extraWords: Math.max(0, words - needed),
    digitInWords:
      kind.kind === 'text' && !IDENTIFIER.test(name) && texts.some((t) => /\p{L}{3}/u.test(t) && /\d/.test(t)),
  };
};

export const valueFit = (kind: FieldKind, value: unknown): ValueFeatures['fit'] => {
  if (kind.kind === 'text') return 'words';
  if (kind.kind !== 'quantity') return 'typed';
  const texts = [value].flat().flatMap((v) => (typeof v === 'object' && v !== null ? Object.values(v) : [v]));
  return texts.every((t) => kind.units.test(String(t))) ? 'unit' : 'typed';
};

/** The names of the model's inputs, in `WEIGHTS`' order after the intercept. */
export const FEATURE_NAMES = [
  'table_cell',
  'pattern',
  'label_own',
  'label_description',
  'label_none',
  'label_score',
  'fit_unit',
  'fit_words',
  'next_line',
  'rank',
  'competitors',
  'margin',
  'support',
  'extra_words',
  'digit_in_words',
  'cleaned',
  'per_model',
] as const;

/** The model's inputs (each 0..1 or a small count, so the weights read alike). */
export const featureVector = (f: ValueFeatures): number[] => [
  f.method === 'table_cell' ? 1 : 0,
  f.method === 'pattern' ? 1 : 0,
  f.labelBy === 'own' ? 1 : 0,
  f.labelBy === 'description' ? 1 : 0,
  f.labelBy === 'none' ? 1 : 0,
  f.labelScore,
  f.fit === 'unit' ? 1 : 0,
  f.fit === 'words' ? 1 : 0,
  f.layout === 'next_line' ? 1 : 0,
  Math.min(f.rank, 5) / 5,
  Math.log1p(f.competitors),
  Math.max(-1, Math.min(1, f.margin)),
  Math.log1p(f.support - 1),
  Math.log1p(f.extraWords),
  f.digitInWords ? 1 : 0,
  f.cleaned ? 1 : 0,
  f.perModel ? 1 : 0,
];

/**
 * The fitted model: intercept, then one weight per `FEATURE_NAMES` entry. Fitted on every set of the bench (variant
 * 14 excluded: never read; variants 11–13 are tuning sets now) by `bench/extraction/calibrate.ts` (L2 penalty 1,
 * trained with each right value also extended to the end of its line as a wrong one: `extend`), refitted after
 * round 10's layout pairing (page-layout.ts) on every set but the blind variant 15 (variants 9–14 are tuning sets):
 * 595 values decided, 21 of them wrong (strict). Its leave-one-set-out figures are in docs/benchmarks/extraction.md,
 * "Round 10" (earlier fits: "Round 9", "Round 8 — calibration", "Refit after the merge").
 * A weight is not a feature's importance alone (the inputs overlap: `label_own` and `label_score`, `table_cell`
 * and `per_model`).
 */
export const WEIGHTS: readonly number[] = [
  3.734, -0.661, -0.535, -0.62, -0.366, -0.358, 0.749, 1.648, -0.005, 0.124, -0.269, -0.167, 0.253, -0.182, -4.014,
  -1.234, -1.363, 0.197,
];

/**
 * Below this calibrated probability the field is null (with a warning saying what was seen). Chosen from the
 * leave-one-set-out figures, the fewest wrong values kept plus right values lost over the pooled left-out values
 * (a tie to the higher threshold): after round 10's refit 0.25 and 0.55 tie at 17 (0.25: 17 wrong kept, no right
 * lost; 0.55: 14 wrong kept, 3 right lost; docs/benchmarks/extraction.md, "Round 10").
 */
export const ABSTAIN_BELOW = 0.55;

export const probability = (f: ValueFeatures, weights: readonly number[] = WEIGHTS): number => {
  const x = featureVector(f);
  const z = x.reduce((sum, v, k) => sum + v * (weights[k + 1] ?? 0), weights[0] ?? 0);
  return 1 / (1 + Math.exp(-z));
};

/** A candidate as the extractor weighs it (local-extractor.ts's `Candidate`, the parts used here). */
interface Weighed {
  value: unknown;
  label?: string | undefined;
  snippet: string;
  method: 'table_cell' | 'key_value' | 'pattern' | 'agent';
  score: number;
}

/** The features of the value the extractor chose (`best`, returned as `value` after its clean-up). */
export const valueFeatures = <C extends Weighed>(
  field: SchemaField,
  kind: FieldKind,
  best: C,
  value: unknown,
  considered: { candidate: C; rank: number }[],
  weighed: (c: C) => number,
  how: { fromTop: boolean; cleaned: boolean },
): ValueFeatures => {
  const key = (v: unknown) => JSON.stringify(v);
  const own = key(best.value);
  const others = considered.filter((c) => key(c.candidate.value) !== own);
  const label = how.fromTop ? '' : labelOf(best);
  const matched = labelBy(field, label);
  const method = best.method === 'agent' ? 'pattern' : best.method;
  const layout: Layout = how.fromTop
    ? 'top'
    : method === 'table_cell'
      ? 'cell'
      : method === 'pattern'
        ? 'prose'
        : best.snippet.includes('\n')
          ? 'next_line'
          : 'same_line';
  const bestOther = Math.max(0, ...others.map((c) => weighed(c.candidate)));
  return {
    method,
    labelBy: matched.by,
    labelScore: Math.round(matched.score * 1000) / 1000,
    kind: kind.kind,
    fit: valueFit(kind, value),
    layout,
    rank: considered.find((c) => c.candidate === best)?.rank ?? 0,
    competitors: new Set(others.map((c) => key(c.candidate.value))).size,
    margin: Math.round((weighed(best) - bestOther) * 1000) / 1000,
    support: Math.max(1, considered.filter((c) => key(c.candidate.value) === own).length),
    ...valueShape(field, kind, value),
    cleaned: how.cleaned,
    perModel: typeof value === 'object' && value !== null && !Array.isArray(value),
    score: Math.round(best.score * 1000) / 1000,
  };
};

/** What each input says when it lowers the confidence, for the abstention's warning. */
const LOWERS: Record<(typeof FEATURE_NAMES)[number], string> = {
  table_cell: 'read from a table cell',
  pattern: 'read by a pattern, not under a label',
  label_own: "its label prints the field's own words",
  label_description: "its label matched only the field's description",
  label_none: 'no label named the field',
  label_score: 'how well its label names the field',
  fit_unit: 'it states a unit of the field',
  fit_words: 'a value of words',
  next_line: 'on the line after its label',
  rank: 'from a low-ranked search hit',
  competitors: 'other values competed with it',
  margin: 'its margin over the next value',
  support: 'how many readings agree on it',
  extra_words: 'more words than its kind needs',
  digit_in_words: 'a name holding a number (an address kept with it?)',
  cleaned: 'words printed with it were dropped',
  per_model: 'a per-model value',
};

/**
 * The inputs a person can read as a reason for doubt (a fitted weight of another input may be negative only because
 * the inputs overlap: "its label prints the field's own words" is no reason to doubt a value).
 */
const REASONS = new Set<(typeof FEATURE_NAMES)[number]>([
  'pattern',
  'label_description',
  'label_none',
  'rank',
  'competitors',
  'extra_words',
  'digit_in_words',
  'cleaned',
]);

/** The two inputs that lower the value's confidence most, in words (of those a person can read as a reason). */
export const abstainWhy = (f: ValueFeatures, weights: readonly number[] = WEIGHTS): string => {
  const x = featureVector(f);
  const parts = FEATURE_NAMES.map((name, k) => ({ name, effect: x[k]! * (weights[k + 1] ?? 0) }))
    .filter((p) => p.effect < 0 && REASONS.has(p.name))
    .sort((a, b) => a.effect - b.effect)
    .slice(0, 2)
    .map((p) => LOWERS[p.name]);
  return parts.length > 0 ? parts.join('; ') : 'its inputs together';
};

/** One value as the bench's feature dump records it (before abstention). */
export interface FeatureRecord {
  path: string[];
  value: unknown;
  features: ValueFeatures;
  confidence: number;
  abstained: boolean;
  /** The evidence snippet it was read from. */
  snippet: string;
  /** The value the extractor chose (false: another candidate's value, as if it had been chosen; bench only). */
  chosen: boolean;
  /**
   * Which reading gave the chosen value (the Markdown's `key_value` / `table_cell` / `pattern`, the page layout's
   * `layout_pair` or `grid_cell`, the document's `top`), and what the layout's pairing and a grid's cell read for the
   * field, whether taken or not (null: no reading); bench diagnostics only.
   */
  paths?: { source: string; layout: unknown; grid: unknown };
}

let sink: ((record: FeatureRecord) => void) | undefined;

/**
 * Where every value's features go as it is decided (the bench's `BENCH_FEATURES` dump, in its own process); none by
 * default. Returns the previous sink.
 */
export const setFeatureSink = (next: ((record: FeatureRecord) => void) | undefined) => {
  const previous = sink;
  sink = next;
  return previous;
};

export const recordFeatures = (record: FeatureRecord): void => sink?.(record);

/** Is a sink listening (the other candidates' features are computed only then)? */
export const recordingFeatures = (): boolean => sink !== undefined;
