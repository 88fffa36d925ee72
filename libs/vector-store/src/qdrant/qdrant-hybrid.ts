// SPDX-License-Identifier: AGPL-3.0-or-later
import type { QdrantClient, Schemas } from '@qdrant/js-client-rest';
import { fuse, type FusionParams, type Scored } from '../fusion.js';
import type { Hit } from '../vector-store.port.js';
import { stemmer } from 'stemmer';
import { DENSE, ID_KEY, TEXT_KEY, pointUuid, splitPayload } from './qdrant-support.js';

/** The adapter's request runner (retries, error mapping). */
export type Call = <T>(what: string, fn: (c: QdrantClient) => Promise<T>) => Promise<T>;

const idsOnly = { with_payload: { include: [ID_KEY] } };

/** The payload keys the keyword side's second pass reads (lexical.ts `secondPass`): text, document, header and position. */
export const SECOND_PASS_KEYS = [ID_KEY, TEXT_KEY, 'document_id', 'running_header', 'chunk_index'];

/** A point's text length in characters (code points, as SQLite's length() counts them in the embedded store). */
export const charLength = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/**
 * The Qdrant adapter's phrase-match score of a text (the embedded store's is FTS5's bm25() of the pairs as phrases;
 * Qdrant's text index here is not built for phrase matching): for each of the query's adjacent content-word pairs
 * (Porter stems) found side by side in the text, the sum of its two words' IDF, which is the pair's own IDF if the
 * words occurred independently. Binary in the pair, as this adapter's keyword score is binary in the word.
 */
export const pairMatchScore = (
  text: string,
  pairs: readonly (readonly [string, string])[],
  idf: (stem: string) => number,
): number => {
  if (pairs.length === 0) return 0;
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => stemmer(w));
  const seen = new Set<string>();
  for (let i = 0; i + 1 < words.length; i++) seen.add(`${words[i]} ${words[i + 1]}`);
  let score = 0;
  for (const [a, b] of pairs) if (seen.has(`${a} ${b}`)) score += idf(a) + idf(b);
  return score;
};

/** Cosine of the (unit) query with a stored dense vector (Qdrant keeps Cosine vectors normalised), clipped at 0. */
const cosineWith = (query: number[], stored: unknown): number | undefined => {
  const v = (stored as Record<string, number[]> | null | undefined)?.[DENSE];
  if (!Array.isArray(v)) return undefined;
  let dot = 0;
  let qn = 0;
  let vn = 0;
  for (let i = 0; i < query.length; i++) {
    dot += (query[i] ?? 0) * (v[i] ?? 0);
    qn += (query[i] ?? 0) ** 2;
    vn += (v[i] ?? 0) ** 2;
  }
  return Math.max(0, dot / (Math.sqrt(qn * vn) || 1));
};

/** Each hit's cosine (from its candidate score, else from its stored vector) and keyword score. */
const componentScores = (
  id: string,
  denseScores: Map<string, number>,
  keywordScores: Map<string, number>,
  query: number[],
  storedVector: unknown,
): { denseScore?: number; keywordScore?: number } => {
  const d = denseScores.get(id) ?? cosineWith(query, storedVector);
  const k = keywordScores.get(id);
  return {
    ...(d !== undefined ? { denseScore: Math.max(0, d) } : {}),
    ...(k !== undefined ? { keywordScore: k } : {}),
  };
};

/**
 * Client-side fusion (the default z-score fusion, which Qdrant does not offer; also RRF when there is no keyword
 * side): both candidate lists with their scores (ids only) in one Query API batch, fused by the same `fuse` as
 * the embedded store, then one scroll for the payloads of the fused top only.
 */
