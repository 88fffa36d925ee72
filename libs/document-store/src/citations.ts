// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFile } from 'node:fs/promises';
import { AppError, type CitationMetaSchema } from '@lectern/contracts';
import { z } from 'zod';

/**
 * Spec 004 FR-006/FR-007: CSL-JSON references (a Zotero / Better BibTeX export) matched to documents, DOI first,
 * then normalised title with a configurable fuzzy threshold.
 *
 * Parsed with zod, not citation-js: no CSL library is installed here (the machine cannot add npm packages), and
 * matching needs only the CSL-JSON fields below, which zod validates exactly (CSL-JSON is plain JSON; no
 * BibTeX/RIS conversion or citation formatting is needed). The title similarity is hand-written for the same
 * reason: a Sørensen-Dice coefficient over character bigrams of the normalised titles, about 20 lines.
 */

type CitationMeta = z.infer<typeof CitationMetaSchema>;

const NameSchema = z
  .object({ family: z.string().optional(), given: z.string().optional(), literal: z.string().optional() })
  .passthrough();
const DateSchema = z
  .object({ 'date-parts': z.array(z.array(z.union([z.number(), z.string()]))).optional(), raw: z.string().optional() })
  .passthrough();

export const CslItemSchema = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    'citation-key': z.string().optional(),
    title: z.string().optional(),
    author: z.array(NameSchema).optional(),
    editor: z.array(NameSchema).optional(),
    issued: DateSchema.optional(),
    DOI: z.string().optional(),
    URL: z.string().optional(),
    /** Zotero exports tags as a comma-separated `keyword`. */
    keyword: z.string().optional(),
    tags: z.array(z.string()).optional(),
    collections: z.array(z.string()).optional(),
  })
  .passthrough();
export type CslItem = z.infer<typeof CslItemSchema>;

/** Bounds: a references file of at most 50 MB and 100,000 entries. */
const MAX_BYTES = 50 * 1024 * 1024;
const MAX_ITEMS = 100_000;

/** Read a CSL-JSON export (an array of items, or `{items: [...]}`); entries that are not CSL items are skipped and counted. */
export const readCslJson = async (path: string): Promise<{ items: CslItem[]; skipped: number }> => {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch {
    throw new AppError(
      'references_unreadable',
      `The references file ${path} cannot be read; citation enrichment is skipped for this run.`,
    );
  }
  if (raw.length > MAX_BYTES)
    throw new AppError('references_unreadable', `The references file ${path} is larger than 50 MB.`);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new AppError(
      'references_unreadable',
      `The references file ${path} is not JSON (export CSL JSON from your reference manager).`,
    );
  }
  const list = Array.isArray(json)
    ? json
    : json && typeof json === 'object' && Array.isArray((json as { items?: unknown }).items)
      ? (json as { items: unknown[] }).items
      : null;
  if (!list)
    throw new AppError('references_unreadable', `The references file ${path} is not a CSL-JSON list of items.`);
  const items: CslItem[] = [];
  let skipped = 0;
  for (const entry of list.slice(0, MAX_ITEMS)) {
    const parsed = CslItemSchema.safeParse(entry);
    if (parsed.success) items.push(parsed.data);
    else skipped++;
  }
  return { items, skipped: skipped + Math.max(0, list.length - MAX_ITEMS) };
};

const nameOf = (n: z.infer<typeof NameSchema>): string => n.literal ?? [n.family, n.given].filter(Boolean).join(', ');

const yearOf = (d: z.infer<typeof DateSchema> | undefined): number | undefined => {
  const first = d?.['date-parts']?.[0]?.[0];
  const y = typeof first === 'string' ? Number.parseInt(first, 10) : first;
  if (typeof y === 'number' && Number.isInteger(y)) return y;
  const m = d?.raw ? /\b(\d{4})\b/.exec(d.raw) : null;
  return m?.[1] ? Number(m[1]) : undefined;
};

/** The CitationMeta stored on every chunk of a matched document. */
export const citationMeta = (item: CslItem): CitationMeta => {
  const tags = [
    ...(item.tags ?? []),
    ...(item.keyword
      ? item.keyword
          .split(/[,;]/)
          .map((t) => t.trim())
          .filter(Boolean)
      : []),
  ];
  const year = yearOf(item.issued);
  const authors = (item.author ?? item.editor ?? []).map(nameOf).filter(Boolean);
  return {
    citekey: item['citation-key'] ?? item.id,
    ...(item.title ? { title: item.title } : {}),
    ...(authors.length ? { authors } : {}),
    ...(year !== undefined ? { year } : {}),
    ...(item.DOI ? { doi: normaliseDoi(item.DOI) } : {}),
    ...(item.URL ? { url: item.URL } : {}),
    ...(tags.length ? { tags: [...new Set(tags)] } : {}),
    ...(item.collections?.length ? { collections: item.collections } : {}),
  };
};

