// SPDX-License-Identifier: AGPL-3.0-or-later
import { tokens } from '../evidence/text-match.js';
import type { SchemaField } from '../schema-fields.js';

/**
 * Words a document uses for a field name's words. Small and domain-general on purpose (datasheets, contracts,
 * receipts); the field's own words always count. Shared by the offline extractor (which label is this field's)
 * and the evidence check (does the evidence name the field).
 */
export const SYNONYMS: Record<string, string[]> = {
  max: ['maximum', 'max.', 'max'],
  maximum: ['max', 'max.'],
  min: ['minimum', 'min.'],
  minimum: ['min', 'min.'],
  peak: ['instantaneous', 'momentary', 'peak', 'max', 'maximum'],
  weight: ['mass', 'weight'],
  mass: ['weight'],
  power: ['output', 'power', 'capacity'],
  speed: ['speed', 'r/min', 'rpm', 'rotation', 'velocity'],
  inertia: ['inertia', 'moment'],
  axial: ['thrust', 'axial'],
  radial: ['radial'],
  load: ['load'],
  force: ['load', 'force'],
  ip: ['enclosure', 'enclosed', 'ip', 'protection', 'ingress'],
  voltage: ['voltage', 'v'],
  current: ['current', 'a'],
  constant: ['constant'],
  encoder: ['encoder'],
  resistance: ['resistance'],
  inductance: ['inductance'],
  mppts: ['mpp', 'mppt', 'trackers'],
  number: ['no.', 'number'],
  efficiency: ['efficiency'],
  temperature: ['temperature', 'temp.', 'ambient'],
  vendor: ['vendor', 'seller', 'merchant', 'store', 'supplier', 'company', 'sold', 'issuer', 'from'],
  merchant: ['merchant', 'vendor', 'seller', 'store'],
  total: ['total', 'amount', 'balance', 'due'],
  address: ['address', 'addr'],
  // an agreement states its date as "made on" / "entered into on"
  date: ['date', 'dated', 'made', 'entered'],
  effective: ['effective', 'commencement', 'dated', 'made', 'entered'],
  jurisdiction: ['jurisdiction', 'governing', 'governed', 'law', 'laws', 'courts'],
  governing: ['governing', 'governed'],
  law: ['law', 'laws'],
  term: ['term', 'duration', 'period'],
  parties: ['parties', 'between', 'party'],
  invoice: ['invoice', 'bill'],
};

const STOP = new Set([
  'of',
  'the',
  'a',
  'an',
  'and',
  'per',
  'model',
  'models',
  'support',
  'rating',
  'value',
  'type',
  'in',
  'for',
  'to',
  'is',
  'at',
  'by',
  'or',
]);

export const nameWords = (name: string): string[] =>
  name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);

/** A field's words and their synonyms, as groups: a label matches a group when it has any word of it. */
export const wordGroups = (field: SchemaField): string[][] =>
  nameWords(field.path[field.path.length - 1]!)
    .filter((w) => !STOP.has(w) && !/^\d+$/.test(w))
    .map((w) => [w, ...(SYNONYMS[w] ?? [])]);

/** The content words of a field's description (its skeleton value, when that is a short text). */
export const hintWords = (field: SchemaField): string[] =>
  typeof field.hint === 'string' && field.hint.length > 0 && field.hint.length <= 200
    ? [...new Set(tokens(field.hint).filter((t) => /\p{L}{3,}/u.test(t) && !STOP.has(t)))]
    : [];

/**
 * How well a label names a field (0..1): the share of the field's word groups present in it, less for a label of
 * many other words ("rated power rate"); every word of a short name must be there ("voltage constant" is not
 * "applied voltage"). A description in the schema counts as an alternative name.
 */
export const labelScore = (field: SchemaField, label: string): number => {
  // "IP65" also reads as "ip": a code's letters name what it is
  const labelWords = tokens(label)
    .flatMap((t) => {
      const code = /^(\p{L}+)\d+$/u.exec(t);
      return code ? [t, code[1]!] : [t];
    })
    .filter((t) => /\p{L}/u.test(t));
  const have = new Set(labelWords);
  const score = (groups: string[][]): number => {
    if (groups.length === 0) return 0;
    const hits = groups.filter((g) => g.some((w) => have.has(w))).length;
    if (hits < Math.min(groups.length, 3)) return 0;
    return (hits / groups.length) * (0.7 + 0.3 * Math.min(1, groups.length / Math.max(1, labelWords.length)));
  };
  const byName = score(wordGroups(field));
  const hint = hintWords(field);
  const byHint = hint.length >= 2 ? score(hint.slice(0, 4).map((w) => [w, ...(SYNONYMS[w] ?? [])])) * 0.9 : 0;
  return Math.max(byName, byHint);
};

/** The threshold at which a label names a field. */
export const LABEL_MATCH = 0.5;

export const labelMatches = (field: SchemaField, text: string): boolean => labelScore(field, text) >= LABEL_MATCH;