export const clientFusion = async (
  call: Call,
  physical: string,
  dense: Schemas['QueryRequest'],
  keyword: Schemas['QueryRequest'] | null,
  p: FusionParams,
  limit: number,
  keywordPass: (points: Schemas['ScoredPoint'][]) => Promise<Scored[]>,
): Promise<Hit[]> => {
  const searches = [
    { ...dense, ...idsOnly },
    ...(keyword ? [{ ...keyword, with_payload: { include: SECOND_PASS_KEYS } }] : []),
  ];
  const results = await call('query batch', (cl) => cl.queryBatch(physical, { searches }));
  const denseList = (results[0]?.points ?? []).map((x) => ({ id: splitPayload(x.payload).id, score: x.score }));
  // Keyword hits scoring 0 are dropped, as `searchKeyword` does; the rest go through the second pass.
  const keywordList = keyword ? await keywordPass((results[1]?.points ?? []).filter((x) => x.score > 0)) : [];
  const fused = fuse(denseList, keywordList, p, limit);
  if (fused.length === 0) return [];
  const denseScores = new Map(denseList.map((d) => [d.id, d.score]));
  const keywordScores = new Map(keywordList.map((k) => [k.id, k.score]));
  // Vectors only when a fused hit was no dense candidate (its cosine is computed here, not searched again).
  const needVectors = fused.some((f) => !denseScores.has(f.id));
  const page = await call('scroll', (cl) =>
    cl.scroll(physical, {
      filter: { must: [{ has_id: fused.map((f) => pointUuid(f.id)) }] },
      limit: fused.length,
      with_payload: true,
      with_vector: needVectors ? [DENSE] : false,
    }),
  );
  const query = dense.query as number[];
  const byId = new Map(page.points.map((r) => [splitPayload(r.payload).id, r]));
  return fused.flatMap((f) => {
    const r = byId.get(f.id);
    if (!r) return []; // deleted meanwhile
    const s = splitPayload(r.payload);
    const ranks = {
      ...(f.denseRank ? { denseRank: f.denseRank } : {}),
      ...(f.keywordRank ? { keywordRank: f.keywordRank } : {}),
    };
    return [
      {
        id: s.id,
        score: f.score,
        payload: s.payload,
        text: s.text,
        ...ranks,
        ...componentScores(s.id, denseScores, keywordScores, query, r.vector),
      },
    ];
  });
};

/**
 * RRF on the server: one Query API batch, the fused query (prefetch dense + keyword, weighted RRF) and the two
 * prefetches alone, whose order gives each hit's component ranks.
 */
export const serverRrf = async (
  call: Call,
  physical: string,
  dense: Schemas['QueryRequest'],
  keyword: Schemas['QueryRequest'],
  p: FusionParams,
  limit: number,
): Promise<Hit[]> => {
  const searches: Schemas['QueryRequest'][] = [
    {
      prefetch: [{ ...dense }, { prefetch: keyword.prefetch, query: keyword.query, limit: p.candidates }],
      // Qdrant's RRF is weight / (k + position) with 0-based positions: k + 1 gives the 1-based formula.
      query: { rrf: { k: p.rrfK + 1, weights: [p.denseWeight, p.keywordWeight] } },
      limit,
      with_payload: true,
      with_vector: [DENSE],
    },
    { ...dense, ...idsOnly },
    { ...keyword, ...idsOnly },
  ];
  const results = await call('query batch', (cl) => cl.queryBatch(physical, { searches }));
  const listOf = (i: number): Scored[] =>
    (results[i]?.points ?? []).map((x) => ({ id: splitPayload(x.payload).id, score: x.score }));
  const denseList = listOf(1);
  const keywordList = listOf(2);
  const denseRank = new Map(denseList.map((d, i) => [d.id, i + 1]));
  const keywordRank = new Map(keywordList.map((k, i) => [k.id, i + 1]));
  const denseScores = new Map(denseList.map((d) => [d.id, d.score]));
  const keywordScores = new Map(keywordList.map((k) => [k.id, k.score]));
  const query = dense.query as number[];
  return (results[0]?.points ?? []).map((x) => {
    const s = splitPayload(x.payload);
    const d = denseRank.get(s.id);
    const k = keywordRank.get(s.id);
    const ranks = { ...(d ? { denseRank: d } : {}), ...(k ? { keywordRank: k } : {}) };
    return {
      id: s.id,
      score: x.score,
      payload: s.payload,
      text: s.text,
      ...ranks,
      ...componentScores(s.id, denseScores, keywordScores, query, x.vector),
    };
  });
};
