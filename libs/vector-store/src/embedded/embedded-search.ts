// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Statement } from 'better-sqlite3';
import type { Filter, Hit } from '../vector-store.port.js';
import type { DenseSearch } from './dense-index.js';
import { chunksTable, ftsTable, pointsTable, type Collection } from './embedded-schema.js';
import { compileFilter, ftsPhraseQuery, ftsQuery } from './sql-filter.js';
import { stemmer } from 'stemmer';
import {
  FIELD_WEIGHTS,
  HEADER_CREDIT,
  PHRASE_CREDIT,
  SHORT_CHUNK_DAMPING,
  bm25Idf,
  keywordPool,
  secondPass,
  type KeywordCandidate,
} from '../lexical.js';
import { queryTerms } from '../query-terms.js';

/** Prepared-statement source (the adapter's cache). */
export type Stmt = (sql: string) => Statement;

interface Row {
  rid: number;
  id: string;
  payload: string;
  text: string;
}

/**
 * Dense candidates as [rid, cosine], best first. With a filter, exact either way: first the global top-N
 * (N = max(20k, 200)) checked against the filter, which holds the true top-k whenever at least k of them
 * pass; otherwise the filter is evaluated over the collection and only the passing rows are ranked. The
 * first path avoids scanning every payload for broad filters (7 ms for a 40% filter at 10k points).
 */
export const denseCandidates = (
  stmt: Stmt,
  idx: DenseSearch,
  c: Collection,
  q: Float32Array,
  filter: Filter | undefined,
  k: number,
): [number, number][] => {
  if (filter === undefined) return idx.search(q, k);
  const f = compileFilter(filter);
  const n = Math.max(k * 20, 200);
  const top = idx.search(q, n);
  if (top.length > 0) {
    const pass = new Set(
      stmt(`SELECT rid FROM ${pointsTable(c.cid)} p WHERE p.rid IN (SELECT value FROM json_each(?)) AND ${f.sql}`)
        .pluck()
        .all(JSON.stringify(top.map(([rid]) => rid)), ...f.params) as number[],
    );
    const kept = top.filter(([rid]) => pass.has(rid));
    if (kept.length >= k || top.length < n) return kept.slice(0, k);
  }
  const allowed = stmt(`SELECT rid FROM ${pointsTable(c.cid)} p WHERE ${f.sql}`)
    .pluck()
    .all(...f.params) as number[];
  return idx.search(q, k, allowed);
};

/** bm25() over the four fields with their weights (lexical.ts), as an FTS5 rank function. */
const weights = (): string =>
  `${FIELD_WEIGHTS.text}, ${FIELD_WEIGHTS.title}, ${FIELD_WEIGHTS.section}, ${FIELD_WEIGHTS.codes}`;
let rankFor = { key: '', rank: '' };
/** `bm25(weights)`, read from FIELD_WEIGHTS at each search (the bench overrides them). */
const RANK = (): string => {
  const w = weights();
  if (rankFor.key !== w) rankFor = { key: w, rank: `bm25(${w})` };
  return rankFor.rank;
};
/** The same weighted bm25() called on a table (a second query over given rows, not through `rank`). */
const RANK_OF = (fts: string): string => `bm25(${fts}, ${weights()})`;

/**
 * BM25 (FTS5) candidates as [rid, score], best first; score = -bm25() > 0, the fields weighted (FIELD_WEIGHTS).
 * Ordered by FTS5's `rank` (the weighted bm25 set per query), which FTS5 computes once per match; without a
 * filter the points table is not joined at all (a JOIN before the LIMIT costs a lookup per matching chunk).
 */
export const keywordCandidates = (
  stmt: Stmt,
  c: Collection,
  text: string,
  filter: Filter | undefined,
  k: number,
): [number, number][] => {
  const leaveOut = commonTerms(stmt, c, text);
  const match = ftsQuery(text, leaveOut);
  if (match === null) return [];
  const fts = ftsTable(c.cid);
  // Damping lowers short chunks: the pool is twice the candidates so the ones it lifts past the cut are there.
  const pool = keywordPool(k);
  // `rank` is selected once, as the sort key, and negated here: `-rank` in the select list beside `ORDER BY rank`
  // made FTS5 compute the weighted bm25() twice per matching row (measured: 3.06 -> 2.94 ms per search at 10k
  // SciFact chunks; the same rows and scores, a double's negation being exact).
  let ranked: { rid: number; r: number }[];
  if (filter === undefined) {
    ranked = stmt(
      `SELECT rowid AS rid, rank AS r FROM ${fts} WHERE ${fts} MATCH ? AND rank MATCH ? ORDER BY r, rowid LIMIT ?`,
    ).all(match, RANK(), pool) as { rid: number; r: number }[];
  } else {
    const f = compileFilter(filter);
    ranked = stmt(
      `SELECT p.rid AS rid, ${fts}.rank AS r FROM ${fts} JOIN ${pointsTable(c.cid)} p ON p.rid = ${fts}.rowid
     WHERE ${fts} MATCH ? AND ${fts}.rank MATCH ? AND ${f.sql} ORDER BY r, p.rid LIMIT ?`,
    ).all(match, RANK(), ...f.params, pool) as { rid: number; r: number }[];
  }
  return secondPassOf(stmt, c, text, ftsPhraseQuery(text, leaveOut), ranked, k);
};

