// SPDX-License-Identifier: AGPL-3.0-or-later
import type { MatchMethod } from '../evidence/verify-evidence.js';
import { DATE_PATTERN, DURATION_PATTERN, misfit, quantityOfUnit, type FieldKind } from '../fields/field-kinds.js';
import { LABEL_MATCH, labelScore, nameWords, wordGroups } from '../fields/field-words.js';
import type { SchemaField } from '../schema-fields.js';

export interface ProseCandidate {
  value: unknown;
  snippet: string;
  locator: string;
  score: number;
  method: MatchMethod;
}

/**
 * Values a contract states in prose (issue 26, beyond datasheets), found by the phrases agreements use:
 * "This Agreement is made on 1 March 2024 between Acme Ltd and Beta LLC", "governed by the laws of the State of
 * New York", "the courts of England and Wales shall have exclusive jurisdiction", "for a term of two (2) years".
 * Precision first as everywhere: the phrase must name the field (its words or synonyms, `labelScore` on the
 * snippet, which the evidence check repeats) and the value must fit the field's kind; the snippet is the phrase
 * itself, short enough to be found on the page. Hand-written: these few phrases need no NLP library.
 */
// legal forms written in lower case end a name too ("Saffron Retail Group plc", "Nordic Tools oy")
const NAME = String.raw`[A-Z][\w&'.,-]*(?:\s+(?:[A-Z][\w&'.,-]*|&|of|and|de|la|the|(?:plc|ltd|llc|inc|oy|bv|nv|gmbh)\b))*?`;
const PARTIES = new RegExp(
  String.raw`\bbetween\s+(?:the\s+)?(${NAME})(?:,?\s+an?\s+\w[\w\s-]{0,40}?(?=\s*[(,]|\s+and\b))?(?:\s*\([^)]{1,60}\))?,?\s+and\s+(?:the\s+)?(${NAME})(?=\s*\(|\s*[,.;]|\s+(?:dated|on|as|for|with|whereby|who)\b|\s*$)`,
);
/**
 * A place a law or a court is of: capitalised words, "and", "of", and "the" before a capitalised word ("the Kingdom
 * of the Netherlands", "England and Wales"); a trailing "of"/"and" is cut off by `trimName` (round 7: "Kingdom of"
 * was returned for "the Kingdom of the Netherlands").
 */
const PLACE = String.raw`(?:the\s+)?(?:State|Commonwealth|Province|Republic|Kingdom)?(?:\s+of)?\s*[A-Z][\w]*(?:\s+(?:[A-Z][\w]*|and|of|the(?=\s+[A-Z])))*`;
/** A court named as where disputes go: "submitted exclusively to the District Court of Rotterdam". */
const COURT_NAMED = new RegExp(
  String.raw`\b(?:to|before|in|by)\s+(?:the\s+)?((?:[A-Z][\w]*\s+){0,3}Courts?\s+(?:of|in|at|for)\s+${PLACE})`,
);
const LAW = new RegExp(
  String.raw`\b(?:governed\s+by(?:[\w\s,]{0,60}?)|subject\s+to)\s+(?:the\s+)?laws?\s+of\s+(${PLACE})`,
);
const COURTS = new RegExp(
  String.raw`\bcourts?\s+(?:located\s+)?(?:of|in)\s+((?:the\s+)?[A-Z][\w]*(?:\s+(?:[A-Z][\w]*|and|of))*)[^.]{0,60}?\bjurisdiction\b`,
);
const MADE_ON = new RegExp(
  String.raw`\b(?:made|entered\s+into|dated|effective(?:\s+as\s+of)?|commenc\w*(?:\s+on)?|(?:starts?|begins?)\s+on|(?:takes?|took)\s+effect\s+(?:from|on))\s+(?:(?:on|as\s+of)\s+)?(?:this\s+|the\s+)?(${DATE_PATTERN.source}|\d{1,2}(?:st|nd|rd|th)\s+(?:day\s+)?of\s+[A-Z][a-z]+,?\s+\d{4})`,
  'i',
);
const TERM = new RegExp(
  String.raw`\b(?:term\s+of|period\s+of|(?:remain|continue)\s+in\s+(?:full\s+)?(?:force|effect)\s+for(?:\s+a\s+period\s+of)?|duration\s+of)\s+(${DURATION_PATTERN.source})`,
  'i',
);

