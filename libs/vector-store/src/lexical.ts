// SPDX-License-Identifier: AGPL-3.0-or-later
import { eng } from 'stopword';
import { stemmer } from 'stemmer';
import { queryTerms } from './query-terms.js';

/**
 * The lexical side's fields and tokens, shared by both adapters (the embedded store's FTS5 columns, the Qdrant
 * adapter's second text index). A chunk is indexed as four fields:
 * - `text`: the chunk text;
 * - `title`: its document's title (the first present of `document_title`, `title`, `source_title`,
 *   `citation.title`, else `source_file` without its extension, `_`/`-` read as spaces);
 * - `section`: its section path (`section_path` joined, else `section_heading`, `section_title`, `section_ref`);
 * - `codes`: compound tokens for numbers and codes (see `codeTokens`), so that `MR-J5-60G4`, `2021–2041` or
 *   `Para 11` match as one unit, not only as their parts (which the text field still holds).
 */
export interface LexicalFields {
  title: string;
  section: string;
  codes: string;
}

/**
 * bm25() column weights (text, title, section, codes): a word in the title or section path counts more. A code's
 * compound token (`codes`) is evidence its parts already give in the text field ("2017/18" is "2017" and "18" there
 * too); it adds that they stand side by side, so it weighs less than a word: at 1.5 a table repeating the query's
 * year outranked the paragraph holding the question's other words (issue 25, round 9: planning-dev answer@5 0.853 ->
 * 0.868 and SciFact train hit@1 0.608 -> 0.611 at 0.5; docs/benchmarks/retrieval.md). The Qdrant adapter weighs a
 * code token's IDF by the same `codes`.
 */
export const FIELD_WEIGHTS = { text: 1, title: 2, section: 1.5, codes: 0.5 } as const;

/**
 * Phrase credit: a candidate's keyword score gains `weight` times the weighted BM25 of the query's adjacent
 * content-word pairs found side by side in it (query-terms.ts `queryPhrases`), as in the sequential dependence model
 * (Metzler & Croft 2005), whose default weights give the word-pair features 0.15 against 0.85 for the single words:
 * 0.15 / 0.85 = 0.18. At full weight (a pair counted like one more query word, its IDF high because pairs are rare)
 * the pairs outweighed the words: planning-dev hit@1 fell 0.779 -> 0.735; at 0.18 answer@5 rose 0.809 -> 0.838
 * (docs/benchmarks/retrieval.md). Read at every search (the bench overrides it; 0 turns it off). Applied by `secondPass`
 * in both adapters; the pair's score is each adapter's own (FTS5 phrase BM25; Qdrant: `pairMatchScore`).
 */
export const PHRASE_CREDIT: { readonly weight: number } = { weight: 0.18 };

/**
 * Running-header credit: a candidate's keyword score gains `weight` times the summed IDF of the distinct query words
 * (stemmed) found in its document's `running_header` payload (the running headers and footers the converter leaves
 * out of the page text; they often name the document better than its file name: "Coventry Local Plan – Proposed
 * Modifications, March 2017 Sustainability Appraisal" for "MOD14_SASEA_Final_Report___...pdf"). A document-level
 * signal, so it is added outside FTS5's bm25(): as a column it would share the row's length normalisation, and a
 * word every chunk of a document carries then lifts that document's shortest chunks (a 23-character heading) over
 * the one that answers (measured: planning-dev answer@5 0.853 -> 0.838 with the header in the title field). Binary
 * in the word (a header repeats its words on every page): BM25 with k1 -> 0. The weight is low because a header's
 * common words ("city", "council", "plan") are query words too: on planning-dev (sad-hybrid nDCG@10 / hit@1 /
 * answer@5 / MRR) 0 gives 0.788 / 0.794 / 0.853 / 0.619, 0.25 gives 0.790 / 0.794 / 0.853 / 0.621, 0.5 and 1 lose an
 * answer@5 question (0.838). Read at every search (the bench overrides it; 0 turns it off). Applied by `secondPass`
 * in both adapters.
 */
export const HEADER_CREDIT: { readonly weight: number } = { weight: 0.25 };

/**
 * Short-chunk damping inside a document: FTS5's bm25() normalises by the row's length with a fixed b = 0.75, so a
 * chunker's leftovers (a 233-character table caption, a 420-character legal notice, a footnote line) that carry the
 * query's words outrank the full paragraph of the same document that answers; a fixed-window index (the BM25 peer's
 * 800-character windows) has no such spread of lengths. Among the keyword candidates of one document, a chunk
 * shorter than the collection's mean chunk is ordered by its bm25() times (length / mean)^`exponent`, and the
 * document's bm25() scores go to its chunks in that order: the document's best score (and so its rank against
 * other documents) is unchanged, only which of its chunks holds it. Applied across documents instead (each chunk's
 * own damped score), planning-dev hit@1 fell 0.794 -> 0.750 (a short chunk that named the document was what put the
 * right document first). `exponent` 0.25 was chosen on planning-dev (0.5 lost answer@5 questions; see
 * docs/benchmarks/retrieval.md, round 4). A collection of one chunk per document (SciFact) is unchanged by
 * construction. Read at every search (the bench overrides it; 0 turns it off). Applied by `secondPass` in both
 * adapters (the Qdrant adapter's mean chunk length is over at most 10,000 points, cached a minute).
 */
