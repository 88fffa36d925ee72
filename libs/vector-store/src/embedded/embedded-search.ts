// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Statement } from 'better-sqlite3';
import type { Filter, Hit } from '../vector-store.port.js';
import type { DenseSearch } from './dense-index.js';
import { chunksTable, deletedTable, ftsTable, pointsTable, vectorsTable, type Collection } from './embedded-schema.js';
import { compileFilter, ftsMatch, ftsPhraseQuery, ftsWords } from './sql-filter.js';
import { keywordTopK } from './keyword-index.js';
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
 * The first pass without a filter from keyword-index.ts (the same candidates and scores as FTS5's `ORDER BY rank`,
 * computed over postings the connection holds) instead of FTS5; FTS5 still serves a filtered search, a query with
 * a word that is not one token (keyword-index.ts).
 * Turned off, FTS5 serves every search (the reference the specs compare with).
 */
export const KEYWORD_INDEX: { enabled: boolean } = { enabled: true };

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
  documentEvidence = 0,
  documentEvidenceSpan = 0,
): [number, number][] => {
  const leaveOut = commonTerms(stmt, c, text);
  const words = ftsWords(text, leaveOut);
  const match = ftsMatch(words);
  if (match === null) return [];
  const fts = ftsTable(c.cid);
  // Damping lowers short chunks: the pool is twice the candidates so the ones it lifts past the cut are there.
  const pool = keywordPool(k);
  // `rank` is selected once, as the sort key, and negated here: `-rank` in the select list beside `ORDER BY rank`
  // made FTS5 compute the weighted bm25() twice per matching row (measured: 3.06 -> 2.94 ms per search at 10k
  // SciFact chunks; the same rows and scores, a double's negation being exact).
  // Without a filter, the same rows and scores from postings the connection holds (keyword-index.ts); null: FTS5.
  const w = FIELD_WEIGHTS;
  const indexed =
    filter === undefined && KEYWORD_INDEX.enabled
      ? keywordTopK(stmt, c, words, [w.text, w.title, w.section, w.codes], pool)
      : null;
  let ranked: { rid: number; r: number }[];
  if (indexed !== null) ranked = indexed;
  else if (filter === undefined) {
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
  return secondPassOf(stmt, c, text, ftsPhraseQuery(text, leaveOut), ranked, k, documentEvidence, documentEvidenceSpan);
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
  documentEvidence = 0,
  documentEvidenceSpan = 0,
): [number, number][] => {
  const damping = SHORT_CHUNK_DAMPING.exponent;
  const damp = damping > 0 && ranked.length >= 2;
  const mean = damp ? meanLengthOf(stmt, c) : 0;
  const needFacts =
    (damp && mean > 0) ||
    (HEADER_CREDIT.weight > 0 && ranked.length > 0) ||
    (documentEvidence > 0 && ranked.length > 1);
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
      position: known?.i,
    };
  });
  let stats: ReturnType<typeof termStatsOf> | undefined;
  return secondPass(candidates, {
    query: text,
    meanLength: mean,
    idf: (stem) => {
      stats ??= termStatsOf(stmt, c);
      return bm25Idf(stats.chunks, stats.df(stem));
    },
    limit: k,
    damping,
    documentEvidence,
    documentEvidenceSpan,
  }).map((r) => [r.id, r.score]);
};

/**
 * What the damping and the header credit read of a candidate: its text's length in characters (`n`, null when the
 * point has no chunk row), its `document_id` payload value as a string (`d`, when a string or a number) and its
 * `running_header` (`h`, when a string). Absent from the map: no such point.
 */
interface ChunkFacts {
  n: number | null;
  d: string | undefined;
  h: string | null;
  /** `chunk_index`, when a number (document evidence's span). */
  i: number | undefined;
}