/** Plain language: "The laws of Ireland govern this agreement", "the law of Scotland applies". */
const LAW_PLAIN = new RegExp(
  String.raw`\blaws?\s+of\s+(${PLACE})\s+(?:govern|governs|apply|applies|shall\s+(?:govern|apply))\b`,
);
/**
 * Plain language: what the agreement does, with the agreement as its subject ("It starts on … and continues for 3
 * years", "The engagement … lasts twelve (12) months"): not any "lasts" (a warranty's, a battery's).
 */
const TERM_PLAIN = new RegExp(
  String.raw`\b(?:agreement|contract|engagement|it|licence|license|lease)\b[^.;]{0,80}?\b(?:continues?|lasts?|runs?)\s+(?:for\s+)?(?:a\s+(?:period|term)\s+of\s+)?(${DURATION_PATTERN.source})`,
  'i',
);

/**
 * Extra search queries for the phrases above: BM25 finds "made on … between" by neither "effective date" nor
 * "parties" (and drops "between" as a stop word), so the local extractor also searches with the phrases' words.
 */
export const proseQueries = (field: SchemaField): string[] => {
  const words = new Set(nameWords(field.path[field.path.length - 1]!));
  const has = (...w: string[]) => w.some((x) => words.has(x));
  const queries: string[] = [];
  if (has('parties', 'party', 'counterparties')) queries.push('agreement made between party parties');
  if (has('effective', 'agreement', 'contract', 'commencement', 'start'))
    queries.push('agreement made entered into dated effective');
  if (has('law', 'governing', 'jurisdiction')) queries.push('governed govern laws courts jurisdiction');
  if (has('term', 'duration', 'period'))
    queries.push('term period continue continues lasts remain force effect years months');
  if (has('effective', 'commencement', 'start')) queries.push('starts begins commences on');
  return queries;
};

/** The phrase of the match as the snippet: from the trigger to the end of the value, on one line of the chunk. */
const phrase = (line: string, m: RegExpExecArray) => line.slice(m.index, m.index + m[0].length).trim();

/**
 * A jurisdiction or forum field whose name or description asks for a court ("jurisdiction": "Court that hears
 * disputes"); not one that names the law (governing_law).
 */
export const asksForCourt = (field: SchemaField): boolean => {
  const words = nameWords(field.path[field.path.length - 1]!);
  if (
    !words.some((w) => /^(?:jurisdiction|forum|venue|courts?)$/.test(w)) ||
    words.some((w) => /^(?:law|laws|governing)$/.test(w))
  )
    return false;
  const hint = typeof field.hint === 'string' ? nameWords(field.hint) : [];
  return [...words, ...hint].some((w) => /^courts?$/.test(w));
};

const trimName = (s: string) =>
  s
    .trim()
    .replace(/[,.;]+$/, '')
    .replace(/^the\s+/i, '')
    .replace(/(?:\s+(?:of|and|the))+$/, '')
    .trim();

const LAWS_OF = new RegExp(String.raw`\blaws?\s+of\s+(${PLACE})`);
/** A numbered party line of a contract's "Parties" clause: "(1) Acme Ltd (the "Company"); and". */
const PARTY_LINE = new RegExp(
  String.raw`^\s*\(?(?:\d{1,2}|[a-h]|i{1,3}|iv)[).]\s+(${NAME})(?=\s*\(|\s*[,;.]|\s+and\b|\s+of\s+\d|\s*$)`,
);
/** The line opening a contract's numbered parties: "BETWEEN:", "Between", "PARTIES:" (nothing else on it). */
const PARTIES_OPEN = /^\s*(?:between|parties|the\s+parties)\s*:?\s*$/i;

/**
 * Values of a section whose heading names the field ("2. Commencement" / "The engagement begins on 2025-04-01"):
 * the heading is the label. Precision first: the section must hold exactly one value of the field's kind (one
 * date, one length of time, one "laws of …"; two or more numbered party lines for the parties), else nothing. The
 * snippet is the heading and the line holding the value, so it names the field.
 */
