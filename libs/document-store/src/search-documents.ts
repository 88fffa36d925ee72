// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  ExtractionMethodSchema,
  type SearchApplicationDocsInput,
  type SearchApplicationDocsOutput,
} from '@lectern/contracts';
import { isSpaceCode } from '@lectern/runtime';
import type { Filter, Hit } from '@lectern/vector-store';
import type { z } from 'zod';
import type { SearchDeps } from './deps.js';
import { requireProjectCollection } from './project-collection.js';

export type SearchDocumentsInput = z.input<typeof SearchApplicationDocsInput>;
export type SearchDocumentsResult = z.infer<typeof SearchApplicationDocsOutput>;
export type SearchResultItem = SearchDocumentsResult['results'][number];
export type SearchMode = NonNullable<SearchDocumentsInput['search_mode']>;

/** Spec 000 FR-002's where clause: application_ref AND document_type $in, each optional. */
export const searchFilter = (
  input: Pick<SearchDocumentsInput, 'application_ref' | 'document_types'>,
): Filter | undefined => {
  const parts: Filter[] = [];
  if (input.application_ref) parts.push({ application_ref: input.application_ref });
  if (input.document_types?.length) parts.push({ document_type: { $in: input.document_types } });
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { $and: parts };
};

const round = (n: number): number => Math.round(n * 10_000) / 10_000;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);

/** "3,4,5" from spec 000's page_numbers, else from spec 004's page_start/page_end span, else "". */
const pageNumbers = (p: Record<string, unknown>): string => {
  if (typeof p['page_numbers'] === 'string') return p['page_numbers'];
  const start = count(p['page_start']);
  if (start === null || start === 0) return '';
  const end = Math.max(start, count(p['page_end']) ?? start);
  return Array.from({ length: Math.min(end - start + 1, 1000) }, (_, i) => String(start + i)).join(',');
};

/**
 * Spec 000 metadata of any chunk of a project: spec 000's own payload as stored; a chunk written by spec 002
 * (`source_filename`, `chunk_index`, `metadata`) or spec 004 (`document_id`, page span, `source_path`) gets the
 * fields it can derive and null for the rest, so a search over such a project answers instead of failing.
 */
export const searchMetadata = (p: Record<string, unknown>, text: string): SearchResultItem['metadata'] => {
  const nested =
    typeof p['metadata'] === 'object' && p['metadata'] !== null ? (p['metadata'] as Record<string, unknown>) : {};
  const sourceFile =
    str(p['source_file']) ?? str(p['source_filename']) ?? str(p['source_path']) ?? str(nested['title']) ?? '';
  const method = ExtractionMethodSchema.safeParse(p['extraction_method']);
  const words = text.trim() === '' ? 0 : text.trim().split(/\s+/).length;
  return {
    application_ref: str(p['application_ref']),
    document_id: str(p['document_id']) ?? str(p['source_filename']) ?? sourceFile,
    source_file: sourceFile.split(/[\\/]/).pop() ?? sourceFile,
    document_type: str(p['document_type']),
    page_numbers: pageNumbers(p),
    chunk_index: count(p['chunk_index']) ?? 0,
    total_chunks: count(p['total_chunks']),
    extraction_method: method.success ? method.data : null,
    char_count: count(p['char_count']) ?? text.length,
    word_count: count(p['word_count']) ?? words,
  };
};

/**
 * The hits without repeated text: of chunks whose text is the same (case and runs of whitespace aside), only the
 * first, best ranked, stays. Sibling documents share boilerplate word for word (five SPD adoption statements carry
 * one paragraph on legal challenge), and their copies filled a result list, pushing out the chunk that answered
 * (issue 25, planning-dev answer@5 0.838 -> 0.853; docs/benchmarks/retrieval.md). The copy kept is the one that ranks
 * best, so the document whose title and sections match the query keeps it. Exact copies only: overlapping chunks of
 * one document differ and all stay.
 */
export const distinctText = (hits: readonly Hit[]): Hit[] => {
  // Texts are compared by `sameTextKey` only when they agree on `contentLength` (which that key determines): the
  // key's lowercasing and whitespace regular expression over every hit's text were ~8 % of a query_hybrid call's
  // main-thread CPU at 12 hits of ~1 KB (docs/benchmarks/document-store.md, call cost round 4), and distinct texts
  // rarely agree on their length.
  const seen = new Map<number, { text: string; key?: string }[]>();
  return hits.filter((h) => {
    const n = contentLength(h.text);
    const same = seen.get(n);
    if (!same) {
      seen.set(n, [{ text: h.text }]);
      return true;
    }
    const key = sameTextKey(h.text);
    for (const other of same) if ((other.key ??= sameTextKey(other.text)) === key) return false;
    same.push({ text: h.text, key });
    return true;
  });
};

/** What `distinctText` compares: the text lowercased, runs of white space as one space, trimmed. */
export const sameTextKey = (text: string): string => text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The UTF-16 code units of `sameTextKey(text)` that are not spaces, counted without building it: collapsing and
 * trimming white space leaves every other code unit as it was, and lowercasing never makes or removes white space and
 * keeps each code unit's length but U+0130's (İ → i + U+0307). Two texts with the same key have the same count.
 */
export const contentLength = (text: string): number => {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isSpaceCode(c)) n += c === 0x130 ? 2 : 1;
  }
  return n;
};

