// SPDX-License-Identifier: AGPL-3.0-or-later
import { DATE_PATTERN, type FieldKind } from '../fields/field-kinds.js';
import { nameWords } from '../fields/field-words.js';
import type { SchemaField } from '../schema-fields.js';

/**
 * Issue 26, round 6: a returned value is the value, not its surroundings.
 *
 * Limit and approximation words printed with a number ("max. 30 V", "6.2 mm typ.", "min. 100", "< 5 mOhm",
 * "up to 40 m") are not part of the number: the field's label already said which limit it is (a `max_voltage`
 * matched the "Max. voltage" row; a `rated_voltage` asked for the rating, which the page states as a limit). They
 * are dropped from a value that is a number (with or without a unit), and the field's warning says what was
 * dropped, so a reader still learns the page printed a limit.
 *
 * Decided: when the field's own description asks for the qualifier ("as printed", "with its qualifier",
 * "including max./min.", "verbatim"), the value is kept whole. A field's name naming a limit (`max_supply_voltage`)
 * does not keep it: the name says the limit already.
 */
const LIMIT = String.raw`(?:max(?:imum)?|min(?:imum)?|typ(?:ical(?:ly)?)?|approx(?:imately)?|nom(?:inal)?|ca|circa|abt|about|around)`;
const LEADING = new RegExp(
  String.raw`^(?:${LIMIT}\.?:?|up\s+to|at\s+(?:least|most)|not\s+(?:more|less)\s+than|no\s+(?:more|less)\s+than|less\s+than|more\s+than|[<>≤≥≈~]|<=|>=)\s*(?=[-+±]?\s?\d|[$€£¥])`,
  'i',
);
/** (after the value, with a space before it; "min" alone is minutes there: "10 min", "r/min") */
const TRAILING_WORD = String.raw`(?:max(?:imum)?\.?|min(?:imum|\.)|typ(?:ical)?\.?|approx(?:imately)?\.?|nom(?:inal)?\.?)`;
const TRAILING = new RegExp(
  String.raw`(?:\s*\(\s*${LIMIT}\.?\s*\)|[\s,]+${TRAILING_WORD}|[\s,]+or\s+(?:less|more|lower|higher|above|below))\s*$`,
  'i',
);
/**
 * "2 A per contact", "0.5 W each": what the value is counted over is the label's business ("Current per contact"),
 * not part of the value; "5 m per second" is a unit and stays.
 */
const PER_THING =
  /\s+(?:per\s+(?!(?:s|sec|second|min|minute|h|hr|hour|day|week|month|year|annum|m|km|mm|kg|g|l|litre|liter|cycle)\b)[a-z]{2,12}|each)\.?\s*$/i;

/**
 * Round 9: "£74.00 per day" for a `daily_rate`, "EUR 142 per night" for a `nightly_rate`: an amount's period is
 * dropped when the field's own name says that period (the label said it); for any other field it stays (a
 * `deposit` printed "per day" is not a deposit). "60 V AC/DC" for a `rated_voltage`: "AC/DC" says the rating holds
 * for both currents and is dropped; a lone "AC" or "DC" says which one and stays (decided, round 9).
 */
const MONEY_PERIOD = /\s+(?:per|a|an|\/)\s*(day|night|hour|week|month|year|annum)\.?\s*$/i;
const PERIOD_WORDS: Record<string, RegExp> = {
  day: /^(?:day|days|daily|per_day)$/,
  night: /^(?:night|nights|nightly)$/,
  hour: /^(?:hour|hours|hourly)$/,
  week: /^(?:week|weeks|weekly)$/,
  month: /^(?:month|months|monthly)$/,
  year: /^(?:year|years|yearly|annual|annually|annum)$/,
  annum: /^(?:year|years|yearly|annual|annually|annum)$/,
};
const BOTH_CURRENTS = /\s+AC\s*\/\s*DC\s*$/;

/**
 * A number, with a unit of a few characters at most ("30 V", "6.2 mm", "100", "2.0 m", "5 mOhm", "$34.00"; a unit
 * with a hyphened suffix, "75 mVp-p", round 11).
 */
const NUMBER_WITH_UNIT =
  /^(?:[$€£¥]\s?|[A-Z]{3}\s)?[-+±]?\d[\d.,]*\s*(?:[A-Za-zµΩ°%²³/·⋅]{1,10}(?:-[A-Za-z]{1,2})?(?:\s?[A-Za-z]{1,3})?)?$/;

/** Does the field's description ask for the qualifier printed with the value? */
export const asksForQualifier = (field: SchemaField): boolean =>
  typeof field.hint === 'string' &&
  /\b(?:qualifiers?|as printed|verbatim|limit words?|with (?:its|the) (?:limit|qualifier)|including (?:the )?(?:max|min|typ|limit|qualifier))/i.test(
    field.hint,
  );

export interface Cleaned {
  value: string;
  /** The words dropped, as printed ("max.", "per contact"); empty when nothing was. */
  dropped: string[];
}

