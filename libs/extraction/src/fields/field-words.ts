// SPDX-License-Identifier: AGPL-3.0-or-later
import { tokens } from '../evidence/text-match.js';
import type { SchemaField } from '../schema-fields.js';

/**
 * Words a document uses for a field name's words. Small and domain-general on purpose (datasheets, contracts,
 * receipts); the field's own words always count. Shared by the offline extractor (which label is this field's)
 * and the evidence check (does the evidence name the field).
 */
const PARTY_ROLES = [
  'licensor',
  'licensee',
  'supplier',
  'customer',
  'buyer',
  'seller',
  'client',
  'provider',
  'contractor',
  'consultant',
  'landlord',
  'tenant',
  'lessor',
  'lessee',
  'employer',
  'employee',
  'principal',
  'distributor',
  'vendor',
  'purchaser',
];

export const SYNONYMS: Record<string, string[]> = {
  max: ['maximum', 'max.', 'max'],
  maximum: ['max', 'max.'],
  min: ['minimum', 'min.'],
  minimum: ['min', 'min.'],
  peak: ['instantaneous', 'momentary', 'peak', 'max', 'maximum'],
  // prose states a weight, a size, a time by the verb: "weighs 96 g", "measures 37 x 19 x 69 mm", "takes 2.5 hours"
  weight: ['mass', 'weight', 'weighs'],
  dimensions: ['dimensions', 'size', 'measures'],
  time: ['time', 'takes'],
  // a yearly amount is one "per annum"
  annual: ['annual', 'annum', 'yearly'],
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
  quantity: ['quantity', 'qty'],
  efficiency: ['efficiency'],
  temperature: ['temperature', 'temp.', 'ambient'],
  humidity: ['humidity', 'rh'],
  vendor: ['vendor', 'seller', 'merchant', 'store', 'supplier', 'company', 'sold', 'issuer', 'from'],
  merchant: ['merchant', 'vendor', 'seller', 'store', 'shop'],
  seller: ['seller', 'vendor', 'merchant', 'supplier', 'sold', 'issuer'],
  supplier: ['supplier', 'vendor', 'seller', 'provider'],
  // a receipt's store is its merchant ("Merchant: …" for `store_name`)
  store: ['store', 'shop', 'merchant', 'vendor', 'seller', 'retailer'],
  shop: ['shop', 'store', 'merchant', 'vendor', 'seller', 'retailer'],
  total: ['total', 'amount', 'balance', 'due'],
  // a sales tax by its names ("Total incl. GST" for `total_including_tax`)
  tax: ['tax', 'vat', 'gst', 'hst'],
  // what an invoice says is to be paid: "Amount due", "Total", "Balance due", "Grand total"
  amount: ['amount', 'total', 'sum', 'balance'],
  due: ['due', 'payable', 'total', 'balance', 'outstanding'],
  address: ['address', 'addr'],
  // an agreement states its date as "made on" / "entered into on"
  date: ['date', 'dated', 'made', 'entered'],
  effective: ['effective', 'effect', 'commencement', 'dated', 'made', 'entered', 'starts', 'begins'],
  commencement: [
    'commencement',
    'commence',
    'commences',
    'effective',
    'start',
    'starts',
    'begins',
    'dated',
    'made',
    'entered',
  ],
  start: ['start', 'starts', 'commencement', 'commences', 'commencing', 'effective', 'begins'],
  // the party doing the work, as contracts name it (round 6)
  provider: ['provider', 'contractor', 'supplier', 'consultant'],
  service: ['service', 'services', 'contractor', 'consultant'],
  // a hotel stay's dates as folios print them
  // (a name's "check in" / "check out" is read as arrival / departure: `contentWords`)
  arrival: ['arrival', 'arriving', 'check'],
  departure: ['departure', 'departing', 'check'],
  jurisdiction: ['jurisdiction', 'governing', 'governed', 'law', 'laws', 'courts'],
  // "subject to the laws of": how a contract says which law governs it
  governing: ['governing', 'governed', 'govern', 'governs', 'applicable', 'subject'],
  applicable: ['applicable', 'governing', 'governed', 'govern', 'governs'],
  law: ['law', 'laws'],
  // plain language states a term by what the agreement does: "continues for 3 years", "lasts 12 months"
  term: ['term', 'duration', 'period', 'length', 'continues', 'lasts'],
  duration: ['duration', 'term', 'period', 'length', 'continues', 'lasts'],
  // datasheets: a rated value is also called nominal; operating conditions are the ambient ones
  rated: ['rated', 'nominal'],
  nominal: ['nominal', 'rated'],
  operating: ['operating', 'operation', 'ambient', 'working'],
  protection: ['protection', 'enclosure', 'ip', 'ingress'],
  // a contract names its parties by their roles ("Licensor: …", "Supplier | …")
  parties: ['parties', 'between', 'party', ...PARTY_ROLES],
  party: ['party', 'parties', ...PARTY_ROLES],
  invoice: ['invoice', 'bill'],
  // (round 14) a party by the other name its kind of contract gives it: a lease's lessor is its owner and its
  // lessee the hirer; a tenancy's tenants are its occupiers; a services contract's contractor the consultant
  lessor: ['owner'],
  lessee: ['hirer'],
  tenant: ['tenants', 'occupier', 'occupiers'],
  contractor: ['consultant', 'freelancer'],
};

