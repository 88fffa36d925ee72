// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Test double: the part of Qdrant's query semantics the adapter uses, evaluated in memory so the simulated
 * server can answer with data (filters, full-text match, formula, RRF, nearest). It is a stand-in for the
 * live server (run the contract with QDRANT_URL for the real thing); its stemmer only approximates snowball.
 */
export type Payload = Record<string, unknown>;
export interface SimPoint {
  id: string;
  vector: number[];
  payload: Payload;
}
type Json = Record<string, unknown>;

const fold = (s: string): string => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
const stem = (w: string): string => {
  for (const [suffix, min] of [
    ['ing', 3],
    ['ies', 3],
    ['es', 4],
    ['ed', 3],
    ['s', 3],
  ] as const) {
    if (w.endsWith(suffix) && w.length - suffix.length >= min)
      return suffix === 'ies' ? `${w.slice(0, -3)}y` : w.slice(0, -suffix.length);
  }
  return w;
};
export const tokens = (text: string): string[] =>
  (
    fold(text)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).map(stem);

const values = (p: Payload, key: string): unknown[] => {
  const v = p[key];
  return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
};

const fieldMatches = (p: SimPoint, c: Json): boolean => {
  const key = c['key'] as string;
  const vs = values(p.payload, key);
  const m = c['match'] as Json | undefined;
  if (m) {
    if ('value' in m) return vs.some((v) => v === m['value']);
    if ('any' in m) return vs.some((v) => (m['any'] as unknown[]).includes(v));
    if ('text' in m || 'text_any' in m) {
      const doc = new Set(vs.flatMap((v) => (typeof v === 'string' ? tokens(v) : [])));
      const q = tokens(String(m['text'] ?? m['text_any']));
      if (q.length === 0) return false;
      return 'text' in m ? q.every((t) => doc.has(t)) : q.some((t) => doc.has(t));
    }
    throw new Error(`match not simulated: ${JSON.stringify(m)}`);
  }
  const r = c['range'] as Json | undefined;
  if (r) {
    return vs.some(
      (v) =>
        typeof v === 'number' &&
        (r['gte'] === undefined || r['gte'] === null || v >= (r['gte'] as number)) &&
        (r['lte'] === undefined || r['lte'] === null || v <= (r['lte'] as number)) &&
        (r['gt'] === undefined || r['gt'] === null || v > (r['gt'] as number)) &&
        (r['lt'] === undefined || r['lt'] === null || v < (r['lt'] as number)),
    );
  }
  throw new Error(`condition not simulated: ${JSON.stringify(c)}`);
};

export const conditionHolds = (p: SimPoint, c: Json): boolean => {
  if ('has_id' in c) return (c['has_id'] as unknown[]).includes(p.id);
  if ('key' in c) return fieldMatches(p, c);
  return filterHolds(p, c);
};

export const filterHolds = (p: SimPoint, f: Json | null | undefined): boolean => {
  if (!f) return true;
  const list = (x: unknown): Json[] =>
    x === undefined || x === null ? [] : Array.isArray(x) ? (x as Json[]) : [x as Json];
  const must = list(f['must']);
  const should = list(f['should']);
  const mustNot = list(f['must_not']);
  return (
    must.every((c) => conditionHolds(p, c)) &&
    (should.length === 0 || should.some((c) => conditionHolds(p, c))) &&
    !mustNot.some((c) => conditionHolds(p, c))
  );
};

export const cosine = (a: number[], b: number[]): number => {
  let d = 0,
    na = 0,
    nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += (a[i] ?? 0) * (b[i] ?? 0);
    na += (a[i] ?? 0) ** 2;
    nb += (b[i] ?? 0) ** 2;
  }
  return d / (Math.sqrt(na) * Math.sqrt(nb) || 1);
};

const evalExpr = (e: unknown, p: SimPoint, score: number): number => {
  if (typeof e === 'number') return e;
  if (e === '$score') return score;
  const o = e as Json;
  if (Array.isArray(o['sum'])) return (o['sum'] as unknown[]).reduce<number>((s, x) => s + evalExpr(x, p, score), 0);
  if (Array.isArray(o['mult'])) return (o['mult'] as unknown[]).reduce<number>((s, x) => s * evalExpr(x, p, score), 1);
  return conditionHolds(p, o) ? 1 : 0;
};

export interface Scored {
  point: SimPoint;
  score: number;
}

const byId = (a: SimPoint, b: SimPoint): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Evaluates one QueryRequest / Prefetch over `points` (the collection), as Qdrant's Query API does. */
export const runQuery = (req: Json, points: SimPoint[]): Scored[] => {
  const limit = (req['limit'] as number | undefined) ?? 10;
  const prefetch =
    req['prefetch'] === undefined || req['prefetch'] === null
      ? []
      : ([] as Json[]).concat(req['prefetch'] as Json | Json[]);
  const filter = req['filter'] as Json | undefined;
  const query = req['query'] as unknown;
  const sources = prefetch.map((pf) => runQuery(pf, points));
  const candidates: Scored[] =
    prefetch.length === 0
      ? points
          .filter((p) => filterHolds(p, filter))
          .sort(byId)
          .map((point) => ({ point, score: 0 }))
      : [...new Map(sources.flat().map((s) => [s.point.id, s])).values()].filter((s) => filterHolds(s.point, filter));
  let out: Scored[];
  if (query === undefined || query === null) out = candidates;
  else if (Array.isArray(query)) {
    out = candidates
      .map((s) => ({ point: s.point, score: cosine(query as number[], s.point.vector) }))
      .sort((a, b) => b.score - a.score || byId(a.point, b.point));
  } else if ((query as Json)['formula']) {
    const f = (query as Json)['formula'];
    out = candidates
      .map((s) => ({ point: s.point, score: evalExpr(f, s.point, s.score) }))
      .sort((a, b) => b.score - a.score || byId(a.point, b.point));
  } else if ((query as Json)['rrf'] || (query as Json)['fusion'] === 'rrf') {
    const rrf = ((query as Json)['rrf'] ?? {}) as { k?: number; weights?: number[] };
    const k = rrf.k ?? 2; // Qdrant's default k
    const fused = new Map<string, Scored>();
    sources.forEach((list, i) =>
      list.forEach((s, pos) => {
        const prev = fused.get(s.point.id) ?? { point: s.point, score: 0 };
        prev.score += (rrf.weights?.[i] ?? 1) / (k + pos);
        fused.set(s.point.id, prev);
      }),
    );
    out = [...fused.values()].sort((a, b) => b.score - a.score || byId(a.point, b.point));
  } else throw new Error(`query not simulated: ${JSON.stringify(query)}`);
  return out.slice(0, limit);
};