/**
 * A value that is a number (with or without a unit) without the limit or approximation words printed with it.
 * Anything else (text, a range, a date) comes back unchanged; so does a value whose field asks for its qualifier.
 */
export const stripQualifiers = (field: SchemaField, kind: FieldKind, value: string): Cleaned => {
  const unchanged = { value, dropped: [] };
  if (asksForQualifier(field)) return unchanged;
  if (kind.kind === 'date' || kind.kind === 'duration' || kind.kind === 'ip_code') return unchanged;
  let text = value.trim();
  const dropped: string[] = [];
  for (let pass = 0; pass < 3; pass += 1) {
    const lead = LEADING.exec(text);
    if (lead) {
      dropped.push(lead[0].trim());
      text = text.slice(lead[0].length).trim();
    }
    const trail = TRAILING.exec(text);
    if (trail && trail.index > 0) {
      dropped.push(trail[0].replace(/^[\s,]+/, '').trim());
      text = text.slice(0, trail.index).trim();
    }
    const per = PER_THING.exec(text);
    if (per && per.index > 0) {
      dropped.push(per[0].trim());
      text = text.slice(0, per.index).trim();
    }
    const amount = kind.kind === 'money' || /^(?:[$€£¥]\s?|[A-Z]{3}\s)[-+]?\d/.test(text);
    const period = amount ? MONEY_PERIOD.exec(text) : null;
    const names = nameWords(field.path[field.path.length - 1]!);
    const ownPeriod = period && names.some((w) => PERIOD_WORDS[period[1]!.toLowerCase()]!.test(w));
    if (period && ownPeriod && period.index > 0) {
      dropped.push(period[0].trim());
      text = text.slice(0, period.index).trim();
    }
    const both = kind.kind === 'quantity' ? BOTH_CURRENTS.exec(text) : null;
    if (both && both.index > 0) {
      dropped.push(both[0].trim());
      text = text.slice(0, both.index).trim();
    }
    if (!lead && !trail && !per && !ownPeriod && !both) break;
  }
  // only a number (and its unit) is cleaned: "Max. working pressure" as a text value, a range, a sentence are not
  if (dropped.length === 0 || !NUMBER_WITH_UNIT.test(text)) return unchanged;
  return { value: text, dropped };
};

/** A footnote reference printed with a value: "(Note 11)", "(see Notes 2 and 3)", "(*1)". */
const NOTE_REFERENCE = /\s*\((?:see\s+)?(?:notes?\.?\s*\d+[a-z]?(?:\s*(?:,|and|&)\s*\d+[a-z]?)*|\*\s*\d+)\)\s*/gi;

/**
 * A value without the footnote references printed with it (a datasheet cell "UT-ML20 (Note 11)" gives "UT-ML20"):
 * the note points elsewhere on the page and is never part of the value. Any kind of value; unchanged when the value
 * is nothing but a reference.
 */
