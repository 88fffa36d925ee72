import type { QdrantClient, Schemas } from '@qdrant/js-client-rest';
import { fuse, type FusionParams, type Scored } from '../fusion.js';
import type { Hit } from '../vector-store.port.js';
import { ID_KEY, pointUuid, splitPayload } from './qdrant-support.js';

/** The adapter's request runner (retries, error mapping). */
export type Call = <T>(what: string, fn: (c: QdrantClient) => Promise<T>) => Promise<T>;

const idsOnly = { with_payload: { include: [ID_KEY] } };

/**
 * Client-side fusion (the default z-score fusion, which Qdrant does not offer; also RRF when there is no keyword
 * side): both candidate lists with their scores (ids only) in one Query API batch, fused by the same `fuse` as
 * the embedded store, then one scroll for the payloads of the fused top only.
 */
export const clientFusion = async (
  call: Call, physical: string, dense: Schemas['QueryRequest'], keyword: Schemas['QueryRequest'] | null, p: FusionParams, limit: number,
): Promise<Hit[]> => {
  const searches = [{ ...dense, ...idsOnly }, ...(keyword ? [{ ...keyword, ...idsOnly }] : [])];
  const results = await call('query batch', (cl) => cl.queryBatch(physical, { searches }));
  // Keyword hits scoring 0 are dropped, as `searchKeyword` does.
  const scored = (i: number): Scored[] =>
    (results[i]?.points ?? []).filter((x) => i === 0 || x.score > 0).map((x) => ({ id: splitPayload(x.payload).id, score: x.score }));
  const fused = fuse(scored(0), scored(1), p, limit);
  if (fused.length === 0) return [];
  const page = await call('scroll', (cl) =>
    cl.scroll(physical, { filter: { must: [{ has_id: fused.map((f) => pointUuid(f.id)) }] }, limit: fused.length, with_payload: true }),
  );
  const byId = new Map(page.points.map((r) => [splitPayload(r.payload).id, r]));
  return fused.flatMap((f) => {
    const r = byId.get(f.id);
    if (!r) return []; // deleted meanwhile
    const s = splitPayload(r.payload);
    const ranks = { ...(f.denseRank ? { denseRank: f.denseRank } : {}), ...(f.keywordRank ? { keywordRank: f.keywordRank } : {}) };
    return [{ id: s.id, score: f.score, payload: s.payload, text: s.text, ...ranks }];
  });
};

/**
 * RRF on the server: one Query API batch, the fused query (prefetch dense + keyword, weighted RRF) and the two
 * prefetches alone, whose order gives each hit's component ranks.
 */
export const serverRrf = async (
  call: Call, physical: string, dense: Schemas['QueryRequest'], keyword: Schemas['QueryRequest'], p: FusionParams, limit: number,
): Promise<Hit[]> => {
  const searches: Schemas['QueryRequest'][] = [
    {
      prefetch: [{ ...dense }, { prefetch: keyword.prefetch, query: keyword.query, limit: p.candidates }],
      // Qdrant's RRF is weight / (k + position) with 0-based positions: k + 1 gives the 1-based formula.
      query: { rrf: { k: p.rrfK + 1, weights: [p.denseWeight, p.keywordWeight] } },
      limit,
      with_payload: true,
    },
    { ...dense, ...idsOnly },
    { ...keyword, ...idsOnly },
  ];
  const results = await call('query batch', (cl) => cl.queryBatch(physical, { searches }));
  const idsOf = (i: number): string[] => (results[i]?.points ?? []).map((x) => splitPayload(x.payload).id);
  const denseRank = new Map(idsOf(1).map((id, i) => [id, i + 1]));
  const keywordRank = new Map(idsOf(2).map((id, i) => [id, i + 1]));
  return (results[0]?.points ?? []).map((x) => {
    const s = splitPayload(x.payload);
    const d = denseRank.get(s.id);
    const k = keywordRank.get(s.id);
    return { id: s.id, score: x.score, payload: s.payload, text: s.text, ...(d ? { denseRank: d } : {}), ...(k ? { keywordRank: k } : {}) };
  });
};