export const SHORT_CHUNK_DAMPING: { readonly exponent: number } = { exponent: 0.25 };

/**
 * Document evidence (issue 25, round 10): a keyword candidate gains `weight` times the best score among the *other*
 * keyword candidates of its document (after the steps before it), so that of two chunks matching the query about
 * as well, the one whose document also matches elsewhere leads: a lone chunk of a document that is about something
 * else (a table row, a glossary entry, an adoption statement's boilerplate) gives way to a document the question is
 * about. 0 here: it is a per-search option (`FusionOptions.documentEvidence`), not a store default, because it held
 * on spec 004's heading chunks (`query_hybrid`: planning-dev hit@1 0.779 -> 0.809, answer@5 0.838 -> 0.868 at 0.05)
 * and not on spec 000's 800-character chunks, whose best other candidate is mostly the overlapping neighbour
 * (planning-dev hit@1 0.838 -> 0.824); docs/benchmarks/retrieval.md, round 10. A collection of one chunk per document
 * (SciFact) is unchanged by construction. Applied by `secondPass` in both adapters, over the candidates kept.
 */
export const DOCUMENT_EVIDENCE: { readonly weight: number } = { weight: 0 };

/**
 * Document evidence's span (issue 25, round 11): a candidate's evidence is the best score among its document's other
 * candidates more than `span` chunk positions (`chunk_index`) away from it, so a chunk's overlapping neighbour is no
 * evidence that the document is about the question: spec 000's 800-character chunks repeat 200 characters of the
 * chunk before, and with span 0 (every other chunk counts) the neighbour carrying the same words gave a lone passage
 * the same lift as a document that matches in two places (planning-dev hit@1 0.838 -> 0.824 at w 0.05; at span 1
 * 0.838, round 11). 0 (every other candidate counts): the default and `query_hybrid`'s (heading sections do not
 * overlap). A candidate without a position is apart from every other. Per search (`FusionOptions.documentEvidenceSpan`).
 */
export const DOCUMENT_EVIDENCE_SPAN: { readonly span: number } = { span: 0 };

/** The distinct lowercased words of a running header, at most 64 (the payload is bounded, this bounds the work). */
export const headerWords = (header: string): string[] =>
  [...new Set(header.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 64);

const STOPWORDS = new Set(eng);

/** Payload keys the title and section fields are read from: a payload patch touching one re-derives the fields. */
export const LEXICAL_PAYLOAD_KEYS = [
  'document_title',
  'title',
  'source_title',
  'citation',
  'source_file',
  'section_path',
  'section_heading',
  'section_title',
  'section_ref',
] as const;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const titleOf = (p: Record<string, unknown>): string => {
  const citation = p['citation'];
  const citationTitle =
    citation && typeof citation === 'object' ? str((citation as Record<string, unknown>)['title']) : '';
  const direct = str(p['document_title']) || str(p['title']) || str(p['source_title']) || citationTitle;
  if (direct) return direct;
  return str(p['source_file'])
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[_-]+/g, ' ');
};

const sectionOf = (p: Record<string, unknown>): string => {
  const path = p['section_path'];
  if (Array.isArray(path) && path.length > 0) return path.map(String).join(' / ');
  return str(p['section_heading']) || str(p['section_title']) || str(p['section_ref']);
};

// A code: word parts joined by hyphens, dashes, slashes or dots, with a digit somewhere (MR-J5-60G4, 2021–2041,
// 3.2.1, A/B/1). Hand-written: FTS5's unicode61 and Qdrant's word tokenizer both split these into parts, and a
// `tokenchars` option would stop "well-being" from matching "well being"; the compound goes in its own field.
const CODE = /[\p{L}\p{N}]+(?:[-\u2010-\u2015/.][\p{L}\p{N}]+)+/gu;
// A labelled number: a content word followed by a number (Para 11, Policy 5, Table 3.1, Appendix B2 is a code).
const LABELLED = /(\p{L}{1,16})\.?\s+(\d[\p{L}\p{N}]*(?:\.\d+)*)/gu;
const parts = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Compound tokens for the codes and labelled numbers in `text`: parts lowercased and joined ("mrj560g4",
 * "20212041", "para11"), de-duplicated, in order of first appearance.
 */
