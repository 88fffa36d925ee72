// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Scoring of one ranked list against one question. Planning questions are judged by document, page and key
 * phrase; SciFact queries by BEIR's document judgments. Pure functions, so the "lexical" helper's tuning and the
 * report read the same numbers.
 */

/** One retrieved item as every system reports it: the document (a corpus key), its page span and its text. */
export interface Hit {
  /** Corpus key of the document: for planning a content hash of the PDF (copies of one file are one document), for SciFact the BEIR doc id. */
  doc: string;
  pageStart: number | null;
  pageEnd: number | null;
  text: string;
}

/** What a question is judged against. */
export interface Judgment {
  /** Relevant documents (planning: one; SciFact: the qrels, any of them). */
  docs: ReadonlySet<string>;
  /** Planning only: the 1-based page that answers it and the answer's key phrase as printed. */
  page?: number;
  keyPhrase?: string;
}

export interface QuestionScore {
  ndcg10: number;
  hit1: number;
  answer5: number;
  mrr: number;
}

/**
 * Text normalised for phrase matching: Unicode compatibility forms, lower case, quotes and dashes unified, words
 * broken across lines by a hyphen joined, every run of non-alphanumerics one space.
 */
export const normalise = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/(\w)-\s*\n\s*(\w)/g, '$1$2')
    .replace(/[^a-z0-9£%]+/g, ' ')
    .trim();

const covers = (hit: Hit, page: number): boolean =>
  hit.pageStart !== null && page >= hit.pageStart && page <= (hit.pageEnd ?? hit.pageStart);

/** The hit holds the answer: right document, its page span covers the answer page, the key phrase in its text. */
export const answerBearing = (hit: Hit, j: Judgment): boolean =>
  j.docs.has(hit.doc) &&
  (j.page === undefined || covers(hit, j.page)) &&
  (j.keyPhrase === undefined || normalise(hit.text).includes(normalise(j.keyPhrase)));

/**
 * Scores one ranked list (best first; at least the top 10).
 * - Planning (judgment has a page): the unit is the answer page. nDCG@10 counts the first hit of the right
 *   document whose span covers that page (gain 1, ideal DCG 1: the page is found once, later chunks of it add
 *   nothing); MRR is 1/rank of the first answer-bearing hit in the top 10; hit@1 is "right document first";
 *   answer@5 is "an answer-bearing hit in the top 5".
 * - SciFact (no page): the list is collapsed to documents (a document ranks at its best chunk), nDCG@10 with
 *   binary gains over the qrels (BEIR's definition), MRR@10 and hit@1 on the first relevant document, answer@5
 *   "a relevant document in the top 5".
 */
export const scoreQuestion = (ranked: readonly Hit[], j: Judgment): QuestionScore => {
  if (j.page !== undefined) {
    const top = ranked.slice(0, 10);
    const pageRank = top.findIndex((h) => j.docs.has(h.doc) && covers(h, j.page as number));
    const answerRank = top.findIndex((h) => answerBearing(h, j));
    return {
      ndcg10: pageRank >= 0 ? 1 / Math.log2(pageRank + 2) : 0,
      hit1: ranked[0] !== undefined && j.docs.has(ranked[0].doc) ? 1 : 0,
      answer5: answerRank >= 0 && answerRank < 5 ? 1 : 0,
      mrr: answerRank >= 0 ? 1 / (answerRank + 1) : 0,
    };
  }
  const docs = [...new Set(ranked.map((h) => h.doc))].slice(0, 10);
  let dcg = 0;
  docs.forEach((d, i) => {
    if (j.docs.has(d)) dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(10, j.docs.size); i++) idcg += 1 / Math.log2(i + 2);
  const first = docs.findIndex((d) => j.docs.has(d));
  return {
    ndcg10: idcg > 0 ? dcg / idcg : 0,
    hit1: first === 0 ? 1 : 0,
    answer5: first >= 0 && first < 5 ? 1 : 0,
    mrr: first >= 0 ? 1 / (first + 1) : 0,
  };
};

export const meanScores = (scores: readonly QuestionScore[]): QuestionScore => {
  const n = Math.max(1, scores.length);
  const sum = (k: keyof QuestionScore) => scores.reduce((s, q) => s + q[k], 0) / n;
  return { ndcg10: sum('ndcg10'), hit1: sum('hit1'), answer5: sum('answer5'), mrr: sum('mrr') };
};