/**
 * The keyword side's document evidence for spec 000's hybrid search (FusionOptions.documentEvidence and
 * documentEvidenceSpan, lexical.ts DOCUMENT_EVIDENCE / DOCUMENT_EVIDENCE_SPAN): a keyword candidate gains 0.05 x the
 * best score of its document's other candidates more than one chunk away (`span` 1: spec 000's 800-character chunks
 * overlap their neighbours by 200 characters, so the neighbour repeating the chunk's words is no evidence about the
 * document). Chosen on planning-dev and planning-heldout..-heldout4 (issue 25, round 11, docs/benchmarks/retrieval.md):
 * with any other chunk counting (round 10) planning-dev hit@1 fell 0.838 -> 0.824; with span 1 it holds and
 * heldout4 gains a hit@1 question; SciFact (one chunk per abstract) is unchanged by construction. Hybrid mode only
 * (keyword mode keeps plain BM25). Read at every search (the bench overrides it; weight 0 turns it off).
 */
export const SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE: { readonly weight: number; readonly span: number } = {
  weight: 0.05,
  span: 1,
};

/**
 * The dense depth for spec 000's hybrid search (FusionOptions.denseDepth, `FUSION_DEFAULTS.denseDepth`): only the
 * dense list's first 7 candidates carry dense evidence, so a chunk the dense side ranks 10th-100th (a cosine barely
 * above the pool's mean) no longer decides a keyword near-tie. Chosen offline on planning-dev, planning-heldout..
 * -heldout4 and SciFact train (issue 25, round 12, docs/benchmarks/retrieval.md): hybrid below its keyword mode on
 * 13 set x metric cells of nine planning sets before, 11 after; heldout8 nDCG@10 0.693 -> 0.704; SciFact train
 * nDCG@10 0.7074 -> 0.7075. Asked for here only: spec 004's `query_hybrid` lost hit@1 questions with it. Read at
 * every search (the bench overrides it; null turns it off).
 */
export const SEARCH_DOCUMENTS_DENSE_DEPTH: { readonly depth: number | null } = { depth: 7 };

/**
 * Spec 000 FR-002, in two store calls: the collection, then one search. `relevance_score` is the spec's
 * `max(0, 1 - L2/2)` on unit vectors, i.e. the cosine similarity clipped at 0, in every mode with a dense
 * side (hybrid hits carry their own cosine). Results are ordered by `rank_score`, which each result reports:
 * in hybrid mode (the default) the fused score (z-score convex fusion of BM25 and dense, the measured default
 * of `@lectern/vector-store`), which measurably finds more, so a later result may have a higher
 * relevance_score; in semantic mode the cosine. Keyword-only results carry the keyword score normalised to
 * 0-1 by the best hit as both scores. A chunk whose text repeats a better-ranked one is left out (`distinctText`),
 * so up to `max_results` distinct texts are answered. Any project can be searched: chunks written by spec 002 or 004 get
 * derived or null metadata (`searchMetadata`).
 */
export const searchDocuments = async (
  deps: SearchDeps,
  input: SearchDocumentsInput,
): Promise<SearchDocumentsResult> => {
  if (input.query.trim() === '') throw new AppError('invalid_arguments', 'query must not be empty or whitespace');
  const project = input.project ?? deps.defaultProject;
  const mode = input.search_mode ?? 'hybrid';
  const collection = await requireProjectCollection(deps, project);
  if (!collection) return { status: 'success', query: input.query, results_count: 0, results: [] };
  const filter = searchFilter(input);
  const wanted = input.max_results ?? 10;
  // Room for the copies `distinctText` drops: twice the results asked for (at most 200, the store takes 1,000).
  const limit = wanted * 2;

  let hits: Hit[];
  let score: (h: Hit) => number;
  let rank: (h: Hit) => number;
  if (mode === 'keyword') {
    hits = await deps.store.searchKeyword(collection.name, input.query, { limit, ...(filter ? { filter } : {}) });
    const best = hits[0]?.score ?? 1;
    score = (h) => (best > 0 ? h.score / best : 0);
    rank = score;
  } else {
    const embedder = await deps.embedders.for(collection.fingerprint);
    const vector = await embedder.embed(input.query);
    const opts = { fingerprint: collection.fingerprint, limit, ...(filter ? { filter } : {}) };
    if (mode === 'semantic' || !collection.hybrid) {
      hits = await deps.store.searchDense(collection.name, vector, opts);
      score = (h) => h.score;
    } else {
      hits = await deps.store.searchHybrid(
        collection.name,
        { vector, text: input.query },
        {
          ...opts,
          documentEvidence: SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE.weight,
          documentEvidenceSpan: SEARCH_DOCUMENTS_DOCUMENT_EVIDENCE.span,
          denseDepth: SEARCH_DOCUMENTS_DENSE_DEPTH.depth,
        },
      );
      score = (h) => h.denseScore ?? 0;
    }
    rank = (h) => h.score;
  }
  // The store answers best first; the stable sort only makes "ordered by rank_score" hold by construction.
  const results: SearchResultItem[] = distinctText([...hits].sort((a, b) => rank(b) - rank(a)))
    .slice(0, wanted)
    .map((h) => ({
      chunk_id: h.id,
      text: h.text,
      relevance_score: round(score(h)),
      rank_score: round(rank(h)),
      metadata: searchMetadata(h.payload, h.text),
    }));
  return { status: 'success', query: input.query, results_count: results.length, results };
};