export const codeTokens = (text: string): string[] => {
  const out = new Set<string>();
  for (const m of text.matchAll(CODE)) {
    if (/\d/.test(m[0])) out.add(parts(m[0]).join(''));
  }
  for (const m of text.matchAll(LABELLED)) {
    const word = (m[1] ?? '').toLowerCase();
    if (!STOPWORDS.has(word)) out.add(word + parts(m[2] ?? '').join(''));
  }
  return [...out];
};

/** The lexical fields of one chunk (its text is the fourth, indexed as is). */
export const lexicalFields = (payload: Record<string, unknown>, text: string): LexicalFields => {
  const title = titleOf(payload);
  const section = sectionOf(payload);
  return { title, section, codes: codeTokens(`${text}\n${title}\n${section}`).join(' ') };
};

/**
 * One keyword candidate as the second scoring pass reads it: its id, its first-pass keyword score (the adapter's
 * BM25: FTS5's weighted bm25() in the embedded store, the Σ IDF formula query in the Qdrant adapter), the length of
 * its text in characters (null: unknown, not damped), its `document_id` (as a string; absent: its own document),
 * its `running_header` payload (absent or null: none) and its phrase-match score for the query's adjacent word pairs
 * (0 or absent: none; each adapter scores the pairs with its own index, as it scores the words).
 */
export interface KeywordCandidate<I> {
  id: I;
  score: number;
  length: number | null;
  documentId?: string | undefined;
  header?: string | null | undefined;
  phrase?: number | undefined;
  /** Its position in its document (`chunk_index`; absent: unknown, apart from every other chunk). */
  position?: number | undefined;
}

/** What the second pass needs of the collection and the query. */
export interface SecondPassContext {
  /** The query text (the header credit reads its words). */
  query: string;
  /** The collection's mean chunk text length in characters (0 or less: no damping). */
  meanLength: number;
  /** The collection's BM25 IDF of a Porter stem (FTS5's formula, `bm25Idf`), called only for query words. */
  idf: (stem: string) => number;
  /** How many candidates to keep (the candidates given may be more: the damping's pool). */
  limit: number;
  /** Overrides of SHORT_CHUNK_DAMPING.exponent, PHRASE_CREDIT.weight and HEADER_CREDIT.weight (read at each call). */
  damping?: number;
  phraseWeight?: number;
  headerWeight?: number;
  /** The document-evidence weight (DOCUMENT_EVIDENCE; 0 or absent: the default, off). */
  documentEvidence?: number;
  /** Chunks within this many positions of a candidate are not its evidence (DOCUMENT_EVIDENCE_SPAN; 0: none left out). */
  documentEvidenceSpan?: number;
}

/** FTS5's BM25 IDF of a term found in `n` of `total` chunks: ln((N - n + 0.5) / (n + 0.5)), at least 1e-6. */
export const bm25Idf = (total: number, n: number): number => Math.max(1e-6, Math.log((total - n + 0.5) / (n + 0.5)));

/** How many candidates the first pass should fetch for `limit` results: twice as many while the damping is on. */
export const keywordPool = (limit: number): number => (SHORT_CHUNK_DAMPING.exponent > 0 ? 2 * limit : limit);

/**
 * The keyword side's second scoring pass, the same in both adapters: the candidates (best first, by first-pass
 * score) are re-scored in three steps, each re-sorting by the new score (a tie keeps the earlier order), and cut to
 * `limit`:
 * 1. short-chunk damping inside each document (SHORT_CHUNK_DAMPING): within a document's candidates a chunk shorter
 *    than the collection's mean is ordered by score x (length / mean)^exponent, and the document's scores go to its
 *    candidates in that order (its best score, and so its place against other documents, is unchanged); then cut;
 * 2. phrase credit (PHRASE_CREDIT): + weight x the candidate's phrase-match score;
 * 3. running-header credit (HEADER_CREDIT): + weight x the summed IDF of the distinct query words whose Porter stem
 *    is the stem of a word of the candidate's running header;
 * 4. document evidence (DOCUMENT_EVIDENCE, per search): + weight x the best score (after step 3) among the other
 *    kept candidates of the candidate's document (none without a `documentId`) more than `documentEvidenceSpan`
 *    positions away from it (DOCUMENT_EVIDENCE_SPAN; 0: any other).
 * Pure: the adapters gather the inputs (the embedded store from SQLite, the Qdrant adapter from the points' payloads
 * and its count requests) and both call this, so the same candidates come back in the same order with the same
 * scores whichever store holds them.
 */
