// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  amountBeforeTerms,
  DATE_PATTERN,
  DURATION_PATTERN,
  quantityBeforeCondition,
  type FieldKind,
} from '../fields/field-kinds.js';
import { nameWords } from '../fields/field-words.js';
import type { SchemaField } from '../schema-fields.js';
import { asksForQualifier, type Cleaned } from './value-cleanup.js';

/**
 * Issue 26, round 8: a value's extent from its field's type. A label points at a cell or a line; what the page
 * prints there is often the value and its neighbours (a party's name and its address, an amount and its payment
 * terms, a current and its test condition). One rule per type of field, not per document, cuts the value to what
 * the type wants; what was cut is named in the field's warning. A field whose description asks for the neighbours
 * ("name and address", "with payment terms", "as printed") keeps the value whole.
 */

const unchanged = (value: string): Cleaned => ({ value, dropped: [] });

/** Words of a party's role or a name's owner: a field so named wants a person's or an organisation's name. */
const PARTY_WORD =
  /^(?:part(?:y|ies)|counterpart(?:y|ies)|licensor|licensee|supplier|customer|buyer|seller|client|provider|contractor|subcontractor|consultant|landlord|tenant|lessor|lessee|employer|employee|distributor|vendor|purchaser|merchant|issuer|payee|payer|lender|borrower|guarantor|insurer|insured|policyholder|agent|owner|manufacturer|shipper|consignee|consignor|carrier|principal|recipient|discloser|company|contractee|operator|guest|patient|member|applicant|sender|beneficiary|contact|person|driver|cashier|attendant|representative|signatory)$/;
/** Words of a field that asks for something else about the party (its address, its number). */
const NOT_A_NAME =
  /^(?:address|addresses|street|city|postcode|zip|country|email|phone|tel|telephone|fax|number|no|id|ref|reference|code|vat|tax|account|iban|role|type|date|details|website|url|registration)$/;

/**
 * Does the field want a name alone: its name's last words are a party's role or `name` (`landlord`,
 * `service_provider`, `supplier_name`, `landlord.name`), no word asks for another detail of the party, and the
 * description does not ask for the address too.
 */
export const wantsName = (field: SchemaField): boolean => {
  const own = nameWords(field.path[field.path.length - 1]!);
  const parent = field.path.length > 1 ? nameWords(field.path[field.path.length - 2]!) : [];
  if (own.length === 0 || own.some((w) => NOT_A_NAME.test(w))) return false;
  if (
    typeof field.hint === 'string' &&
    /\b(?:address|contact details|registered office|as printed|verbatim)\b/i.test(field.hint)
  )
    return false;
  const head = own[own.length - 1]!;
  if (head === 'name' || head === 'names') return own.length > 1 || parent.length > 0;
  return PARTY_WORD.test(head);
};

/** Words a street's name ends with (English, German, Scandinavian, Dutch, French, Spanish, Italian). */
const STREET =
  /^(?:street|st|road|rd|lane|ln|avenue|ave|way|close|drive|dr|court|ct|place|pl|row|square|sq|crescent|terrace|grove|gardens|hill|park|parade|walk|wharf|quay|boulevard|blvd|highway|hwy|mews|green|rise|vale|yard|estate|building|house|centre|center|\p{L}*(?:straße|strasse|str\.|gasse|weg|platz|allee|ring|damm|vägen|gatan|gata|vej|gade|veien|gate|straat|laan|plein|gracht))$/iu;
/** A postcode with letters: UK ("HG2 8QT"), a US state and ZIP ("OH 45402"). */
const POSTCODE_LETTERS = /\b(?:[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}|[A-Z]{2}\s\d{5}(?:-\d{4})?)\b/;
/** A company's legal form or a group word: "Acme 2000 Ltd" is a name, not a name and a postcode. */
const LEGAL_FORM =
  /^(?:ltd|limited|llc|llp|lp|inc|corp|co|gmbh|ag|ab|as|asa|oy|plc|sa|sas|sarl|bv|nv|pty|spa|srl|kg|group|holdings)\.?$/i;
/** Words that open an address line without a house number. */
const ADDRESS_OPENER =
  /^(?:unit|flat|suite|apartment|apt|floor|level|p\.?\s?o\.?\s?box|postfach|box|c\/o|building|block)\b/i;