/** The last word of an identifier's name (round 14). */
const ID_HEAD = /^(?:number|no|nr|num|id|ref|reference)$/;

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

/**
 * Words of a field's name that say which document it is about ("invoice_total", "seller_name",
 * "contract_duration", "transaction_date"), not what the value is: a label may leave them out ("Total", "Seller",
 * "Duration", "Date"). They count only when the name has another word.
 */
const CONTEXT = new Set([
  'invoice',
  'receipt',
  'bill',
  'contract',
  'contracting',
  'agreement',
  'document',
  'transaction',
  'purchase',
  'order',
  'statement',
  // (the document a lease's or a renewal's field belongs to: "lease_term" is labelled "Term", "New term")
  'lease',
  'tenancy',
  'renewal',
  // ("sales_tax" is labelled "Tax", "Estimated tax", "VAT")
  'sales',
  'name',
  'names',
  'full',
]);

/**
 * Words that make a label name a different thing than a field without them: "Seller address" is not the seller,
 * "Due date" not the amount due, "Payment terms" not the term, "Seller VAT" not the seller.
 */
const DISTINCT = new Set([
  'address',
  'date',
  'time',
  'phone',
  'tel',
  'fax',
  'email',
  'terms',
  'tax',
  'vat',
  'gst',
  // an amount with or without a tax is not the tax ("Total incl. GST" is no `tax_amount`)
  'including',
  'incl',
  'excluding',
  'excl',
]);
/** For an amount to pay: "Net amount", "Total VAT", "Subtotal", "Change", "Unit price" name another amount. */
const MONEY_WORDS = new Set(['total', 'amount', 'due', 'balance', 'paid', 'payable', 'price', 'cost']);
const DISTINCT_MONEY = new Set(['net', 'subtotal', 'discount', 'tip', 'change', 'deposit', 'shipping', 'unit']);

export const nameWords = (name: string): string[] =>
  name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);

/** A hotel stay's "check in" / "check out" in a field's name: its arrival / departure (round 6). */
const stayWords = (words: string[]): string[] =>
  words.flatMap((w, i) =>
    w === 'check' && (words[i + 1] === 'in' || words[i + 1] === 'out')
      ? [words[i + 1] === 'in' ? 'arrival' : 'departure']
      : (w === 'in' || w === 'out') && words[i - 1] === 'check'
        ? []
        : [w],
  );

const contentWords = (field: SchemaField): string[] =>
  stayWords(nameWords(field.path[field.path.length - 1]!)).filter((w) => !STOP.has(w) && !/^\d+$/.test(w));

/**
 * Words of a field's name that say what kind of value it is ("effective_date", "seller_name"): the value's kind
 * is checked by itself, so a label may leave them out ("Commencement: 1 May 2025", "Seller: Acme Ltd") when the
 * name has another word.
 */
const KIND = new Set(['date', 'name', 'names', 'range', 'amount', 'paid']);

/** The name's words split in the ones a label must have and the ones it may leave out (context, kind). */
const splitWords = (field: SchemaField): { required: string[]; optional: string[] } => {
  const words = contentWords(field);
  // "number_of_users": a count of users is labelled by what it counts ("Named Users | 40", "Poles: 4")
  const raw = nameWords(field.path[field.path.length - 1]!);
  const countOf = raw[0] === 'number' && raw[1] === 'of' && raw.length > 2;
  // ("temperature_range" keeps "range": with one other word it tells an operating range from a single limit;
  // "storage_temperature_range" is named by its other two)
  const others = words.filter((w) => !CONTEXT.has(w) && !KIND.has(w)).length;
  const isKind = (w: string) => (KIND.has(w) && (w !== 'range' || others >= 2)) || (countOf && w === 'number');
  const own = words.filter((w) => !CONTEXT.has(w) && !isKind(w));
  const kind = words.filter((w) => isKind(w));
  const required = own.length > 0 ? own : kind.length > 0 ? kind : words;
  return { required, optional: words.filter((w) => !required.includes(w)) };
};

