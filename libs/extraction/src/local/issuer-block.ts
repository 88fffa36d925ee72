// SPDX-License-Identifier: AGPL-3.0-or-later
import { DATE_PATTERN } from '../fields/field-kinds.js';
import { nameWords } from '../fields/field-words.js';
import type { SchemaField } from '../schema-fields.js';
import { splitRow } from './markdown-table.js';

/**
 * The issuer block of an invoice, a receipt or a letterhead (issue 26, round 3): the shop's or the seller's name
 * and address printed at the top with no label ("# Blue Heron Cafe" / "12 Harbour Street, Portsmouth PO1 2AB",
 * an invoice's left column, "Statement from Acme Ltd"). Precision first, so only:
 * - for a field that asks for the issuer (its name says vendor, seller, supplier, merchant, store, shop, issuer;
 *   for its address, or a bare `address` when the schema also asks for such a name);
 * - the name is the first line at the top (before any item table, amount or sentence) that is not the
 *   document's title ("INVOICE", "Receipt"), not a `Label: value`, and has no date, amount or digit; a title
 *   "Statement from X" names X. Any other first line (an address, a sentence) gives no name;
 * - the address is the lines right after the name that look like one (a number and a word: "Lindenstrasse 14",
 *   "10969 Berlin", "Ludlow SY8 1AB"), at most three, stopping at a date, an amount or a label.
 * Hand-written: a layout rule over the first lines, no library reads letterheads.
 */
const ISSUER = new Set([
  'vendor',
  'seller',
  'supplier',
  'merchant',
  'store',
  'shop',
  'issuer',
  'retailer',
  // the business a bill is from
  'restaurant',
  'hotel',
  'cafe',
  // the place a till receipt is from ("station_name" of a fuel receipt, "pharmacy_address")
  'station',
  'pharmacy',
  'chemist',
  'garage',
  'clinic',
  'bakery',
]);
/** Words of a name field besides the issuer word ("seller_name", "merchant_full_name", "invoice_vendor"). */
const NAME_EXTRA = new Set(['name', 'names', 'full', 'legal', 'business', 'company', 'invoice', 'receipt', 'bill']);
/** Another party than the issuer: a `billing_address` or `customer_address` is not the issuer's. */
const OTHER_PARTY = /^(customer|buyer|client|billing|bill|shipping|ship|delivery|recipient|purchaser|payer)$/;

export type IssuerRole = 'name' | 'address';

/** The words of a scalar field's own name, or undefined for another party's field or a non-scalar. */
const issuerWords = (field: SchemaField): string[] | undefined => {
  if (field.kind !== 'scalar') return undefined;
  const words = nameWords(field.path[field.path.length - 1]!);
  return words.some((w) => OTHER_PARTY.test(w)) ? undefined : words;
};

/** A field asking for the issuer's name ("vendor", "seller_name"): an issuer word and name words only. */
const asksIssuerName = (words: string[]): boolean =>
  !words.includes('address') &&
  words.some((w) => ISSUER.has(w)) &&
  words.every((w) => ISSUER.has(w) || NAME_EXTRA.has(w));

/** Which part of the issuer block a field asks for (undefined: none). */
export const issuerRole = (field: SchemaField, fields: SchemaField[]): IssuerRole | undefined => {
  const words = issuerWords(field);
  if (!words) return undefined;
  if (words.includes('address')) {
    const issuer = words.some((w) => ISSUER.has(w));
    if (issuer && words.every((w) => ISSUER.has(w) || w === 'address' || NAME_EXTRA.has(w))) return 'address';
    // a bare "address" beside a vendor's name: a receipt's address is its issuer's (the other fields are asked
    // only whether they name the issuer — never their own role, which for two bare "address" fields, as
    // `landlord.address` and `tenant.address`, would ask each other without end)
    const names = fields.some((f) => {
      const other = f !== field ? issuerWords(f) : undefined;
      return other !== undefined && asksIssuerName(other);
    });
    return words.length === 1 && names ? 'address' : undefined;
  }
  return asksIssuerName(words) ? 'name' : undefined;
};