/**
 * The second pass alone over given first-pass candidates (rid and keyword score, best first), as `keywordCandidates`
 * runs it after its bm25() query: the parity spec feeds the same candidates to both adapters through this.
 */
export const keywordSecondPass = (
  stmt: Stmt,
  c: Collection,
  text: string,
  candidates: { rid: number; score: number }[],
  k: number,
): [number, number][] =>
  secondPassOf(
    stmt,
    c,
    text,
    ftsPhraseQuery(text, commonTerms(stmt, c, text)),
    candidates.map(({ rid, score }) => ({ rid, r: -score })),
    k,
  );

/**
 * The keyword candidates' second scoring pass (lexical.ts `secondPass`, the same function the Qdrant adapter calls):
 * this store's inputs are the candidates' bm25() (`-rank`), their text length, `document_id` and `running_header`
 * (chunkFacts), the collection's mean chunk length, FTS5's IDF of a stem and the weighted bm25() of the query's
 * word pairs as FTS5 phrases (phraseScores). Each input is read only when its step is on.
 */
const secondPassOf = (
  stmt: Stmt,
  c: Collection,
  text: string,
  phrases: string | null,
  ranked: { rid: number; r: number }[],
  k: number,
): [number, number][] => {
  const damping = SHORT_CHUNK_DAMPING.exponent;
  const damp = damping > 0 && ranked.length >= 2;
  const mean = damp ? meanLengthOf(stmt, c) : 0;
  const needFacts = (damp && mean > 0) || (HEADER_CREDIT.weight > 0 && ranked.length > 0);
  const facts = needFacts
    ? chunkFacts(
        stmt,
        c,
        ranked.map((r) => r.rid),
      )
    : new Map<number, ChunkFacts>();
  const phrase =
    PHRASE_CREDIT.weight > 0 && phrases !== null && ranked.length > 0
      ? phraseScores(stmt, ftsTable(c.cid), phrases, new Set(ranked.map((r) => r.rid)))
      : new Map<number, number>();
  const candidates: KeywordCandidate<number>[] = ranked.map(({ rid, r }) => {
    const f = facts.get(rid);
    // A point without a chunk row (n null) is read as the inner join of chunks and points read it: its own document.
    const known = f !== undefined && f.n !== null ? f : undefined;
    return {
      id: rid,
      score: -r,
      length: known?.n ?? null,
      documentId: known?.d,
      header: f?.h ?? null,
      phrase: phrase.get(rid) ?? 0,
    };
  });
  let stats: ReturnType<typeof termStatsOf> | undefined;
  return secondPass(candidates, {
    query: text,
    meanLength: mean,
    idf: (stem) => {
      stats ??= termStatsOf(stmt, c);
      return bm25Idf(stats.chunks, stats.dfOf(stem));
    },
    limit: k,
    damping,
  }).map((r) => [r.id, r.score]);
};

const meanLength = new WeakMap<Stmt, Map<number, { version: number; mean: number }>>();

/**
 * What the damping and the header credit read of a candidate: its text's length in characters (`n`, null when the
 * point has no chunk row), its `document_id` payload value as a string (`d`, when a string or a number) and its
 * `running_header` (`h`, when a string). Absent from the map: no such point.
 */
interface ChunkFacts {
  n: number | null;
  d: string | undefined;
  h: string | null;
}