/**
 * A field's words and their synonyms, as groups: a label matches a group when it has any word of it. Context
 * and kind words ("invoice", "name", "date") are left out when the name has another word (`optionalGroups`).
 */
export const wordGroups = (field: SchemaField): string[][] =>
  splitWords(field).required.map((w) => [w, ...(SYNONYMS[w] ?? [])]);

/** The words of a field's name that `wordGroups` leaves out (a label having them scores a little higher). */
const optionalGroups = (field: SchemaField): string[][] =>
  splitWords(field).optional.map((w) => [w, ...(SYNONYMS[w] ?? [])]);

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
export const labelScore = (field: SchemaField, label: string, asLabel = false): number => {
  // a label names what comes before "after"/"before"/"following"/"until": "Notice period after probation" is a
  // notice period, not the probation period (round 7); unless the field's own name has that word
  const time = asLabel ? /^(.+?)\s+(after|before|following|until)\s+\S.*$/i.exec(label.trim()) : null;
  if (time && !nameWords(field.path[field.path.length - 1]!).includes(time[2]!.toLowerCase()))
    return labelScore(field, time[1]!, asLabel);
  // two parts joined by a hyphen after the label's head ("Dielectric strength coil-contact", "Insulation
  // resistance input-output") say between what it is measured, not what it is: a field word only there does not
  // name the field (a `contact_rating` is not labelled by "coil-contact"; round 7)
  if (asLabel) {
    const own = new Set(nameWords(field.path[field.path.length - 1]!));
    const between = /(?<=\S\s+)(\p{L}{4,})-(?:to-)?(\p{L}{4,})\s*$/u.exec(label.trim());
    if (between) {
      const head = label.trim().slice(0, between.index).trim();
      const parts = [between[1]!.toLowerCase(), between[2]!.toLowerCase()];
      const headWords = new Set(nameWords(head));
      if (parts.some((p) => own.has(p) && !headWords.has(p)) && !parts.every((p) => own.has(p)))
        return labelScore(field, head, asLabel);
    }
  }
  // "IP65" also reads as "ip": a code's letters name what it is
  const labelWords = tokens(label)
    .flatMap((t) => {
      const code = /^(\p{L}+)\d+$/u.exec(t);
      return code ? [t, code[1]!] : [t];
    })
    .filter((t) => /\p{L}/u.test(t));
  const have = new Set(labelWords);
  // an abbreviation: a label word of three letters or more cut short with a full stop ("Operating temp. range",
  // "Amb. temp.", "Inv. No.") stands for the field's words it begins
  const dotted = [
    ...label
      .normalize('NFKC')
      .toLowerCase()
      .matchAll(/(?<![\p{L}\p{N}])(\p{L}+)\.(?!\p{L})/gu),
  ].map((m) => m[1]!);
  const cut = dotted.filter((d) => d.length >= 3);
  // a synonym written with its full stop ("no.", "max.") is that word printed with one
  // (a word of four letters or more inflected: "Filled" for `fill`, "discharged" for `discharge`)
  const inflected = (w: string) => w.length >= 4 && ['s', 'd', 'ed', 'ing'].some((e) => have.has(`${w}${e}`));
  const hasWord = (w: string) =>
    w.endsWith('.')
      ? dotted.includes(w.slice(0, -1))
      : have.has(w) || inflected(w) || cut.some((c) => w.length > c.length && w.startsWith(c));
  const groups = wordGroups(field);
  const context = optionalGroups(field);
  // a label naming another thing ("Seller address" for a seller, "Total VAT" for a total) is not this field's;
  // only for a label (`asLabel`): a snippet also holds its value ("Term: 2 years from the Effective Date")
  const fieldWords = new Set([...groups, ...context].flat());
  const money = contentWords(field).some((w) => MONEY_WORDS.has(w));
  // (a word cut short stands for the field's word it begins: "incl." for `including`)
  const inField = (w: string) => fieldWords.has(w) || (cut.includes(w) && [...fieldWords].some((f) => f.startsWith(w)));
  if (asLabel && labelWords.some((w) => (DISTINCT.has(w) || (money && DISTINCT_MONEY.has(w))) && !inField(w))) return 0;
  // (round 14) an identifier's label naming another thing's identifier: "Reg. No." or "Order No." is not an
  // `invoice_number` — the label's words besides the identifier's are none of the field's
  const own = nameWords(field.path[field.path.length - 1]!);
  if (asLabel && own.length >= 2 && ID_HEAD.test(own[own.length - 1]!)) {
    const rest = labelWords.filter((w) => !ID_HEAD.test(w) && !STOP.has(w) && /\p{L}{2}/u.test(w));
    if (rest.length > 0 && rest.every((w) => !inField(w))) return 0;
  }
  // the other end of a stay: "Check-out" or "Departure" is not an arrival, and the other way round
  const stay = contentWords(field);
  if (stay.includes('arrival') && (have.has('out') || have.has('departure'))) return 0;
  if (stay.includes('departure') && ((have.has('check') && have.has('in')) || have.has('arrival'))) return 0;
  const score = (groups: string[][], extra = 0): number => {
    if (groups.length === 0) return 0;
    const hits = groups.filter((g) => g.some(hasWord)).length;
    if (hits < Math.min(groups.length, 3)) return 0;
    const length = 0.7 + 0.3 * Math.min(1, (groups.length + extra) / Math.max(1, labelWords.length));
    return (hits / groups.length) * length;
  };
  const contextHits = context.filter((g) => g.some(hasWord)).length;
  // a label without the context words ("Total" for "invoice_total") scores a little lower than one with them
  const byName = score(groups, contextHits) * (context.length === 0 ? 1 : 0.9 + (0.1 * contextHits) / context.length);
  const hint = hintWords(field);
  const byHint = hint.length >= 2 ? score(hint.slice(0, 4).map((w) => [w, ...(SYNONYMS[w] ?? [])])) * 0.9 : 0;
  return Math.max(byName, byHint);
};