export const sectionCandidates = (
  field: SchemaField,
  kind: FieldKind,
  content: string,
  locator: string,
  rank: number,
): ProseCandidate[] => {
  const words = new Set(nameWords(field.path[field.path.length - 1]!));
  const isParties = ['parties', 'party', 'counterparties'].some((w) => words.has(w));
  const isLaw = ['law', 'governing', 'jurisdiction'].some((w) => words.has(w)) && !asksForCourt(field);
  const lines = content.split('\n');
  const found: ProseCandidate[] = [];
  lines.forEach((line, i) => {
    const heading = /^#{1,6}\s+(.{2,80})$/.exec(line.trim());
    if (!heading) return;
    const title = heading[1]!.trim();
    const score = labelScore(field, title, true);
    if (score < LABEL_MATCH) return;
    const end = lines.findIndex((l, k) => k > i && /^#{1,6}\s/.test(l.trim()));
    const body = lines.slice(i + 1, end < 0 ? undefined : end).filter((l) => l.trim() && !l.trim().startsWith('|'));
    const unique = (re: RegExp): { value: string; line: string } | undefined => {
      const hits = body.flatMap((l) =>
        [...l.matchAll(new RegExp(re.source, `${re.flags.replace('g', '')}g`))].map((m) => ({
          value: (m[1] ?? m[0]).trim(),
          line: l.trim(),
        })),
      );
      return new Set(hits.map((h) => h.value.toLowerCase())).size === 1 ? hits[0] : undefined;
    };
    const push = (value: unknown, valueLines: string[]) => {
      const text = Array.isArray(value) ? value.join(' and ') : String(value);
      if (misfit(kind, text)) return;
      found.push({
        value,
        snippet: [title, ...valueLines].join('\n\n'),
        locator,
        score: score * (1 - rank * 0.05) * 0.8,
        method: 'pattern',
      });
    };
    if (isParties) {
      const parties = body.flatMap((l) => {
        const m = PARTY_LINE.exec(l);
        return m ? [{ name: trimName(m[1]!), line: l.trim() }] : [];
      });
      if (parties.length >= 2) {
        push(
          field.kind === 'list' ? parties.map((p) => p.name) : parties.map((p) => p.name).join(' and '),
          parties.map((p) => p.line),
        );
        return;
      }
    }
    const hit =
      kind.kind === 'date'
        ? unique(DATE_PATTERN)
        : kind.kind === 'duration'
          ? unique(DURATION_PATTERN)
          : isLaw
            ? unique(LAWS_OF)
            : undefined;
    if (hit) return push(isLaw ? trimName(hit.value) : hit.value, [hit.line]);
    // a term sheet's label above its value ("Governing Law" / "Northern Ireland"): a section of one short line
    // that is not a sentence
    const only = body.length === 1 ? body[0]!.trim() : '';
    if (
      only &&
      only.length <= 80 &&
      only.split(/\s+/).length <= 10 &&
      !/[.!?]$/.test(only) &&
      (kind.kind === 'text' || isParties)
    ) {
      const line = only.replace(/;$/, '');
      if (isParties) {
        const two = new RegExp(String.raw`^(?:the\s+)?(${NAME})\s+and\s+(?:the\s+)?(${NAME})$`).exec(line);
        if (two) push(field.kind === 'list' ? [trimName(two[1]!), trimName(two[2]!)] : line, [line]);
      } else push(line, [line]);
      return;
    }
  });
  return found;
};

export const proseCandidates = (
  field: SchemaField,
  kind: FieldKind,
  content: string,
  locator: string,
  rank: number,
): ProseCandidate[] => {
  const words = new Set(nameWords(field.path[field.path.length - 1]!));
  const has = (...w: string[]) => w.some((x) => words.has(x));
  const wantsCourt = asksForCourt(field);
  const found: ProseCandidate[] = [];
  const take = (value: unknown, snippet: string, weight = 0.85, label = snippet) => {
    const score = labelScore(field, label);
    if (score < LABEL_MATCH) return;
    const text = Array.isArray(value) ? value.join(' and ') : String(value);
    if (misfit(kind, text)) return;
    found.push({ value, snippet, locator, score: score * (1 - rank * 0.05) * weight, method: 'pattern' });
  };
  const prose = content.split('\n').filter((l) => l.trim() && !l.trim().startsWith('|') && !l.trim().startsWith('#'));
  // "BETWEEN:" / "(1) Halden Marine Systems Limited, a company …" / "(2) Corin Adeyemi of 52 Tern Street …": the
  // numbered lines after a line that opens the parties (two or more, up to eight lines on), in their order
  if (has('parties', 'party', 'counterparties')) {
    const open = prose.findIndex((l) => PARTIES_OPEN.test(l));
    const parties =
      open < 0
        ? []
        : prose.slice(open + 1, open + 9).flatMap((l) => {
            const m = PARTY_LINE.exec(l);
            return m ? [{ name: trimName(m[1]!), line: l.trim() }] : [];
          });
    if (parties.length >= 2) {
      const names = parties.map((p) => p.name);
      take(
        field.kind === 'list' ? names : names.join(' and '),
        [prose[open]!.trim(), ...parties.map((p) => p.line)].join('\n\n'),
      );
    }
  }
  for (const [i, line] of prose.entries()) {
    if (line.trim().startsWith('|') || line.length < 12) continue;
    // a sentence the PDF broke over two lines ("… by and between" / "Acme Ltd (the "Principal") and …", "as of
    // the 9th of" / "February 2026"): a line that ends in no full stop read with the next one, when it alone says
    // nothing
    const next = prose[i + 1];
    const withNext = next && !/[.;:!?]\s*$/.test(line) ? `${line.trim()} ${next.trim()}` : undefined;
    if (has('parties', 'party', 'counterparties')) {
      const m = PARTIES.exec(line) ?? (withNext ? PARTIES.exec(withNext) : null);
      if (m) {
        const parties = [trimName(m[1]!), trimName(m[2]!)];
        take(
          field.kind === 'list' ? parties : parties.join(' and '),
          m.input.slice(m.index, m.index + m[0].length).trim(),
        );
      }
    }
    if (kind.kind === 'date' && has('effective', 'agreement', 'contract', 'commencement', 'start')) {
      const m = MADE_ON.exec(line) ?? (withNext ? MADE_ON.exec(withNext) : null);
      if (m) take(m[1]!, phrase(m.input, m));
    }
    // a jurisdiction asked for as a court ("Court that hears disputes") is the court named, not the governing law
    if (wantsCourt) {
      const m = COURT_NAMED.exec(line) ?? COURTS.exec(line);
      if (m) take(trimName(m[1]!), phrase(m.input, m), 0.85, `${[...words].join(' ')} ${phrase(m.input, m)}`);
    } else if (has('law', 'governing', 'jurisdiction')) {
      const m =
        LAW.exec(line) ??
        LAW_PLAIN.exec(line) ??
        (has('jurisdiction') ? COURTS.exec(line) : null) ??
        // ("… are governed by" / "the laws of the Republic of Singapore.")
        (withNext ? LAW.exec(withNext) : null);
      if (m) take(trimName(m[1]!), phrase(m.input, m));
    }
    if (kind.kind === 'duration') {
      const m = TERM.exec(line) ?? TERM_PLAIN.exec(line);
      if (m) take(m[1]!, phrase(line, m));
    }
  }
  // a code printed right before the one word that names a field of words ("in a 3-pin SOT-223 package", "an
  // RS-485 interface"): the code has capitals and a digit; the field is named by that word alone
  if (kind.kind === 'text' && field.kind === 'scalar') {
    const own = wordGroups(field);
    if (own.length === 1)
      for (const line of prose)
        for (const m of line.matchAll(CODE_BEFORE_WORD)) {
          if (!own[0]!.includes(m[2]!.toLowerCase())) continue;
          take(m[1]!, m[0], 0.75);
        }
  }
  // a value stated after its name ("a nominal voltage of 3.7 V"), unless a phrase above read it already
  for (const c of statedValues(field, kind, prose.join('\n')))
    if (!found.some((f) => f.value === c.value)) take(c.value, c.snippet, c.weight, `${c.snippet} ${c.label}`);
  return found;
};

/**
 * How prose states a value after its name: "a nominal voltage of 3.7 V", "the notice period … is one month",
 * "Your first day of employment will be 6 April 2026", "delivers a continuous discharge current of up to 10 A",
 * "A full charge … takes about 2.5 hours", "The pack weighs 96 g", "collect … by Direct Debit on or after 8
 * December 2025". The words before the link (at most twelve, within the clause) must name the field (its words,
 * synonyms or description; the fewest words that do), and the value right after the link must be of the field's
 * kind: a date, a length of time, an amount, or a number with a unit; free text is never taken this way.
 */
const LINK =
  /\s(of(?:\s+up\s+to)?|is|are|was|will\s+be|shall\s+be|equals?|takes?(?:\s+(?:about|approximately|around|up\s+to))?|weighs(?:\s+(?:about|approximately|around))?|measures|from|between|on(?:\s+or\s+(?:after|before))?)\s+(?:about\s+|approximately\s+|around\s+|up\s+to\s+)?(?=[-+±$€£¥\p{L}\d])/gu;
const NUMBER_UNIT =
  /^[-+±]?\d[\d.,]*(?:\s*[x×]\s*\d[\d.,]*)*\s?(?:°\s?[CF]|(?:hours?|minutes?|seconds?|days?|weeks?|months?|years?|cycles?)|[A-Za-zµΩ%]{1,4}(?:[·⋅/][A-Za-z]{1,3})?)(?![\p{L}\d])/u;
const CODE_BEFORE_WORD =
  /(?<![\w-])((?=[A-Z0-9-]*[A-Z])(?=[A-Z0-9-]*\d)[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)\s+(\p{L}{3,})\b/gu;
const RANGE = /^[-+]?\d[\d.,]*\s*(?:°\s?[CF])?\s*(?:to|and|–|~)\s*[-+]?\d[\d.,]*\s*°\s?[CF]/;
const AMOUNT = /^(?:[A-Z]{3}\s?|[$€£¥]\s?)\d[\d,.]*\d|^\d[\d,.]*\d\s?(?:[A-Z]{3}|[$€£¥])(?!\p{L})/u;

export const statedValues = (
  field: SchemaField,
  kind: FieldKind,
  text: string,
): { value: string; snippet: string; weight: number; label: string }[] => {
  if (field.kind !== 'scalar') return [];
  // the lines of a paragraph are one text (the PDF breaks a sentence anywhere); a clause ends at . ; : ! ? or ,
  const joined = text.replace(/\s*\n+\s*/g, ' ');
  const found: { value: string; snippet: string; weight: number; label: string }[] = [];
  for (const m of joined.matchAll(LINK)) {
    const rest = joined.slice(m.index + m[0].length);
    const start = m.index + m[0].length;
    // "from -20 °C to +60 °C", "between 0 and 45 °C": a range, for a field that is one (its name says range, or
    // it is a temperature); only after "from"/"between", and only then
    const ranged = /^(?:from|between)$/i.test(m[1]!);
    const rangeField =
      nameWords(field.path[field.path.length - 1]!).includes('range') ||
      (kind.kind === 'quantity' && kind.quantity === 'temperature');
    if (ranged && !rangeField) continue;
    const value = ranged
      ? RANGE.exec(rest)?.[0]
      : kind.kind === 'date'
        ? new RegExp(`^(?:${DATE_PATTERN.source})`, 'i').exec(rest)?.[0]
        : kind.kind === 'duration'
          ? new RegExp(`^(?:${DURATION_PATTERN.source})`, 'i').exec(rest)?.[0]
          : kind.kind === 'money'
            ? AMOUNT.exec(rest)?.[0]
            : kind.kind === 'quantity' || kind.kind === 'text'
              ? NUMBER_UNIT.exec(rest)?.[0]
              : undefined;
    if (!value || (kind.kind !== 'date' && /^[\d.,]+\s*(?:st|nd|rd|th)$/.test(value))) continue;
    // the clause before the link, its last words first
    const before = joined.slice(0, m.index);
    const clauseStart = Math.max(...['.', ';', ':', '!', '?', ','].map((p) => before.lastIndexOf(`${p} `))) + 1;
    const words = before.slice(clauseStart).trim().split(/\s+/).filter(Boolean);
    // what follows the value in its clause ("£48,500 per annum"): up to three words, part of the phrase
    const after = /^[^.;:,!?]{0,40}/.exec(rest.slice(value.length))?.[0] ?? '';
    const tail = after.trim().split(/\s+/).slice(0, 3).join(' ');
    const link = m[1]!;
    for (let n = 1; n <= Math.min(12, words.length); n += 1) {
      // not across another statement's verb ("weighs 1.4 kg and measures …": "weighs" names no size)
      if (/^(?:weighs|measures|takes|is|are|was|will|shall)$/i.test(words[words.length - n]!)) break;
      const label = words.slice(-n).join(' ');
      const named = `${label} ${link}`;
      // the value's unit says which quantity it is ("charged from 0 °C to +45 °C" is a temperature)
      const says = quantityOfUnit(value) ?? '';
      if (labelScore(field, `${named} ${/^per\b/i.test(tail) ? tail : ''} ${says}`, true) < LABEL_MATCH) continue;
      const phrase = `${named} ${joined.slice(start, start + value.length)}${/^per\b/i.test(tail) ? ` ${tail}` : ''}`;
      found.push({ value: value.trim(), snippet: phrase.trim(), weight: 0.8, label: `${named} ${says}` });
      break;
    }
  }
  // precision first: two statements naming the field with different values ("your average balance was $3,412.18
  // … keep an average balance of $5,000.00") leave which one is meant unknown (round 6)
  // (only values of the field's kind count: "a nominal voltage of 3.7 V and a rated capacity of 5200 mAh" states
  // one voltage)
  const fitting = found.filter((f) => !misfit(kind, f.value));
  return new Set(fitting.map((f) => f.value.replace(/\s+/g, '').toLowerCase())).size > 1 ? [] : found;
};