/** A document's title, not a name: every word is one of these ("TAX INVOICE", "Sales receipt"). */
const TITLE_WORDS =
  /^(?:invoice|receipt|statement|bill|quote|quotation|estimate|order|purchase|sales|sale|tax|vat|credit|debit|note|delivery|record|proforma|pro|forma|copy|customer|original|duplicate|summary|of|account|cash|payment|confirmation|no|number)$/i;
const FROM_TITLE =
  /^(?:invoice|receipt|statement|bill|quote|quotation|estimate)(?:\s+of\s+account)?\s+(?:from|by)\s+(.{2,80})$/i;
const AMOUNT = /(?:^|\s)(?:[A-Z]{3}\s?|[$€£¥]\s?)\d|\d[.,]\d{2}(?:\s|$)/;

interface TopLine {
  text: string;
  /** A table row with a value beside its first cell ("| Merchant | Harbourside Outdoor Supplies |"): a label. */
  labelled?: boolean;
  /** The markdown line it came from (the evidence snippet must be a line of the chunk). */
  line: string;
  heading: boolean;
}

/**
 * The first lines of the document, as a reader scans them: a heading's text, a text line, a table row's first
 * non-empty cell (an invoice's left column beside its numbers). Stops at an item table's header (a row of
 * several short cells with no value in the first) after the first rows, or after `max` lines.
 */
export const topLines = (content: string, max = 10): TopLine[] => {
  const out: TopLine[] = [];
  for (const raw of content.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const cells = splitRow(line);
    if (cells) {
      if (cells.every((c) => /^:?-{2,}:?$/.test(c) || c === '')) continue;
      const first = cells.find((c) => c.length > 0);
      if (!first) continue;
      const rest = cells.slice(cells.indexOf(first) + 1).filter((c) => c.length > 0);
      // an invoice's left column beside `Label: value` cells is not labelled; "| Merchant | Harbourside |" is
      out.push({ text: first, line, heading: false, labelled: rest.some((c) => !isLabelValue(c)) });
    } else {
      const heading = /^#{1,6}\s+(.+)$/.exec(line);
      out.push({ text: (heading ? heading[1]! : line).trim(), line, heading: Boolean(heading) });
    }
    if (out.length >= max) break;
  }
  return out;
};

const isLabelValue = (text: string) => /^[^:]{1,40}:\s*\S/.test(text);
const isTitle = (text: string) => {
  const words = text.split(/[^\p{L}]+/u).filter(Boolean);
  return words.length > 0 && words.length <= 5 && !/\d/.test(text) && words.every((w) => TITLE_WORDS.test(w));
};
const looksLikeName = (text: string) =>
  /\p{L}{2}/u.test(text) &&
  !/\d/.test(text) &&
  text.length <= 60 &&
  text.split(/\s+/).length <= 8 &&
  !/[.!?]$/.test(text.replace(/\b(?:inc|ltd|co|corp|llc|plc|s\.a|b\.v|n\.v)\.$/i, '')) &&
  !isLabelValue(text);
/** A postcode: five digits, a UK postcode, a US state and ZIP, four digits before a town ("8001 Zurich"). */
const POSTCODE =
  /\b\d{5}\b|\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b|\b[A-Z]{2}\s\d{5}(?:-\d{4})?\b|^\d{4}\s+\p{Lu}\p{L}+$/u;
/** A line of an address: a number and a word of three letters or more, no date, no amount, no label. */
const looksLikeAddress = (text: string) =>
  /\d/.test(text) &&
  /\p{L}{3}/u.test(text) &&
  text.length <= 80 &&
  !DATE_PATTERN.test(text) &&
  !AMOUNT.test(text) &&
  !isLabelValue(text) &&
  !/\b(?:tel|phone|fax|vat|tax|no|invoice|receipt|till|order)\b/i.test(text);