/** Does `rest` read as an address (a house number and a street, a street word, a postcode, an opener word)? */
const isAddress = (rest: string): boolean => {
  const text = rest.trim();
  // (an opener word needs a number with it: "Flat 2", "PO Box 3318"; not "Flat Iron Company")
  if (ADDRESS_OPENER.test(text)) return /\d/.test(text);
  const words = text.split(/[\s,]+/).filter(Boolean);
  const street = words.some((w) => STREET.test(w.replace(/[.,]$/, '')));
  const houseNumber = words.some((w) => /^\d{1,5}[A-Za-z]?(?:[-/]\d{1,5}[A-Za-z]?)?,?$/.test(w));
  if (street && houseNumber) return true;
  if (POSTCODE_LETTERS.test(text)) return true;
  // a numeric postcode and its town ("7080 Heimdal", "418 34 Gothenburg"); not "2000 Ltd"
  const town = /\b(?:\d{3}\s?\d{2}|\d{4,5})(?:\s[A-Z]{2})?\s+(\p{Lu}[\p{L}.]+)/u.exec(text);
  return town !== null && !LEGAL_FORM.test(town[1]!);
};

/** A role or a registration in brackets after a name: `(the "Supplier")`, `(hereinafter …)`, `(Company No. 123)`. */
const ROLE_BRACKET =
  /\s*\(\s*(?:the\s+|hereinafter\b|herein\b|referred\b|as\s+|["“'‘]|(?:company|registration|reg\.?|registered|co\.)\s*(?:no|number|nr)\b|(?:ABN|ACN|CRN|EIN|KvK|UID|VAT|SIREN|SIRET|CVR|Org\.?\s*nr)\b)[^()]{0,80}\)\s*$/i;
/**
 * A name's description after it: "currently of …", "residing at …", ", of 12 …", "whose registered office …", ", a
 * Delaware corporation", the business it trades as (", trading as …", "t/a …"; round 14), its registration ("ABN 12 …", "Company No. …") or its contact lines ("Tel …").
 */
const DESCRIBED =
  /\s*,?\s+(?:(?:currently|presently|formerly|lately)\s+(?:of|residing|resident|living)\b|(?:residing|resident|living|domiciled)\s+(?:at|in)\b|of\s+(?=\d)|at\s+(?=\d)|whose\s+|with\s+(?:its\s+)?(?:registered\s+)?(?:office|address|seat)|having\s+(?:its\s+)?(?:registered\s+)?(?:office|address|seat)|(?:registered|incorporated)\s+(?:in|under|at|office)\b|acting\s+(?:as|through|by)\b|(?:trading|doing\s+business)\s+as\b|t\/a\b|d\/b\/a\b|represented\s+by\b|an?\s+(?:company|corporation|limited|private|public|partnership|firm|body|entity|sole|individual|\p{Lu}[\p{L}]+\s+(?:company|corporation|limited\s+(?:company|partnership)))\b|(?:ABN|ACN|CRN|EIN|KvK|UID|SIREN|SIRET|CVR|VAT\s+(?:no|number|reg)|company\s+(?:no|number|reg)|reg(?:istration|istered)?\.?\s+(?:no|number|in))\b\.?|(?:tel|phone|telephone|mobile|e-?mail|fax)\b\.?:?\s*(?=[+(\d]|[\w.-]+@))/iu;

/** A job title after a person's name and a comma: up to four capitalised words ending in a title's word. */
const JOB_TITLE =
  /,\s*(?:(?:\p{Lu}[\p{L}&-]*|of|and|for)\s+){0,4}(?:Director|Manager|Officer|Head|Partner|Engineer|Lead|Sponsor|Chair(?:man|woman|person)?|CEO|CFO|CTO|COO|President|Secretary|Administrator|Coordinator|Co-ordinator|Controller|Accountant|Solicitor|Adviser|Advisor|Owner|Founder|Principal|Supervisor|Analyst|Architect)\b[^,]*$/u;

/**
 * A person's or an organisation's name without what the page prints after it: its address (after a comma, or on
 * the next line the converter joined: "Priya Venkataraman 12 Alder Close Harrogate HG2 8QT"), a description
 * ("currently of …", "whose registered office …") or a role in brackets (`(the "Supplier")`). Only for a field
 * that wants a name (`wantsName`); a value that is nothing but one of these, or no name before it, is unchanged.
 */
export const nameExtent = (field: SchemaField, value: string): Cleaned => {
  if (!wantsName(field)) return unchanged(value);
  let text = value.trim();
  const dropped: string[] = [];
  const cut = (at: number) => {
    const head = text.slice(0, at).replace(/[\s,;:–—-]+$/, '');
    // a name keeps a letter word; nothing is cut to leave a bare number or nothing
    if (!/\p{L}{2}/u.test(head)) return false;
    dropped.push(
      text
        .slice(at)
        .replace(/^[\s,;:]+/, '')
        .trim(),
    );
    text = head;
    return true;
  };
  const described = DESCRIBED.exec(text);
  if (described && described.index > 0) cut(described.index);
  // an address after a comma: the first comma whose rest reads as an address
  for (const m of text.matchAll(/,\s*/g)) if (isAddress(text.slice(m.index + m[0].length)) && cut(m.index)) break;
  // an address on the next line (joined with a space): a house number or an address word, then an address
  // (or a street written before its number: "Hauptstraße 5", "Via Roma 12", "12 rue de la Paix")
  const joined =
    /\s+(?=\d{1,5}[A-Za-z]?(?:[-/]\d{1,5})?\s+(?:\p{Lu}|rue\b|via\b|calle\b|avenida\b|chemin\b)|(?:Unit|Flat|Suite|Apartment|P\.?\s?O\.?\s?Box|Postfach)\b|\p{Lu}[\p{L}-]*(?:straße|strasse|str\.|gasse|weg|platz|allee|ring|damm|vägen|gatan|gata|vej|gade|veien|straat|laan|plein|gracht)\s+\d|(?:Via|Viale|Calle|Carrer|Avenida|Rua|Rue|Piazza|Plaza|Corso)\s+(?:\p{L}+\s+){1,4}\d)/u;
  const line = joined.exec(text);
  if (line && line.index > 0 && isAddress(text.slice(line.index))) cut(line.index);
  // a person's job title after a comma ("Dana Whitcombe, Project Sponsor"), an e-mail address after the name
  // (not after an organisation's name: "Wells, Head & Co Ltd" is one name)
  const title = JOB_TITLE.exec(text);
  if (title && title.index > 0 && !text.split(/\s+/).some((w) => LEGAL_FORM.test(w))) cut(title.index);
  const email = /\s*[<(]?[\w.+-]+@[\w-]+\.[\w.-]+[>)]?.*$/.exec(text);
  if (email && email.index > 0) cut(email.index);
  const role = ROLE_BRACKET.exec(text);
  if (role && role.index > 0) cut(role.index);
  return dropped.length > 0 ? { value: text, dropped } : unchanged(value);
};

/** Does the field's description ask for the terms printed with an amount ("with payment terms", "incl. VAT")? */
const asksForTerms = (field: SchemaField): boolean =>
  typeof field.hint === 'string' &&
  /\b(?:terms|payable|frequency|how often|schedule|vat|tax|gst|incl|excl|including|excluding)\b/i.test(field.hint);

/**
 * An amount without the terms printed after it ("£9,840.00 plus VAT, payable quarterly in advance" gives
 * "£9,840.00"; "EUR 1.200,00 excl. VAT"): the amount is what the field asks for, the terms a statement beside it.
 * The currency stays as printed. Only when the rest holds no other amount (a percentage may stand there: "plus VAT
 * at 20 %"), and not when the description asks for the terms or the tax.
 */
export const amountExtent = (field: SchemaField, kind: FieldKind, value: string): Cleaned => {
  if (kind.kind !== 'money' || asksForQualifier(field) || asksForTerms(field)) return unchanged(value);
  const split = amountBeforeTerms(value);
  return split ? { value: split.amount, dropped: [split.terms] } : unchanged(value);
};

/**
 * A measured value without the condition it was measured under ("10 A at 25 °C" gives "10 A", dropped "at 25
 * °C"): a quantity is its number and unit (`quantityBeforeCondition`). Not when the field asks for the value as
 * printed.
 */
export const withoutCondition = (field: SchemaField, kind: FieldKind, value: string): Cleaned => {
  if (asksForQualifier(field)) return unchanged(value);
  const split = quantityBeforeCondition(kind, value);
  return split ? { value: split.value, dropped: [split.condition] } : unchanged(value);
};

/**
 * A length of time for a field whose name ends in "time" (`hold_up_time`, `response_time`; its kind is text, a
 * clock time fits it too) without the condition it was measured at: "20 ms at 230 VAC" gives "20 ms" (round 11).
 * Only a value that opens with one number and a unit of time; not when the field asks for the value as printed.
 */
const TIME_LENGTH =
  /^([-+~]?\d[\d.,]*\s*(?:ns|µs|μs|us|ms|s|sec|secs|seconds?|min|mins|minutes?|h|hrs?|hours?))\s*((?:,\s*)?(?:at|@|with|under|from|for)\s.+|\([^()]+\))$/iu;
export const timeWithoutCondition = (field: SchemaField, kind: FieldKind, value: string): Cleaned => {
  if (kind.kind !== 'text' || asksForQualifier(field)) return unchanged(value);
  const name = nameWords(field.path[field.path.length - 1]!);
  if (name.length < 2 || name[name.length - 1] !== 'time') return unchanged(value);
  const m = TIME_LENGTH.exec(value.trim());
  return m ? { value: m[1]!.trim(), dropped: [m[2]!.replace(/^,\s*/, '').trim()] } : unchanged(value);
};

/**
 * A measured value without words after its unit ("10 A continuous", "230 V AC single phase", "3000 rpm rated"):
 * lower-case words of three letters or more, no digit; the unit (its own letters, "DC", "AC", "rms") stays. Only
 * for a quantity field whose value's unit is one of the quantity's; not when the field asks for the value as
 * printed.
 */
export const measureWithoutWords = (field: SchemaField, kind: FieldKind, value: string): Cleaned => {
  if (kind.kind !== 'quantity' || asksForQualifier(field)) return unchanged(value);
  const m =
    /^([-+~]?\d[\d.,]*\s*[^\s\d]{1,10}(?:\s(?:AC|DC|ac|dc|rms|RMS|p-p))?)\s+([a-z]{3,}(?:[\s-][a-z]{2,}){0,3})\.?$/u.exec(
      value.trim(),
    );
  if (!m || !kind.units.test(m[1]!)) return unchanged(value);
  // a unit written as a word ("25 watts", "1.4 ohms") is the value's own
  if (kind.units.test(`1 ${m[2]!.split(/[\s-]/)[0]!}`)) return unchanged(value);
  return { value: m[1]!.trim(), dropped: [m[2]!] };
};

/**
 * A date is the date, a length of time the length ("26 February 2026 Payment due" gives "26 February 2026",
 * "36 months from the Effective Date" gives "36 months"): the one date or length in the value, when the words around
 * it hold no other (a time of day after a date stays for a field whose name asks for a time). Every path reading a
 * value cuts it so already (`valueByKind`); this is the same rule once more for the returned value, whichever path
 * gave it.
 */
export const dateOrDurationExtent = (field: SchemaField, kind: FieldKind, value: string): Cleaned => {
  if ((kind.kind !== 'date' && kind.kind !== 'duration') || asksForQualifier(field)) return unchanged(value);
  const pattern = kind.kind === 'date' ? DATE_PATTERN : DURATION_PATTERN;
  const text = value.trim();
  const m = pattern.exec(text);
  if (!m || m[0].length === text.length) return unchanged(value);
  const before = text.slice(0, m.index);
  const after = text.slice(m.index + m[0].length);
  // a time of day after a date, for a field asking for a time ("departure_time", "date_and_time")
  const wantsTime = nameWords(field.path[field.path.length - 1]!).some((w) => /^(?:time|datetime)$/.test(w));
  if (kind.kind === 'date' && wantsTime && /^\s*,?\s*(?:at\s+)?\d{1,2}[:.]\d{2}/.test(after)) return unchanged(value);
  const rest = `${before} ${after}`;
  if (pattern.test(rest) || (kind.kind === 'duration' && /\d/.test(rest))) return unchanged(value);
  const dropped = [before, after].map((t) => t.replace(/^[\s,;:(]+|[\s,;:)]+$/g, '')).filter(Boolean);
  return dropped.length > 0 ? { value: m[0], dropped } : unchanged(value);
};

/**
 * A unit as the page prints it beside a value: a table header's "(m³/h)", "[A]" without the brackets that set it
 * apart from the column's title ("0.9 m³/h", not "0.9 (m³/h)"). A unit with words outside its brackets ("A
 * (rms)") is unchanged.
 */
export const unitAsPrinted = (unit: string): string => {
  const m = /^\s*[([]\s*([^()[\]]{1,20}?)\s*[)\]]\s*$/.exec(unit);
  return m ? m[1]! : unit.trim();
};

/** Every rule above, in order, with why each cut was made (for the field's warning). */
export const valueExtent = (field: SchemaField, kind: FieldKind, value: string): Cleaned & { why: string[] } => {
  const n = nameExtent(field, value);
  const a = amountExtent(field, kind, n.value);
  const c0 = withoutCondition(field, kind, a.value);
  const t = timeWithoutCondition(field, kind, c0.value);
  const c = { value: t.value, dropped: [...c0.dropped, ...t.dropped] };
  const w = measureWithoutWords(field, kind, c.value);
  const d = dateOrDurationExtent(field, kind, w.value);
  return {
    value: d.value,
    dropped: [...n.dropped, ...a.dropped, ...c.dropped, ...w.dropped, ...d.dropped],
    why: [
      ...(n.dropped.length > 0 ? ['a name ends where its address, description or role begins'] : []),
      ...(a.dropped.length > 0 ? ['an amount is the amount, not the terms printed after it'] : []),
      ...(c.dropped.length > 0
        ? ['a measured value is its number and unit, not the condition it was measured at']
        : []),
      ...(w.dropped.length > 0 ? ['a measured value is its number and unit, not the words after it'] : []),
      ...(d.dropped.length > 0
        ? [`a ${kind.kind === 'date' ? 'date is the date' : 'length of time is the length'}`]
        : []),
    ],
  };
};