/**
 * Does a label print every one of the field's own words (not only their synonyms)? "Amount due" for `amount_due`
 * does, "Total charges" (matched by the synonym `total`) does not: among candidates, the field's words choose
 * (round 7).
 */
export const hasOwnWords = (field: SchemaField, label: string): boolean => {
  const groups = wordGroups(field);
  const have = new Set(tokens(label));
  return groups.length > 0 && groups.every((g) => have.has(g[0]!));
};

/** The threshold at which a label names a field. */
export const LABEL_MATCH = 0.5;

export const labelMatches = (field: SchemaField, text: string): boolean => labelScore(field, text) >= LABEL_MATCH;

/** A field's name words with their synonyms (a word printed with its full stop counts as the word). */
const nameWordSet = (field: SchemaField): Set<string> => {
  const words = nameWords(field.path[field.path.length - 1]!);
  return new Set(words.flatMap((w) => [w, ...(SYNONYMS[w] ?? [])]).map((w) => w.replace(/\.$/, '')));
};

/**
 * A label that prints part of one field's name and nothing else (issue 26, round 10): "Account" for
 * `account_number`, "Material" for `contact_material`, "Sensitivity" for `rx_sensitivity`. Taken only where the page
 * layout already says the text is a label with one value beside or under it (page-layout.ts), and only when no other
 * field of the schema has every one of its words ("Rent" with `annual_rent` and `rent_deposit` names neither).
 * Every word of the label (less STOP words) is a word of the field's name or a synonym of one; one of them has three
 * letters or more and is not a context word ("Order" alone is no order number); and it has the name's last word (the
 * thing the field is) unless that word says only that it is an identifier, a date or a name. Or the label has every
 * content word of the field's description when that has three or fewer ("Landlord" for `lessor`, "The landlord").
 */
export const partialLabel = (field: SchemaField, label: string, fields: readonly SchemaField[]): boolean => {
  const words = tokens(label)
    .map((w) => w.replace(/\.$/, ''))
    .filter((w) => /\p{L}/u.test(w) && !STOP.has(w));
  if (words.length === 0 || words.length > 4) return false;
  if (!words.some((w) => w.length >= 3 && !CONTEXT.has(w) && !KIND.has(w))) return false;
  // (a short description is the field's other name: "Landlord" for `lessor` described as "The landlord"; the
  // label has every content word of a description of at most three)
  const described = (f: SchemaField) => {
    const hint = hintWords(f);
    return hint.length > 0 && hint.length <= 3 && hint.every((w) => words.includes(w));
  };
  const covers = (f: SchemaField) => {
    const set = nameWordSet(f);
    return words.every((w) => set.has(w)) || described(f);
  };
  if (!covers(field)) return false;
  if (described(field))
    return !fields.some((f) => f !== field && f.path.join('.') !== field.path.join('.') && covers(f));
  // the label prints the thing the field is: the name's last word, unless that word only says it is an identifier
  // or its kind ("Account" for account_number; "Supply" is no supply_voltage, "Service charge" no service_charge_cap)
  const name = nameWords(field.path[field.path.length - 1]!).filter((w) => !STOP.has(w));
  const head = [...name].reverse().find((w) => !/^(?:number|no|num|id|ref|reference|code|date|name)$/.test(w));
  const set = new Set(words);
  if (head && !set.has(head) && !(SYNONYMS[head] ?? []).some((w) => set.has(w.replace(/\.$/, '')))) return false;
  return !fields.some((f) => f !== field && f.path.join('.') !== field.path.join('.') && covers(f));
};