/**
 * A connection's cache of ChunkFacts per collection and rid, valid for one collection version: every write of the
 * collection's points bumps it (upserts, deletes, payload patches), in any process. Not SQLite's `data_version`: the
 * retrieval audit commits to the same file in batches, which would empty the cache every few calls. A hybrid
 * search reads these facts for its 200 keyword candidates (0.5 ms of SQL at 10k chunks, most of a search's damping
 * cost); searches of one collection share most of their candidates, so a warm cache answers them without SQL. At
 * most FACTS_CACHE.max entries per connection (then it starts again).
 */
export const FACTS_CACHE: { readonly enabled: boolean; readonly max: number } = { enabled: true, max: 20_000 };
interface FactsCache {
  size: number;
  byCid: Map<number, { key: number; facts: Map<number, ChunkFacts | null> }>;
}
const factsCache = new WeakMap<Stmt, FactsCache>();

const readFacts = (stmt: Stmt, c: Collection, rids: number[]): Map<number, ChunkFacts> =>
  new Map(
    (
      stmt(
        `SELECT p.rid AS rid, length(ch.text) AS n, json_extract(p.payload, '$.document_id') AS d,
           CASE WHEN json_type(p.payload, '$.running_header') = 'text' THEN json_extract(p.payload, '$.running_header') END AS h
         FROM ${pointsTable(c.cid)} p LEFT JOIN ${chunksTable(c.cid)} ch ON ch.rid = p.rid
         WHERE p.rid IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify(rids)) as { rid: number; n: number | null; d: unknown; h: string | null }[]
    ).map((r) => [
      r.rid,
      { n: r.n, d: typeof r.d === 'string' || typeof r.d === 'number' ? String(r.d) : undefined, h: r.h },
    ]),
  );

/** ChunkFacts of the given rids (a rid with no point is left out), from the cache where it holds them. */
const chunkFacts = (stmt: Stmt, c: Collection, rids: number[]): Map<number, ChunkFacts> => {
  if (!FACTS_CACHE.enabled) return readFacts(stmt, c, rids);
  let cache = factsCache.get(stmt);
  if (!cache) factsCache.set(stmt, (cache = { size: 0, byCid: new Map() }));
  const key = c.version;
  let entry = cache.byCid.get(c.cid);
  if (!entry || entry.key !== key) {
    if (entry) cache.size -= entry.facts.size;
    cache.byCid.set(c.cid, (entry = { key, facts: new Map() }));
  }
  const facts = entry.facts;
  const out = new Map<number, ChunkFacts>();
  const missing: number[] = [];
  for (const rid of rids) {
    const f = facts.get(rid);
    if (f === undefined) missing.push(rid);
    else if (f !== null) out.set(rid, f);
  }
  if (missing.length === 0) return out;
  const read = readFacts(stmt, c, missing);
  if (cache.size + missing.length > FACTS_CACHE.max) {
    for (const e of cache.byCid.values()) e.facts.clear();
    cache.size = 0;
  }
  for (const rid of missing) {
    const f = read.get(rid) ?? null;
    facts.set(rid, f);
    if (f !== null) out.set(rid, f);
  }
  cache.size += missing.length;
  return out;
};

/** The collection's mean chunk text length in characters, cached per collection version (0 when empty). */
const meanLengthOf = (stmt: Stmt, c: Collection): number => {
  let byCid = meanLength.get(stmt);
  if (!byCid) meanLength.set(stmt, (byCid = new Map()));
  let m = byCid.get(c.cid);
  if (!m || m.version !== c.version) {
    const mean =
      (stmt(`SELECT avg(length(text)) FROM ${chunksTable(c.cid)}`)
        .pluck()
        .get() as number | null) ?? 0;
    byCid.set(c.cid, (m = { version: c.version, mean }));
  }
  return m.mean;
};

/**
 * The phrase-match score of each wanted candidate (lexical.ts PHRASE_CREDIT): the weighted bm25() of the query's
 * adjacent word pairs as FTS5 phrases (their IDF over the whole collection), for the candidates holding one.
 */
const phraseScores = (stmt: Stmt, fts: string, phrases: string, wanted: Set<number>): Map<number, number> => {
  // One pass over the chunks holding a pair (few: pairs are rare), kept for the candidates only. A `rowid IN (...)`
  // constraint instead makes FTS5 run the phrase query once per candidate (measured: 4x the search's CPU).
  const credit = new Map<number, number>();
  for (const r of stmt(`SELECT rowid AS rid, -${RANK_OF(fts)} AS s FROM ${fts} WHERE ${fts} MATCH ?`).iterate(
    phrases,
  ) as IterableIterator<{ rid: number; s: number }>) {
    if (wanted.has(r.rid)) credit.set(r.rid, r.s);
  }
  return credit;
};

/**
 * A query word in more than this share of a collection's chunks is left out of the MATCH when the query has at
 * least `KEEP_RAREST` rarer words: FTS5 scores every chunk that holds any query word, so one very common word
 * costs more than all the others together, while its BM25 weight (IDF) is small. Measured in
 * docs/benchmarks/vector-store.md ("BM25 on natural-language queries").
 */
export const COMMON_TERM_SHARE = 0.05;
export const KEEP_RAREST = 4;
/**
 * ...and in at least this many chunks: the cost of a word is the number of chunks that hold it, so below this a
 * word costs little whatever its share, and leaving it out only loses evidence (issue 25: in a collection of ~1,900
 * planning chunks, "air", "quality" and "coventry" were dropped from questions that needed them).
 */
export const COMMON_TERM_MIN_CHUNKS = 2_000;

interface TermStats {
  version: number;
  chunks: number;
  df: Map<string, number>;
}
const termStats = new WeakMap<Stmt, Map<number, TermStats>>();

/** The collection's chunk count and a (cached, per collection version) document frequency of a Porter stem. */
const termStatsOf = (stmt: Stmt, c: Collection): TermStats & { dfOf: (stem: string) => number } => {
  let byCid = termStats.get(stmt);
  if (!byCid) termStats.set(stmt, (byCid = new Map()));
  let stats = byCid.get(c.cid);
  if (!stats || stats.version !== c.version) {
    const chunks =
      (stmt(`SELECT count(*) FROM ${pointsTable(c.cid)}`)
        .pluck()
        .get() as number) ?? 0;
    stats = { version: c.version, chunks, df: new Map() };
    byCid.set(c.cid, stats);
  }
  const vocab = `vs_ftsv_${c.cid}`;
  stmt(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${vocab} USING fts5vocab(main, ${ftsTable(c.cid)}, 'row')`).run();
  const s = stats;
  const dfOf = (term: string): number => {
    let n = s.df.get(term);
    if (n === undefined) {
      n = (stmt(`SELECT doc FROM temp.${vocab} WHERE term = ?`).pluck().get(term) as number | undefined) ?? 0;
      if (s.df.size > 50_000) s.df.clear();
      s.df.set(term, n);
    }
    return n;
  };
  return { ...s, dfOf };
};

/** The query words to leave out (see COMMON_TERM_SHARE); document frequencies cached per collection version. */
const commonTerms = (stmt: Stmt, c: Collection, text: string): Set<string> => {
  const words = queryTerms(text, 64);
  if (words.length <= KEEP_RAREST) return new Set();
  const s = termStatsOf(stmt, c);
  // The index holds porter stems: `stemmer` is the same Porter (1980) algorithm; a word it stems differently
  // simply reads as absent (df 0) and stays in the query.
  const df = (w: string): number => s.dfOf(stemmer(w));
  const ranked = words.map((w) => ({ w, n: df(w) })).sort((a, b) => a.n - b.n);
  return new Set(
    ranked
      .slice(KEEP_RAREST)
      .filter((x) => x.n > COMMON_TERM_SHARE * s.chunks && x.n >= COMMON_TERM_MIN_CHUNKS)
      .map((x) => x.w),
  );
};

const rows = (stmt: Stmt, c: Collection, rids: number[]): Map<number, Row> => {
  const found = stmt(
    `SELECT p.rid, p.id, json(p.payload) AS payload, ch.text FROM ${pointsTable(c.cid)} p JOIN ${chunksTable(c.cid)} ch ON ch.rid = p.rid
     WHERE p.rid IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(rids)) as Row[];
  return new Map(found.map((r) => [r.rid, r]));
};

/** Scored rids as hits (id, payload, text), in the given order; rids deleted meanwhile are skipped. */
export const hits = (
  stmt: Stmt,
  c: Collection,
  scored: [number, number][],
  extra?: Map<
    number,
    {
      denseRank?: number | undefined;
      keywordRank?: number | undefined;
      denseScore?: number;
      keywordScore?: number | undefined;
    }
  >,
): Hit[] => {
  const found = rows(
    stmt,
    c,
    scored.map(([rid]) => rid),
  );
  return scored.flatMap(([rid, score]) => {
    const r = found.get(rid);
    if (!r) return [];
    return [
      {
        id: r.id,
        score,
        payload: JSON.parse(r.payload) as Record<string, unknown>,
        text: r.text,
        ...(extra?.get(rid) ?? {}),
      },
    ];
  });
};