/**
 * A connection's cache of ChunkFacts (per collection and rid). A hybrid search reads these facts for its 200 keyword
 * candidates (0.5 ms of SQL at 10k chunks, most of a search's damping cost); searches of one collection share most
 * of their candidates, so a warm cache answers them without SQL. It survives writes (ChunkState): a write evicts
 * only the points it changed. At most FACTS_CACHE.max entries per connection (then it starts again). Turned off, the
 * facts and the mean chunk length are read from the tables for every search (the reference the specs compare with).
 */
export const FACTS_CACHE: { readonly enabled: boolean; readonly max: number } = { enabled: true, max: 20_000 };

/**
 * A connection's view of a collection's chunks at one collection version: every chunk's text length by rid (-1: no
 * chunk), their sum and count (the mean chunk length the damping divides by: SQLite's avg() of integers is the
 * integer sum over the count, so the same double), and the cached ChunkFacts. Brought to a newer version by the
 * rows written since: every write of a point sets its vector row's `ver` to the version it writes (upsert, payload
 * patch) or logs the rid as deleted with it (embedded-schema.ts), in any process, so the rids with `ver` above the
 * held version are exactly the points changed since; their facts are evicted and their lengths re-read. Not
 * SQLite's `data_version`: the retrieval audit commits to the same file in batches.
 */
interface ChunkState {
  version: number;
  lengths: Int32Array;
  sum: number;
  count: number;
  facts: Map<number, ChunkFacts | null>;
  /** Points changed since the state was loaded (each changes any term's document frequency by at most one). */
  changes: number;
  /** Document frequencies of Porter stems, each with `changes` when it was read (termStatsOf). */
  df: Map<string, { n: number; at: number }>;
}
/** Per connection: its collections' states, and how many cached facts they hold together (FACTS_CACHE.max). */
const chunkStates = new WeakMap<Stmt, { facts: number; byCid: Map<number, ChunkState> }>();

const setLength = (s: ChunkState, rid: number, n: number | null): void => {
  const old = rid < s.lengths.length ? (s.lengths[rid] ?? -1) : -1;
  if (old >= 0) {
    s.sum -= old;
    s.count--;
  }
  if (n === null) {
    if (rid < s.lengths.length) s.lengths[rid] = -1;
    return;
  }
  if (rid >= s.lengths.length) {
    const grown = new Int32Array(Math.max(rid + 1, 2 * s.lengths.length)).fill(-1);
    grown.set(s.lengths);
    s.lengths = grown;
  }
  s.lengths[rid] = n;
  s.sum += n;
  s.count++;
};

/** The connection's ChunkState of `c` at `c.version` (call inside the read transaction that read `c`). */
const chunkState = (stmt: Stmt, c: Collection): ChunkState => {
  let held = chunkStates.get(stmt);
  if (!held) chunkStates.set(stmt, (held = { facts: 0, byCid: new Map() }));
  const byCid = held.byCid;
  let s = byCid.get(c.cid);
  if (s && s.version === c.version) return s;
  if (!s || s.version > c.version) {
    if (s) held.facts -= s.facts.size;
    s = {
      version: c.version,
      lengths: new Int32Array(1024).fill(-1),
      sum: 0,
      count: 0,
      facts: new Map(),
      changes: 0,
      df: new Map(),
    };
    for (const [rid, n] of stmt(`SELECT rid, length(text) FROM ${chunksTable(c.cid)}`)
      .raw()
      .iterate() as IterableIterator<[number, number]>) {
      setLength(s, rid, n);
    }
    byCid.set(c.cid, s);
    return s;
  }
  // The points changed after the held version: upserted or patched (their vector row's ver), or deleted.
  const changed = stmt(
    `SELECT v.rid, length(ch.text) FROM ${vectorsTable(c.cid)} v LEFT JOIN ${chunksTable(c.cid)} ch ON ch.rid = v.rid
     WHERE v.ver > ?
     UNION ALL SELECT rid, NULL FROM ${deletedTable(c.cid)} WHERE ver > ?`,
  )
    .raw()
    .all(s.version, s.version) as [number, number | null][];
  for (const [rid, n] of changed) {
    if (s.facts.delete(rid)) held.facts--;
    setLength(s, rid, n);
  }
  s.changes += changed.length;
  s.version = c.version;
  return s;
};

