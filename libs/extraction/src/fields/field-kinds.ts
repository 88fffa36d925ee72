// SPDX-License-Identifier: AGPL-3.0-or-later
import type { SchemaField } from '../schema-fields.js';
import { hintWords, nameWords } from './field-words.js';

/**
 * What a field's value must look like (issue 26's precision first): a quantity in a unit, a date, an integer
 * count, a code, or free text. Read from the field's name and description; a value that does not fit is not
 * returned (null, with a warning saying what was seen).
 */
export type FieldKind =
  | { kind: 'quantity'; quantity: string; units: RegExp; ranged?: boolean }
  | { kind: 'date' }
  | { kind: 'count' }
  | { kind: 'ip_code' }
  | { kind: 'money' }
  | { kind: 'duration' }
  | { kind: 'text' };

const Q = (quantity: string, units: RegExp): FieldKind => ({ kind: 'quantity', quantity, units });

/** Units by the word that names the quantity. Order matters: the first word of the name that is here decides. */
const QUANTITIES: [RegExp, FieldKind][] = [
  [/^torque$/, Q('torque', /(?:N\s*[·.⋅*-]?\s*m|Nm|kgf\s*[·.]?\s*cm|oz\s*[·.-]?\s*in|lb\s*[·.-]?\s*(?:in|ft))\b/i)],
  [/^(voltage|volt|volts)$/, Q('voltage', /(?:^|[\d\s(])(?:k|m|µ|μ)?V(?:ac|dc|rms|AC|DC)?\b|\bvolts?\b/)],
  [/^current$/, Q('current', /(?:^|[\d\s(])(?:m|µ|μ|u|n|p)?A(?:rms|\(rms\)|0-p|\(0-p\))?(?:\b|$)|\bamps?\b/)],
  [/^(power|output)$/, Q('power', /(?:^|[\d\s(])(?:k|M|m|µ|μ)?W\b|\bwatts?\b|\bhp\b|\bVA\b/)],
  [/^speed$/, Q('speed', /\b(?:rpm|r\/min|min-1|min⁻¹|min\^-1|1\/min)\b|min-1/i)],
  [/^(mass|weight)$/, Q('mass', /(?:^|[\d\s(])(?:kg|g|lb|lbs|oz)\b/)],
  [/^temperature$/, Q('temperature', /°\s*[CF]\b|\bdeg\b|℃/)],
  // ("35 mOhm", "2 kohm": a prefix written before "Ohm" in letters)
  [/^resistance$/, Q('resistance', /Ω|(?<![a-z])[mkµuM]?ohms?\b/i)],
  [/^inductance$/, Q('inductance', /\b[mµu]?H\b/)],
  [/^inertia$/, Q('inertia', /kg\s*[·.]?\s*m\s*2|kg\s*[·.]?\s*m²|g\s*[·.]?\s*cm\s*2|g\s*[·.]?\s*cm²|kgm2|oz/i)],
  [/^frequency$/, Q('frequency', /\b[kM]?Hz\b/)],
  [/^efficiency$/, Q('efficiency', /%/)],
];

/** The quantity a value's unit says it is ("160 °C": a temperature), by the units of the quantities above. */
export const quantityOfUnit = (value: string): string | undefined => {
  for (const [, kind] of QUANTITIES)
    if (kind.kind === 'quantity' && /\d/.test(value) && kind.units.test(value)) return kind.quantity;
  return undefined;
};

const DATE_WORDS = /^(date|dated|effective|expiry|expiration|issued|signed)$/;
/** An amount of money (a receipt's total, an invoice's tax): one number, a currency sign or code at most. */
const MONEY_WORDS = /^(total|subtotal|amount|price|cost|tax|vat|balance|fee|fees|payment|salary|wage|wages|rent)$/;
/**
 * Money only as the name's last word ("annual_charge", "security_deposit", a receipt's `shipping` or `tip`
 * (round 14); not "charge_time", "charge_voltage", "shipping_address"),
 * and a charge not an electric one ("gate_charge", "battery_charge", "state_of_charge" are in C or mAh or %).
 */
const MONEY_HEADS = /^(charge|charges|deposit|premium|shipping|freight|postage|tip|gratuity|surcharge)$/;
const ELECTRIC_CHARGE =
  /^(gate|battery|cell|state|electric|electrical|capacitor|stored|input|output|reverse|recovery|coulomb)$/;
/** A length of time (a contract's term). */
const DURATION_WORDS = /^(term|duration|period|tenure)$/;
const COUNT_WORDS = /^(number|count|num|quantity|qty|poles|mppts|phases|trackers)$/;

/** The kind of a field: by its name's words, then its description's. */
/** Name words of a quantity stated as an interval (round 14), and of one point of it. */
const RANGED = /^(?:supply|input|operating|working|adjustment|adjustable|adj|measuring|measurement|dimming)$/;
const POINT =
  /^(?:rated|nominal|max|maximum|min|minimum|typ|typical|peak|absolute|abs|dropout|surge|inrush|start|startup|standby|idle|full)$/;

export const fieldKind = (field: SchemaField): FieldKind => {
  const name = nameWords(field.path[field.path.length - 1]!);
  const words = [...name, ...hintWords(field)];
  if (name.includes('ip') || (name.includes('protection') && name.some((w) => /class|rating|degree/.test(w))))
    return { kind: 'ip_code' };
  if (name.some((w) => DATE_WORDS.test(w))) return { kind: 'date' };
  // "total_power" is a power: a quantity's word wins over a money or time word
  const quantityWord = name.some((w, k) =>
    w !== 'output' || k === name.length - 1 ? QUANTITIES.some(([re]) => re.test(w)) : false,
  );
  const electricCharge = /^charges?$/.test(name[name.length - 1] ?? '') && name.some((w) => ELECTRIC_CHARGE.test(w));
  const moneyHead = MONEY_HEADS.test(name[name.length - 1] ?? '') && !electricCharge;
  if (!quantityWord && !electricCharge && (name.some((w) => MONEY_WORDS.test(w)) || moneyHead))
    return { kind: 'money' };
  if (!quantityWord && name.some((w) => DURATION_WORDS.test(w))) return { kind: 'duration' };
  // "voltage constant" (V/krpm), "torque constant" (N·m/A): a ratio, not the quantity
  if (name.includes('constant') || name.includes('ratio') || name.includes('range')) return { kind: 'text' };
  // the name's last quantity word is its head ("output_voltage" is a voltage, "output_power" a power)
  // ("output" is a power only as the head: "rated_output"; "max_output_data_rate" is a rate, not a power)
  const head = (word: string, k: number) => word !== 'output' || k === name.length - 1;
  // (round 14) a supply's, an input's or an adjustment's quantity is an interval as datasheets state it ("Supply
  // voltage 1.8 to 5.5 V", "Input frequency 47 to 63 Hz"): a range is its value, unless the name asks for one
  // point of it (rated, nominal, a limit)
  const ranged =
    name.some((w) => RANGED.test(w)) && !name.some((w) => POINT.test(w))
      ? (kind: FieldKind): FieldKind => (kind.kind === 'quantity' ? { ...kind, ranged: true } : kind)
      : (kind: FieldKind) => kind;
  for (const [k, word] of [...name.entries()].reverse())
    for (const [re, kind] of QUANTITIES) if (re.test(word) && head(word, k)) return ranged(kind);
  for (const word of words) for (const [re, kind] of QUANTITIES) if (word !== 'output' && re.test(word)) return kind;
  // "invoice_number", "po_number", "serial_number": a thing's number is its identifier, not a count
  // ("number_of_poles", "pole_count" stay counts)
  if (name.length >= 2 && /^(number|num|no)$/.test(name[name.length - 1]!) && !name.includes('of'))
    return { kind: 'text' };
  if (name.some((w) => COUNT_WORDS.test(w)) || (typeof field.hint === 'number' && Number.isInteger(field.hint)))
    return { kind: 'count' };
  return { kind: 'text' };
};

const NUMBER = /[-+±]?\d+(?:[.,]\d+)*/g;

/** An amount as printed: a currency sign or code and a number, or the number and a code or sign after it. */
const AMOUNT = String.raw`(?:(?:[A-Z]{3}\s?|[$€£¥]\s?)[-+]?\d[\d,.]*\d|[-+]?\d[\d,.]*\d(?:\s?(?:[A-Z]{3}|[$€£¥]))?|(?:[A-Z]{3}\s?|[$€£¥]\s?)\d)`;
/** What a page prints after an amount about paying it: tax, frequency, when and how it is paid. */
const TERMS = String.raw`(?:plus|\+|excl(?:uding|usive\s+of|\.)?|incl(?:uding|usive\s+of|\.)?|inc\.?|ex\.?|net|gross|payable|paid|due|per(?!\s*cent)|p\.a\.?|pcm|a\s+(?:year|month|week|day)|each|every|in\s+(?:advance|arrears)|VAT|GST|HST|MwSt\.?|subject\s+to|exclusive|inclusive|monthly|annually|yearly|quarterly|weekly|daily|zzgl\.?|inkl\.?|netto|brutto|HT|TTC|hors\s+taxes?)`;
const AMOUNT_THEN_TERMS = new RegExp(String.raw`^(${AMOUNT})\s*(\(?\s*,?\s*${TERMS}(?![\p{L}]).*)$`, 'iu');

/**
 * An amount and the terms printed after it ("£9,840.00 plus VAT, payable quarterly in advance", "EUR 1.200,00
 * excl. VAT"): the amount and the terms; undefined when the text is not so, or when the terms hold another amount
 * (a percentage may stand there: "plus VAT at 20 %").
 */
export const amountBeforeTerms = (text: string): { amount: string; terms: string } | undefined => {
  const m = AMOUNT_THEN_TERMS.exec(text.trim());
  if (!m) return undefined;
  const terms = m[2]!.replace(/^[\s,]+/, '').trim();
  if (/\d/.test(terms.replace(/\d[\d.,]*\s?%/g, ''))) return undefined;
  return { amount: m[1]!.trim(), terms };
};
const MONTHS =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
export const DATE_PATTERN = new RegExp(
  `\\b(?:\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}|\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{2,4}|\\d{1,2}(?:st|nd|rd|th)?\\s+day\\s+of\\s+(?:${MONTHS})\\.?,?\\s+\\d{4}|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MONTHS})\\.?,?\\s+\\d{4}|(?:${MONTHS})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4})\\b`,
  'i',
);

const NUMBER_WORDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|twenty|thirty|sixty|ninety';
/** A length of time: "24 months", "two (2) years", "thirty days". */
export const DURATION_PATTERN = new RegExp(
  `\\b(?:\\d{1,4}|(?:${NUMBER_WORDS})(?:[\\s-](?:${NUMBER_WORDS}))?)(?:\\s*\\(\\d{1,4}\\))?[\\s-]*(?:calendar\\s+|business\\s+)?(?:years?|months?|weeks?|days?)\\b`,
  'i',
);

/** A condition printed after a measured value: "at 25 °C", "@ 1 kHz", "(at 20 °C)", "under full load". */
const CONDITION =
  /^(\s*[-+±~]?\d[\d.,]*\s*(?:[^\s\d,;()]{1,10}(?:\s(?:AC|DC|rms|RMS|p-p))?)?)\s*(?:\(\s*)?((?:at|@|with|without|under|when|measured\s+at)\s+[^()]*?)\)?\s*$/iu;

/**
 * A measured value and the condition printed after it ("10 A at 25 °C": "10 A" and "at 25 °C"); undefined when
 * the text is not so, when the value's unit is not one of the quantity's, or when the condition states another
 * value of the same quantity ("2 A at 24 V, 1 A at 48 V": two values, not one and its condition).
 */
export const quantityBeforeCondition = (
  kind: FieldKind,
  text: string,
): { value: string; condition: string } | undefined => {
  if (kind.kind !== 'quantity') return undefined;
  const m = CONDITION.exec(text);
  if (!m) return undefined;
  const value = m[1]!.trim();
  const condition = m[2]!.trim();
  if (/\p{L}|°|%/u.test(value) && !kind.units.test(value)) return undefined;
  if (kind.units.test(condition) && /\d/.test(condition)) return undefined;
  return { value, condition };
};

/**
 * Does `value` (with the unit the table's header or unit cell gave, `unit`) fit the field's kind? `undefined`
 * when it does; else what was wrong, for the warning. A quantity wants one number (or a range only when the
 * field is one) and its unit; a merged cell of two rows' numbers ("10000 0.145") or prose ("0.457Nm to 9.68Nm")
 * does not fit a single value.
 */
export const misfit = (kind: FieldKind, value: string, unit = ''): string | undefined => {
  const text = value.trim();
  if (text.length === 0) return 'it is empty';
  if (text.length > 120 && kind.kind !== 'text') return 'it is a passage of text, not a value';
  switch (kind.kind) {
    case 'quantity': {
      // (a measured value and its condition, "10 A at 25 °C": the value; value-extent.ts cuts the condition)
      const q = quantityBeforeCondition(kind, text)?.value ?? text;
      // (a unit's exponent is not a number: "2900 min-1", "1.2 m3/h", "kg·m2")
      const numbers = q.replace(/(?<=\p{L})(?:-1|⁻¹|\^-?\d|[23](?![\d.,]))/gu, '').match(NUMBER) ?? [];
      if (numbers.length === 0) return `it has no number (a ${kind.quantity} is a number and a unit)`;
      // (a unit may stand after the first end too: "-40 °C to +85 °C")
      const isRange =
        /^\s*[-+±]?\d[\d.,]*?\s*(?:°\s*[CF]\s*|[A-Za-z%]{1,4}\s+)?(?:[~～–—-]|to|\.{2,3}|…)\s*[-+±]?\d[\d.,]*/.test(q);
      // a dual mains rating ("50/60 Hz") is how a frequency is stated, not two cells merged
      const dualFrequency = kind.quantity === 'frequency' && /^\s*\d{2,3}\s*\/\s*\d{2,3}\s*(?:Hz)?\s*$/.test(q);
      if (numbers.length > 1 && !isRange && !dualFrequency && !/^\d[\d.,]*\s*\(\s*\d/.test(q) && !/x\s*10/i.test(q))
        return `it holds several numbers (${numbers.slice(0, 3).join(', ')}): cells merged, not one value`;
      // a range is a value only of a quantity that is one by nature (an operating temperature); "0.457Nm to
      // 9.68Nm" for a peak torque is the family's span, not the value
      if (isRange && kind.quantity !== 'temperature' && !kind.ranged) return 'it is a range, not one value';
      if (!kind.units.test(`${q} ${unit}`)) return `its unit is not one of a ${kind.quantity}`;
      return undefined;
    }
    case 'date':
      return DATE_PATTERN.test(text) ? undefined : 'it is not a date';
    case 'count':
      return /^\s*\d{1,6}\s*$/.test(text) ? undefined : 'it is not a whole number';
    case 'money': {
      // (an amount and its terms, "£9,840.00 plus VAT, payable quarterly": the amount; value-extent.ts cuts it)
      const amount = amountBeforeTerms(text)?.amount ?? text;
      const numbers = amount.match(NUMBER) ?? [];
      if (numbers.length !== 1) return numbers.length ? 'it holds several amounts' : 'it has no amount';
      // a sign or code and the amount, nothing else ("$1,234.50", "EUR 45.10", "45.10 €")
      return /^(?:[A-Z]{3}\s?|[$€£¥]\s?)?[-+]?\d[\d,. ]*(?:\s?(?:[A-Z]{3}|[$€£¥]))?$/.test(amount)
        ? undefined
        : 'it is not an amount of money';
    }
    case 'duration':
      return DURATION_PATTERN.test(text) ? undefined : 'it is not a length of time';
    case 'ip_code':
      return /\bIP\s?\d{2}[A-Z]?\b/i.test(text) ? undefined : 'it is not an IP code';
    case 'text':
      return undefined;
  }
};