const DOI = /\b(10\.\d{4,9}\/[^\s"'<>]+)/gi;

export const normaliseDoi = (doi: string): string =>
  doi
    .trim()
    .replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:\s*)/i, '')
    .replace(/[.,;:)\]]+$/, '')
    .toLowerCase();

/** DOIs written in a text (the PDF's metadata or its first pages). */
export const doisIn = (text: string): string[] => [
  ...new Set([...text.matchAll(DOI)].map((m) => normaliseDoi(m[1] ?? ''))),
];

/** Letters NFKD does not decompose into a base letter and an accent. */
const FOLD: Record<string, string> = {
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  ı: 'i',
};

/**
 * Lower case, letters and digits only (any script), single spaces: accents folded (NFKD, then ø, ł, æ, ß, ... by
 * hand), ligatures split, `&` read as "and", every punctuation mark, dash and quote a space.
 */
export const normaliseTitle = (title: string): string =>
  title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øłđðþæœßı]/g, (c) => FOLD[c] ?? c)
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The same without spaces: "post examination" and "postexamination" (a hyphen or a line break read differently) agree. */
const compact = (normalised: string): string => normalised.replace(/ /g, '');

/**
 * An entry title's main title, before its subtitle (`Main: Subtitle`, `Main – Subtitle`, `Main - Subtitle`,
 * `Main. Subtitle`, `Main? Subtitle`), normalised; null when the title has no subtitle.
 */
export const mainTitle = (title: string): string | null => {
  const m = /^(.+?)(?:\s*[:;.?!]\s+|\s+[-\u2013\u2014]\s+|\s*[\u2013\u2014]\s*)\S/u.exec(title.trim());
  return m?.[1] ? normaliseTitle(m[1]) : null;
};

const MINOR = new Set(['a', 'an', 'the', 'of', 'and', 'for', 'to', 'in', 'on', 'at', 'by', 'with', 'or', 'from']);
const contentWords = (normalised: string): string[] => normalised.split(' ').filter((w) => w !== '' && !MINOR.has(w));

const bigrams = (s: string): Map<string, number> => {
  const out = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
};

/** Sørensen-Dice similarity of two normalised titles over character bigrams: 1 equal, 0 nothing shared. */
export const titleSimilarity = (a: string, b: string): number => {
  const x = normaliseTitle(a);
  const y = normaliseTitle(b);
  if (x === y) return x === '' ? 0 : 1;
  if (x.length < 2 || y.length < 2) return 0;
  const bx = bigrams(x);
  const by = bigrams(y);
  let shared = 0;
  for (const [g, n] of bx) shared += Math.min(n, by.get(g) ?? 0);
  return (2 * shared) / (x.length - 1 + (y.length - 1));
};

/** What is known of a document to match it. */
export interface MatchEvidence {
  /** The PDF's metadata (title, subject, doi, ...). */
  metadata: Record<string, string>;
  /** The converter's title (metadata or first heading). */
  title: string | null;
  /** Text of the first pages (DOIs and the printed title are looked for here). */
  firstPages: string;
  /** The first headings' titles. */
  headings: string[];
  filename: string;
}

export type CitationMatch =
  | { matched: true; by: 'doi' | 'title'; item: CslItem; citation: CitationMeta; score: number; candidate: string }
  | { matched: false; hint: string; closest: Array<{ citekey: string; title: string; score: number }> };

/**
 * Match a document to a references entry: a DOI found in its metadata or first pages equal to an entry's DOI
 * first; otherwise the best title evidence of each entry, accepted at or above `threshold`: its similarity to the
 * document's title candidates (metadata title, first headings, file name), also of its main title alone when the
 * entry carries a subtitle the document does not show; the entry title or main title printed on the first pages;
 * the share of its words (weighted by rarity among the entries) on the first page. Titles are compared normalised
 * (accents, ligatures, punctuation, dashes, `&`, hyphenation). Unmatched: a hint saying what was tried and the
 * closest candidates.
 */