export const withoutNoteReferences = (value: string): Cleaned => {
  const dropped = [...value.matchAll(NOTE_REFERENCE)].map((m) => m[0].trim());
  if (dropped.length === 0) return { value, dropped: [] };
  const text = value
    .replace(NOTE_REFERENCE, ' ')
    .replace(/\s+([,;])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? { value, dropped: [] } : { value: text, dropped };
};

/** Kinds of organisation whose names carry the word ("Hotel Graben Hof", "Caldera Community Bank"). */
const ORGANISATION =
  /^(?:hotel|bank|restaurant|pharmacy|clinic|hospital|school|university|college|station|garage|cafe|shop|store|bakery|agency|studio|gallery|museum|club|insurer|airline|practice|surgery)$/;
/** Words of a label, not of a name ("Bank details", "Hotel address"). */
const LABEL_WORDS =
  /^(?:name|details?|information|info|address|account|code|number|no|contact|phone|tel|email|reference|ref|charges?|fees?|transfer|statement|invoice|receipt|summary|bill|booking|reservation|stay|use|only|copy)$/i;
const CONNECTOR = /^(?:of|and|&|de|du|la|le|the|am|an|im|zum|zur|von|y)$/i;

/**
 * For a field naming an organisation's name (`hotel_name`, `bank_name`), the organisation's word: undefined for
 * any other field.
 */
export const organisationWord = (words: string[]): string | undefined =>
  words.length === 2 && words[1] === 'name' && ORGANISATION.test(words[0]!) ? words[0] : undefined;

/**
 * Is `text` (a heading, a line, a table cell) the organisation's own name: two to six capitalised words, one of
 * them the organisation's word, another not a label's word ("Hotel Graben Hof" for `hotel_name`; not "Hotel name",
 * "Bank details")? Such a text is the value, not a label over one (round 6: "Hotel Graben Hof | INVOICE" gave
 * "INVOICE", a bank's name heading gave the address under it).
 */
export const isOrganisationName = (word: string, text: string): boolean => {
  const t = text.trim().replace(/^#{1,6}\s+/, '');
  if (t.length > 60 || /[\d:;,.!?|]/.test(t.replace(/\.$/, ''))) return false;
  const tokens = t.split(/\s+/).filter(Boolean);
  if (tokens.length < 2 || tokens.length > 6) return false;
  if (!tokens.every((w) => /^\p{Lu}/u.test(w) || CONNECTOR.test(w))) return false;
  const lower = tokens.map((w) => w.toLowerCase());
  if (!lower.includes(word)) return false;
  const others = lower.filter((w) => w !== word && !CONNECTOR.test(w));
  return others.length > 0 && others.every((w) => !LABEL_WORDS.test(w));
};

/**
 * A code followed by the part's dimensions ("LGA-12, 2 x 2 x 0.95 mm", "SOT-223, 6.5 x 3.5 mm"): the code is the
 * value of a field of words (a package, a housing), the dimensions a neighbouring statement. Unchanged otherwise.
 */
export const codeBeforeDimensions = (kind: FieldKind, value: string): Cleaned => {
  const m = /^((?=[A-Z0-9-]*\d)[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*),\s+(\d[\d.,]*\s*[x×]\s*\d.*?)\.?$/.exec(value.trim());
  return kind.kind === 'text' && m ? { value: m[1]!, dropped: [m[2]!] } : { value, dropped: [] };
};

/**
 * A value and its tolerance ("1.4 Ohm ±10 %", "1.8° ±5 %"): the nominal value, for a field that asks for the value
 * itself; a field about the tolerance (accuracy, tolerance, deviation, error, precision, linearity) or one asking
 * for the value as printed keeps it. Round 7.
 */
const TOLERANCE_FIELD = /^(?:accuracy|tolerance|tolerances|deviation|error|precision|linearity|repeatability)$/;
export const TRAILING_TOLERANCE = /^([-+~]?\d[\d.,]*\s*[^\d±]{0,12}?)\s*(±\s*\d[\d.,]*\s*(?:%|[\p{L}°µΩ]{1,4})?)$/u;
export const withoutTolerance = (field: SchemaField, value: string): Cleaned => {
  const m = TRAILING_TOLERANCE.exec(value.trim());
  const words = nameWords(field.path[field.path.length - 1]!);
  if (!m || asksForQualifier(field) || words.some((w) => TOLERANCE_FIELD.test(w)) || !m[1]!.trim())
    return { value, dropped: [] };
  return { value: m[1]!.trim(), dropped: [m[2]!.replace(/\s+/g, ' ')] };
};

/**
 * A measured value with a remark in words in brackets after its unit ("5 mm (D-cut)", "0.8 kg (with cover)"): the
 * number and unit (round 7). Not a unit's own bracket ("2.5 A (rms)", "(AC)", "(peak)"), not a remark with a
 * number, and not when the field asks for the value as printed.
 */
const UNIT_BRACKET = /^(?:rms|ac|dc|peak|pk|p-p|0-p|pp|max\.?|min\.?|typ\.?|nom\.?|abs\.?|eff\.?)$/i;
export const measureWithoutRemark = (field: SchemaField, value: string): Cleaned => {
  const m = /^([-+~]?\d[\d.,]*\s*[\p{L}°µΩ%·²³/]{1,8})\s*\(([^()\d]{2,40})\)$/u.exec(value.trim());
  if (!m || asksForQualifier(field) || UNIT_BRACKET.test(m[2]!.trim())) return { value, dropped: [] };
  return { value: m[1]!.trim(), dropped: [`(${m[2]!})`] };
};

/**
 * An identifier's field (`room_number`, `booking_ref`) labelled by its thing alone ("ROOM", "Booking"), when the
 * value is one code with a digit (not a date, an amount or words): 0.8; else 0 (round 6).
 */
export const identifierLabelled = (field: SchemaField, label: string, value: string): number => {
  const words = nameWords(field.path[field.path.length - 1]!);
  if (words.length !== 2 || !/^(?:number|no|id|ref|reference)$/.test(words[1]!)) return 0;
  const labelWords = nameWords(label.replace(/[.:#]+\s*$/, ''));
  const v = value.trim();
  const code =
    /^(?=[A-Za-z0-9/-]*\d)[A-Za-z0-9][A-Za-z0-9/-]{0,20}$/.test(v) &&
    !DATE_PATTERN.test(v) &&
    !/^\d{1,2}\/\d{1,2}$/.test(v);
  return labelWords.length === 1 && labelWords[0] === words[0] && code ? 0.8 : 0;
};

/**
 * Does the snippet label `value` as the identifier's thing ("| ROOM | 312 |", "Room 312")? For the evidence check:
 * the label right before the value, within its cell or line.
 */
export const identifierNamedIn = (field: SchemaField, snippet: string, value: string): boolean => {
  const at = snippet.indexOf(value);
  if (at < 0) return false;
  const before = snippet
    .slice(0, at)
    .split(/[|\n]/)
    .map((c) => c.trim())
    .filter(Boolean)
    .pop();
  return before !== undefined && identifierLabelled(field, before, value) > 0;
};