export const secondPass = <I>(
  candidates: readonly KeywordCandidate<I>[],
  ctx: SecondPassContext,
): { id: I; score: number }[] => {
  const exponent = ctx.damping ?? SHORT_CHUNK_DAMPING.exponent;
  let found: { c: KeywordCandidate<I>; s: number }[] = (
    exponent > 0 ? dampInsideDocuments(candidates, ctx.meanLength, exponent, ctx.limit) : candidates.slice(0, ctx.limit)
  ).map((c) => ({ c, s: c.score }));
  const resort = (add: (c: KeywordCandidate<I>) => number): void => {
    found = found
      .map((r, i) => ({ r: { c: r.c, s: r.s + add(r.c) }, i }))
      .sort((a, b) => b.r.s - a.r.s || a.i - b.i)
      .map(({ r }) => r);
  };
  const phraseWeight = ctx.phraseWeight ?? PHRASE_CREDIT.weight;
  if (phraseWeight > 0 && found.some((r) => (r.c.phrase ?? 0) !== 0)) resort((c) => phraseWeight * (c.phrase ?? 0));
  const headerWeight = ctx.headerWeight ?? HEADER_CREDIT.weight;
  if (headerWeight > 0 && found.some((r) => typeof r.c.header === 'string')) {
    const words = [...new Set(queryTerms(ctx.query, 64).map((w) => stemmer(w)))];
    const credit = new Map<string, number>();
    const creditOf = (h: string): number => {
      let v = credit.get(h);
      if (v === undefined) {
        const stems = new Set(headerWords(h).map((w) => stemmer(w)));
        v = headerWeight * words.filter((w) => stems.has(w)).reduce((sum, w) => sum + ctx.idf(w), 0);
        credit.set(h, v);
      }
      return v;
    };
    if (found.some((r) => typeof r.c.header === 'string' && creditOf(r.c.header) > 0))
      resort((c) => (typeof c.header === 'string' ? creditOf(c.header) : 0));
  }
  const evidence = ctx.documentEvidence ?? DOCUMENT_EVIDENCE.weight;
  if (evidence > 0 && found.length > 1) {
    // A candidate's evidence: the best score among its document's other candidates more than `span` positions away
    // (any other at span 0): each document's candidates best first, the first that qualifies (a document holds a few).
    const span = ctx.documentEvidenceSpan ?? DOCUMENT_EVIDENCE_SPAN.span;
    const byDoc = new Map<string, { c: KeywordCandidate<I>; s: number }[]>();
    for (const r of found) {
      if (r.c.documentId === undefined) continue;
      const g = byDoc.get(r.c.documentId);
      if (g) g.push(r);
      else byDoc.set(r.c.documentId, [r]);
    }
    for (const g of byDoc.values()) g.sort((a, b) => b.s - a.s);
    const apart = (a: KeywordCandidate<I>, b: KeywordCandidate<I>): boolean =>
      span === 0 || a.position === undefined || b.position === undefined || Math.abs(a.position - b.position) > span;
    const other = (r: { c: KeywordCandidate<I>; s: number }): number => {
      const g = r.c.documentId === undefined ? undefined : byDoc.get(r.c.documentId);
      return g?.find((o) => o !== r && apart(o.c, r.c))?.s ?? 0;
    };
    const gains = new Map(found.map((r) => [r, evidence * Math.max(0, other(r))]));
    if ([...gains.values()].some((g) => g > 0)) {
      found = found
        .map((r, i) => ({ r: { c: r.c, s: r.s + (gains.get(r) ?? 0) }, i }))
        .sort((a, b) => b.r.s - a.r.s || a.i - b.i)
        .map(({ r }) => r);
    }
  }
  return found.map((r) => ({ id: r.c.id, score: r.s }));
};

/** Step 1 of `secondPass` (see there), cut to `limit`. */
const dampInsideDocuments = <I>(
  found: readonly KeywordCandidate<I>[],
  mean: number,
  exponent: number,
  limit: number,
): KeywordCandidate<I>[] => {
  if (found.length < 2 || !(mean > 0)) return found.slice(0, limit);
  const groups = new Map<string, { c: KeywordCandidate<I>; d: number; i: number }[]>();
  found.forEach((c, i) => {
    const n = c.length ?? mean;
    const doc = c.documentId ?? `\u0000${i}`;
    const damped = { c, d: n < mean ? c.score * Math.pow(Math.max(n, 1) / mean, exponent) : c.score, i };
    const g = groups.get(doc);
    if (g) g.push(damped);
    else groups.set(doc, [damped]);
  });
  if (groups.size === found.length) return found.slice(0, limit);
  const out: { c: KeywordCandidate<I>; s: number; i: number }[] = [];
  for (const g of groups.values()) {
    const scores = g.map((r) => r.c.score).sort((a, b) => b - a);
    [...g]
      .sort((a, b) => b.d - a.d || a.i - b.i)
      .forEach((r, j) => out.push({ c: r.c, s: scores[j] ?? r.c.score, i: r.i }));
  }
  return out
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, limit)
    .map(({ c, s }) => ({ ...c, score: s }));
};
