// SPDX-License-Identifier: AGPL-3.0-or-later
import { eng } from 'stopword';

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

/** bm25() column weights (text, title, section, codes): a word in the title or section path counts more. */
export const FIELD_WEIGHTS = { text: 1, title: 2, section: 1.5, codes: 1.5 } as const;

/**
 * Phrase credit: a candidate's keyword score gains `weight` times the weighted BM25 of the query's adjacent
 * content-word pairs found side by side in it (query-terms.ts `queryPhrases`), as in the sequential dependence model
 * (Metzler & Croft 2005), whose default weights give the word-pair features 0.15 against 0.85 for the single words:
 * 0.15 / 0.85 = 0.18. At full weight (a pair counted like one more query word, its IDF high because pairs are rare)
 * the pairs outweighed the words: planning-dev hit@1 fell 0.779 -> 0.735; at 0.18 answer@5 rose 0.809 -> 0.838
 * (docs/benchmarks/retrieval.md). Read at every search (the bench overrides it; 0 turns it off); embedded store only
 * (the Qdrant adapter's text index is not built for phrase matching).
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
 * answer@5 question (0.838). Read at every search (the bench overrides it; 0 turns it off); embedded store only,
 * like the phrase credit.
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
 * construction. Read at every search (the bench overrides it; 0 turns it off); embedded store only (the Qdrant
 * adapter has no second scoring pass).
 */
export const SHORT_CHUNK_DAMPING: { readonly exponent: number } = { exponent: 0.25 };

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