export const matchCitation = (items: readonly CslItem[], doc: MatchEvidence, threshold: number): CitationMatch => {
  const dois = doisIn([...Object.values(doc.metadata), doc.firstPages].join('\n'));
  for (const doi of dois) {
    const item = items.find((i) => i.DOI && normaliseDoi(i.DOI) === doi);
    if (item) return { matched: true, by: 'doi', item, citation: citationMeta(item), score: 1, candidate: doi };
  }
  const stem = doc.filename.replace(/\.[^.]+$/, '').replace(/[_-]+/g, ' ');
  const candidates = [doc.title ?? '', doc.metadata['title'] ?? '', ...doc.headings.slice(0, 3), stem].filter(
    (c) => normaliseTitle(c).length >= 4,
  );
  const printed = normaliseTitle(doc.firstPages);
  const printedCompact = compact(printed);
  // The words of the first page or so, for the coverage of an entry title's words (a title printed over several
  // lines with other text between them, or with its words in another order).
  // The file name counts too: a title set as an image (a scanned letterhead) is often in the name the file was given.
  const printedWords = new Set(normaliseTitle(`${doc.firstPages.slice(0, 6000)} ${stem}`).split(' '));
  const titled = items.filter((i) => i.title);
  // A word shared by many entry titles ("statement", "plan") says less about which entry this is than a rare one.
  const df = new Map<string, number>();
  for (const i of titled)
    for (const w of new Set(contentWords(normaliseTitle(i.title ?? '')))) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w: string): number => Math.log(1 + titled.length / (df.get(w) ?? 1));
  const holds = (words: string, text: string, textCompact: string): boolean =>
    ` ${text} `.includes(` ${words} `) || (words.length >= 12 && textCompact.includes(compact(words)));
  const scored = titled
    .map((item) => {
      const title = item.title ?? '';
      const norm = normaliseTitle(title);
      const main = mainTitle(title);
      const mainWords = main ? main.split(' ').length : 0;
      let best = { score: 0, candidate: '', weight: 0, coverage: 0 };
      const offer = (score: number, candidate: string): void => {
        if (score > best.score) best = { ...best, score, candidate };
      };
      for (const c of candidates) {
        const nc = normaliseTitle(c);
        offer(titleSimilarity(title, c), c);
        // A candidate holding the whole entry title (at least three words) plus a subtitle or series label.
        if (norm.split(' ').length >= 3 && holds(norm, nc, compact(nc))) offer(0.95, c);
        // The document shows the main title only; the entry adds its subtitle (at least three words of main title).
        if (main && mainWords >= 3) {
          offer(0.97 * titleSimilarity(main, nc), c);
          if (holds(main, nc, compact(nc)) && nc.split(' ').length <= mainWords + 3) offer(0.93, c);
        }
      }
      // The full entry title printed on the first pages (at least four words, so short titles cannot match by accident).
      if (norm.split(' ').length >= 4 && holds(norm, printed, printedCompact)) offer(0.99, 'first pages');
      // Its main title printed there (at least four words), the subtitle elsewhere or not at all.
      if (main && mainWords >= 4 && holds(main, printed, printedCompact)) offer(0.93, 'first pages (main title)');
      // Most of its words, weighted by how rare each is among the entries, on the first page (at least three words).
      const words = [...new Set(contentWords(norm))];
      if (words.length >= 3) {
        const total = words.reduce((a, w) => a + idf(w), 0);
        const found = words.filter((w) => printedWords.has(w)).reduce((a, w) => a + idf(w), 0);
        const coverage = total > 0 ? found / total : 0;
        offer(0.96 * coverage * coverage, 'first pages (title words)');
        best.weight = found;
        best.coverage = Math.round(coverage * 100) / 100;
      }
      return { item, ...best };
    })
    // Equal scores: the entry more of whose (rarer) words the first page holds, i.e. the more specific title.
    .sort((a, b) => b.score - a.score || b.weight - a.weight);
  // A document often names a shorter entry's title in its own (a cabinet report on the Hot Food Takeaway SPD prints
  // "Hot Food Takeaway Supplementary Planning Document"): of the entries that pass, the one more of whose words
  // (weighted by rarity) the first page holds describes this document more specifically, so it is preferred: the
  // larger share of its own words on the page first, then the larger weight of them, then the score.
  const passing = scored.filter((s) => s.score >= threshold);
  // And an entry whose title words include all of the chosen one's and more (its title plus a subtitle) is preferred.
  const wordsOf = (i: CslItem): Set<string> => new Set(contentWords(normaliseTitle(i.title ?? '')));
  let top =
    passing.length > 0
      ? [...passing].sort((a, b) => b.coverage - a.coverage || b.weight - a.weight || b.score - a.score)[0]
      : scored[0];
  for (let moved = passing.length > 1; moved && top; ) {
    const have = wordsOf(top.item);
    const wider = passing.find((s) => {
      const w = wordsOf(s.item);
      return s !== top && w.size > have.size && [...have].every((x) => w.has(x));
    });
    moved = wider !== undefined;
    if (wider) top = wider;
  }
  if (top && top.score >= threshold) {
    return {
      matched: true,
      by: 'title',
      item: top.item,
      citation: citationMeta(top.item),
      score: top.score,
      candidate: top.candidate,
    };
  }
  const closest = scored.slice(0, 3).map((s) => ({
    citekey: s.item['citation-key'] ?? s.item.id,
    title: s.item.title ?? '',
    score: Math.round(s.score * 100) / 100,
  }));
  const tried = [
    dois.length ? `DOI ${dois.join(', ')} (no entry has it)` : 'no DOI in the metadata or first pages',
    `titles ${candidates.map((c) => JSON.stringify(c.slice(0, 80))).join(', ') || '(none found)'} at threshold ${threshold}`,
  ];
  const hint =
    `tried ${tried.join('; ')}. ` +
    (closest.length
      ? `Closest: ${closest.map((c) => `${c.citekey} "${c.title.slice(0, 60)}" (${c.score})`).join('; ')}. `
      : '') +
    'Add the DOI to the reference entry, correct its title, or lower the fuzzy threshold (--title-threshold).';
  return { matched: false, hint, closest };
};