/**
 * A heading that runs the issuer's name into the document's title ("Fenwick Water Your water bill", "Aldous Gas
 * Your annual statement"): the name is the capitalised words before a sentence-case phrase (a capitalised word,
 * then words in lower case only) that holds a title word. Round 7.
 */
export const withoutTitleTail = (text: string): string => {
  const words = text.trim().split(/\s+/);
  for (let k = 1; k < words.length - 1; k += 1) {
    const tail = words.slice(k + 1);
    if (
      /^\p{Lu}\p{Ll}/u.test(words[k]!) &&
      tail.every((w) => /^\p{Ll}/u.test(w)) &&
      [words[k]!, ...tail].some((w) => TITLE_WORDS.test(w.replace(/[^\p{L}]/gu, '')) && !/^(?:of|no)$/i.test(w))
    )
      return words.slice(0, k).join(' ');
  }
  return text;
};

/** Words a document's title is made of beyond TITLE_WORDS' (a hotel's "FOLIO", a German "RECHNUNG"). */
const TITLE_NOUN = /^(?:invoice|receipt|statement|note|bill|quote|quotation|estimate|folio|rechnung|facture|factura)$/i;

/**
 * A name with the document's title printed on its line ("Lumora Lighting B.V. CREDIT NOTE", "INVOICE Acme Ltd":
 * the converter joins a letterhead's name and the title set right of it). Round 9: the title's words are dropped
 * when they are at the end (or the start), printed in capitals, hold a title noun (invoice, note, folio …) and
 * the rest is not in capitals itself (a name in capitals could own the word: "CITY RECEIPT CO").
 */
export const withoutDocumentTitle = (text: string): string => {
  const words = text.trim().split(/\s+/);
  const isTitleWord = (w: string) => {
    const bare = w.replace(/[^\p{L}]/gu, '');
    return bare.length > 0 && bare === bare.toUpperCase() && (TITLE_WORDS.test(bare) || TITLE_NOUN.test(bare));
  };
  const rest = (kept: string[]) => {
    const letters = kept.join(' ').replace(/[^\p{L}]/gu, '');
    return letters.length >= 2 && letters !== letters.toUpperCase();
  };
  let end = words.length;
  while (end > 0 && isTitleWord(words[end - 1]!)) end -= 1;
  const tail = words.slice(end);
  if (tail.length > 0 && tail.some((w) => TITLE_NOUN.test(w.replace(/[^\p{L}]/gu, ''))) && rest(words.slice(0, end)))
    return words.slice(0, end).join(' ');
  let start = 0;
  while (start < words.length && isTitleWord(words[start]!)) start += 1;
  const head = words.slice(0, start);
  if (head.length > 0 && head.some((w) => TITLE_NOUN.test(w.replace(/[^\p{L}]/gu, ''))) && rest(words.slice(start)))
    return words.slice(start).join(' ');
  return text;
};

/**
 * A line of an address, not a name (round 9): a postcode with a number ("17 • 5020 Salzburg • Austria",
 * "Canal Road Depot, Bradford BD2 1AU"), or a house number then a street word ("22 Saltaire Road").
 */
export const looksLikeAddressLine = (text: string): boolean =>
  /\d/.test(text) &&
  (POSTCODE.test(text) ||
    /(?:^|[•·|,]\s*)\d{4,5}\s+\p{Lu}\p{L}+/u.test(text) ||
    /^\d{1,5}[a-z]?\s+\p{L}+\s+(?:street|st|road|rd|avenue|ave|lane|ln|gasse|strasse|straße|weg|platz|way|drive|rise|close)\b/iu.test(
      text,
    ));

export interface IssuerValue {
  value: string;
  /** The lines read, one per line as the chunk has them. */
  snippet: string;
}