/** The collection's mean chunk text length in characters (0 when it has no chunks). */
const meanLengthOf = (stmt: Stmt, c: Collection): number => {
  if (!FACTS_CACHE.enabled) {
    return (
      (stmt(`SELECT avg(length(text)) FROM ${chunksTable(c.cid)}`)
        .pluck()
        .get() as number | null) ?? 0
    );
  }
  const s = chunkState(stmt, c);
  return s.count > 0 ? s.sum / s.count : 0;
};

/** Candidates whose facts were read from the tables (not the cache), since the process started: for the specs. */
export const FACTS_READ = { rids: 0 };

const readFacts = (stmt: Stmt, c: Collection, rids: number[]): Map<number, ChunkFacts> => {
  FACTS_READ.rids += rids.length;
  return new Map(
    (
      stmt(
        `SELECT p.rid AS rid, length(ch.text) AS n, json_extract(p.payload, '$.document_id') AS d,
           CASE WHEN json_type(p.payload, '$.running_header') = 'text' THEN json_extract(p.payload, '$.running_header') END AS h,
           CASE WHEN json_type(p.payload, '$.chunk_index') IN ('integer', 'real') THEN json_extract(p.payload, '$.chunk_index') END AS i
         FROM ${pointsTable(c.cid)} p LEFT JOIN ${chunksTable(c.cid)} ch ON ch.rid = p.rid
         WHERE p.rid IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify(rids)) as { rid: number; n: number | null; d: unknown; h: string | null; i: number | null }[]
    ).map((r) => [
      r.rid,
      {
        n: r.n,
        d: typeof r.d === 'string' || typeof r.d === 'number' ? String(r.d) : undefined,
        h: r.h,
        i: typeof r.i === 'number' ? r.i : undefined,
      },
    ]),
  );
};

/** ChunkFacts of the given rids (a rid with no point is left out), from the cache where it holds them. */
const chunkFacts = (stmt: Stmt, c: Collection, rids: number[]): Map<number, ChunkFacts> => {
  if (!FACTS_CACHE.enabled) return readFacts(stmt, c, rids);
  const facts = chunkState(stmt, c).facts;
  const held = chunkStates.get(stmt) as { facts: number; byCid: Map<number, ChunkState> };
  const out = new Map<number, ChunkFacts>();
  const missing: number[] = [];
  for (const rid of rids) {
    const f = facts.get(rid);
    if (f === undefined) missing.push(rid);
    else if (f !== null) out.set(rid, f);
  }
  if (missing.length === 0) return out;
  const read = readFacts(stmt, c, missing);
  if (held.facts + missing.length > FACTS_CACHE.max) {
    for (const state of held.byCid.values()) state.facts.clear();
    held.facts = 0;
  }
  for (const rid of missing) {
    const f = read.get(rid) ?? null;
    facts.set(rid, f);
    if (f !== null) out.set(rid, f);
  }
  held.facts += missing.length;
  return out;
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
  /** The collection's chunks. */
  chunks: number;
  /** A stem's document frequency, exact. */
  df: (stem: string) => number;
  /**
   * Bounds on a stem's document frequency, [lo, hi]: a frequency read before the last writes, widened by the
   * points they changed (a changed point adds or removes at most one document of the stem), or the exact one.
   */
  dfBounds: (stem: string) => [number, number];
}
const chunkCounts = new WeakMap<Stmt, Map<number, { version: number; chunks: number }>>();

/**
 * The collection's chunk count (cached per collection version) and document frequencies of Porter stems (fts5vocab).
 * The frequencies read are kept across writes (ChunkState.df, with the number of points changed since, which bounds
 * how far each can have moved): a search that only needs to know which side of a threshold a frequency is on
 * (commonTerms) reads it again only when the bounds straddle it. Turned off (FACTS_CACHE), every one is read.
 */
const termStatsOf = (stmt: Stmt, c: Collection): TermStats => {
  let byCid = chunkCounts.get(stmt);
  if (!byCid) chunkCounts.set(stmt, (byCid = new Map()));
  let held = byCid.get(c.cid);
  if (!held || held.version !== c.version) {
    const chunks =
      (stmt(`SELECT count(*) FROM ${pointsTable(c.cid)}`)
        .pluck()
        .get() as number) ?? 0;
    byCid.set(c.cid, (held = { version: c.version, chunks }));
  }
  const vocab = `vs_ftsv_${c.cid}`;
  stmt(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${vocab} USING fts5vocab(main, ${ftsTable(c.cid)}, 'row')`).run();
  const read = (term: string): number =>
    (stmt(`SELECT doc FROM temp.${vocab} WHERE term = ?`).pluck().get(term) as number | undefined) ?? 0;
  if (!FACTS_CACHE.enabled) return { chunks: held.chunks, df: read, dfBounds: (t) => [read(t), read(t)] };
  const s = chunkState(stmt, c);
  const exact = (term: string): number => {
    const e = s.df.get(term);
    if (e !== undefined && e.at === s.changes) return e.n;
    const n = read(term);
    if (s.df.size > 50_000) s.df.clear();
    s.df.set(term, { n, at: s.changes });
    return n;
  };
  return {
    chunks: held.chunks,
    df: exact,
    dfBounds: (term) => {
      const e = s.df.get(term);
      if (e === undefined) {
        const n = exact(term);
        return [n, n];
      }
      const slack = s.changes - e.at;
      return [Math.max(0, e.n - slack), e.n + slack];
    },
  };
};

/**
 * The query words to leave out (see COMMON_TERM_SHARE). The same set as sorting the words by their exact document
 * frequency (a stable sort), keeping the KEEP_RAREST first and leaving out the rest that are common: a common word's
 * frequency is above every other word's, so when KEEP_RAREST words are surely not common the rarest are among them
 * and the answer is the common words; otherwise the common words are ordered by their exact frequencies.
 */
export const commonTerms = (stmt: Stmt, c: Collection, text: string): Set<string> => {
  const words = queryTerms(text, 64);
  if (words.length <= KEEP_RAREST) return new Set();
  const s = termStatsOf(stmt, c);
  const common = (n: number): boolean => n > COMMON_TERM_SHARE * s.chunks && n >= COMMON_TERM_MIN_CHUNKS;
  // The index holds porter stems: `stemmer` is the same Porter (1980) algorithm; a word it stems differently
  // simply reads as absent (df 0) and stays in the query.
  if (!FACTS_CACHE.enabled) {
    // The definition (the reference the specs compare with).
    return new Set(
      words
        .map((w) => ({ w, n: s.df(stemmer(w)) }))
        .sort((a, b) => a.n - b.n)
        .slice(KEEP_RAREST)
        .filter((x) => common(x.n))
        .map((x) => x.w),
    );
  }
  let rare = 0;
  const over: { w: string; stem: string }[] = [];
  for (const w of words) {
    const stem = stemmer(w);
    let [lo, hi] = s.dfBounds(stem);
    if (common(lo) !== common(hi)) lo = hi = s.df(stem);
    if (common(lo)) over.push({ w, stem });
    else rare++;
  }
  if (rare >= KEEP_RAREST) return new Set(over.map((x) => x.w));
  return new Set(
    over
      .map((x) => ({ w: x.w, n: s.df(x.stem) }))
      .sort((a, b) => a.n - b.n)
      .slice(KEEP_RAREST - rare)
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
