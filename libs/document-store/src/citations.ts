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

/** Lower case, letters and digits only, single spaces (accents folded). */
export const normaliseTitle = (title: string): string =>
  title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

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
 * first; otherwise the best title similarity of the entry titles against the document's title candidates
 * (metadata title, first headings, file name, and the entry title printed on the first pages), accepted at or
 * above `threshold`. Unmatched: a hint saying what was tried and the closest candidates.
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
  const scored = items
    .filter((i) => i.title)
    .map((item) => {
      const title = item.title ?? '';
      const norm = normaliseTitle(title);
      let best = { score: 0, candidate: '' };
      for (const c of candidates) {
        let s = titleSimilarity(title, c);
        // A candidate holding the whole entry title (at least three words) plus a subtitle or series label.
        if (s < 0.95 && norm.split(' ').length >= 3 && ` ${normaliseTitle(c)} `.includes(` ${norm} `)) s = 0.95;
        if (s > best.score) best = { score: s, candidate: c };
      }
      // The full entry title printed on the first pages (at least four words, so short titles cannot match by accident).
      if (norm.split(' ').length >= 4 && ` ${printed} `.includes(` ${norm} `) && best.score < 0.99)
        best = { score: 0.99, candidate: 'first pages' };
      return { item, ...best };
    })
    .sort((a, b) => b.score - a.score);
  const top = scored[0];
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