/** The issuer's name or address from the top of the document, or undefined (precision first). */
export const issuerFromTop = (content: string, role: IssuerRole): IssuerValue | undefined => {
  const lines = topLines(content);
  let i = 0;
  while (i < lines.length && isTitle(lines[i]!.text)) {
    // "Customer" alone is another party's label (the block under it is theirs), not a title ("Customer copy")
    const words = lines[i]!.text.toLowerCase()
      .split(/[^\p{L}]+/u)
      .filter(Boolean);
    if (!lines[i]!.heading && words.every((w) => OTHER_PARTY.test(w) || w === 'to')) return undefined;
    i += 1;
  }
  let first = lines[i];
  if (!first) return undefined;
  // a block under a label of its own: the issuer's ("Vendor" / "Rhein-Ventil GmbH") names it on the next line;
  // another party's ("Invoice to", "Bill to", "Customer") is not the issuer's block
  const labelWords =
    first.heading || first.labelled
      ? []
      : first.text
          .toLowerCase()
          .split(/[^\p{L}]+/u)
          .filter(Boolean);
  let label: TopLine | undefined;
  if (labelWords.length > 0 && labelWords.length <= 3 && !/\d/.test(first.text)) {
    if (labelWords.some((w) => OTHER_PARTY.test(w) || w === 'to')) return undefined;
    // ("Issued by" / "Vantage Office Interiors BV": the issuer's label, not its name)
    if (labelWords.every((w) => ISSUER.has(w) || NAME_EXTRA.has(w) || /^(?:from|by|issued|sold)$/.test(w))) {
      label = first;
      i += 1;
      first = lines[i];
      if (!first || first.heading) return undefined;
    }
  }
  const from = FROM_TITLE.exec(first.text);
  if (from) {
    const name = from[1]!.trim().replace(/[,;:]$/, '');
    // "Statement from X" names no address
    return role === 'name' && looksLikeName(name) ? { value: name, snippet: first.line } : undefined;
  }
  if (first.labelled || !looksLikeName(first.text)) return undefined;
  if (role === 'name')
    return {
      value: withoutDocumentTitle(withoutTitleTail(first.text)),
      snippet: label ? `${label.line}\n${first.line}` : first.line,
    };
  // the first line that looks like an address, then more lines up to the one with the postcode (a line after
  // the address that has numbers, "Table 12 Covers 2", is not part of it)
  const address: TopLine[] = [];
  for (const next of lines.slice(i + 1, i + 4)) {
    if (next.labelled || !looksLikeAddress(next.text)) break;
    if (address.length > 0 && !POSTCODE.test(next.text)) break;
    address.push(next);
    if (POSTCODE.test(next.text)) break;
  }
  if (address.length === 0) return undefined;
  return {
    value: address.map((a) => a.text.replace(/[,;]$/, '')).join(', '),
    snippet: address.map((a) => a.line).join('\n'),
  };
};

/** A document's own date ("transaction_date", "invoice_date", "date"): not an effective, due or expiry date. */
const DOCUMENT_DATE_WORDS =
  /^(date|dated|transaction|purchase|invoice|receipt|issue|issued|order|bill|sale|sales|document|statement)$/;

/** Does the field ask for the document's own date, and is it the schema's only date field? */
export const isDocumentDate = (field: SchemaField, fields: SchemaField[], isDate: (f: SchemaField) => boolean) => {
  const words = nameWords(field.path[field.path.length - 1]!);
  return (
    field.kind === 'scalar' &&
    words.includes('date') &&
    words.every((w) => DOCUMENT_DATE_WORDS.test(w)) &&
    fields.filter(isDate).length === 1
  );
};

/**
 * A till receipt's bare date line ("2025/10/17 14:22 Till 3"): among the first lines, the lines that start with
 * a date (a time and a few words may follow); exactly one such date, else nothing.
 */
export const dateLineFromTop = (content: string): IssuerValue | undefined => {
  const starts = new RegExp(`^(${DATE_PATTERN.source})(?:\\s|$)`, 'i');
  const hits = topLines(content, 12).flatMap((l) => {
    if (l.line.startsWith('|')) return [];
    const m = starts.exec(l.text);
    return m && l.text.split(/\s+/).length <= 8 ? [{ value: m[1]!, snippet: l.line }] : [];
  });
  return new Set(hits.map((h) => h.value)).size === 1 ? hits[0] : undefined;
};
