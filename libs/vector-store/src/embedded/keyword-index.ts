// SPDX-License-Identifier: AGPL-3.0-or-later
import { chunksTable, deletedTable, ftsTable, vectorsTable, type Collection } from './embedded-schema.js';
import type { Stmt } from './embedded-search.js';

/**
 * An exact top-N of FTS5's weighted `bm25()` for an OR of single-token phrases, computed over postings this process
 * keeps in memory instead of by FTS5 (which calls the rank function for every matching row: ~2,770 of 10,366 chunks
 * for a SciFact claim, 2.6 ms a search; issue 28). The same scores as FTS5's `bm25(w0, w1, w2, w3)`
 * (sqlite3/ext/fts5/fts5_aux.c, fts5Bm25Function), computed the same way, term by term in the query's order:
 *
 *   score(D) = Σ_i idf_i · (f_i · (k1 + 1)) / (f_i + k1 · (1 − b + b · |D| / avgdl)),  k1 = 1.2, b = 0.75
 *
 * where f_i is the sum of the column weights over phrase i's instances in D (added one instance at a time, column by
 * column, as FTS5 adds them), |D| the row's token count over all columns (the `_docsize` record), avgdl the index's
 * total tokens over its row count (the averages record, `_data` id 1), idf_i = ln((N − n_i + 0.5) / (n_i + 0.5)),
 * at least 1e-6, with n_i the rows holding phrase i. Ranked as FTS5's `ORDER BY rank, rowid` ranks them.
 *
 * The postings come from FTS5 itself: a term's list is read the first time a query needs it (fts5vocab 'instance'
 * with `term =`, which reads only that posting list) and kept, so a word is the index's token exactly; query words
 * are tokenized by a temp FTS5 table with the same tokenizer. Held per connection and collection and brought to the
 * collection's version as ChunkState is (embedded-search.ts): the rows changed since (vectors' `ver`, the deleted
 * log) are copied from the chunks table into a temp FTS5 table of changed rows (the overlay, whose postings of a term
 * are read there on first use), and a list's posting of a row changed after the list was read is skipped (the
 * overlay holds the row as it is now); past a quarter of the
 * collection changed, or POSTINGS_HELD postings held, it starts again.
 */

const K1 = 1.2;
const B = 0.75;
const TOKENIZER = `tokenize='porter unicode61 remove_diacritics 2'`;
const COLUMNS = ['text', 'title', 'section', 'codes'] as const;

/**
 * The rows changed since the state was made, as they are now: held in a temp contentless FTS5 table of the
 * connection (`changedTable`, the same tokenizer), a term's postings there read on its first use after the last change.
 */
interface Overlay {
  /** The rids written to the changed-rows table (a deleted point's among them, with no row there). */
  rids: Set<number>;
  /** term -> (rid -> weighted frequency), read from the changed-rows table since it last changed */
  byTerm: Map<string, Map<number, number>>;
}

/** A term's postings as the index held them at collection version `at`. */
interface TermList {
  at: number;
  docs: Int32Array;
  /** Weighted frequencies: float32 when every one is exactly a float32 (binary-fraction weights), else float64. */
  freqs: Float32Array | Float64Array;
}

interface IndexState {
  version: number;
  weightsKey: string;
  /** The postings of the terms queried so far, each read from FTS5 at the version it was read. */
  terms: Map<string, TermList>;
  /** Postings held in `terms` (at most POSTINGS_HELD; then they are dropped and read again). */
  held: number;
  /** |D| by rid (-1: no row) */
  docLen: Int32Array;
  /** The collection version that last changed a rid (0: not since the state was made). */
  changedAt: Int32Array;
  /** The rows changed since the state was made, as they are now (their postings in a list read before are stale). */
  overlay: Overlay;
  rows: number;
  nRow: number;
  avgdl: number;
  /** scratch: score by rid during a query (0 outside one) */
  scores: Float64Array;
}

const states = new WeakMap<Stmt, Map<number, IndexState>>();

/**
 * Postings held per collection and connection (8 bytes each with binary-fraction weights, else 12) before they are all
 * dropped and read again: 2M = 16 MB per search worker (the memory goal: the service <= 400 MB at 100k chunks).
 */
export const POSTINGS_HELD = { max: 2_000_000 };

/** Counts, for the bench and the specs. */
export const KEYWORD_INDEX_STATS = { states: 0, termReads: 0, overlayRows: 0, fallbacks: 0, busy: 0, drops: 0 };

/**
 * The index serves a collection only after it has not changed for `ms` (as this connection saw it); meanwhile FTS5
 * does. Keeping the postings current costs reads through fts5vocab (~1.5 µs an instance, more than FTS5's bm25() per
 * matching row), so under a stream of writes (the load bench re-stores 500 of 10k chunks about every second) every
 * list is read again before it has served enough searches to pay for it: measured 4.2 ms per hybrid search against
 * 3.7 with FTS5 (docs/benchmarks/load.md, round 11). A collection read more than written gets the fast path.
 */
export const KEYWORD_INDEX_QUIET = { ms: 10_000 };

/** Per connection and collection: the last version seen and when it was first seen (a change after the first). */
const lastSeen = new WeakMap<Stmt, Map<number, { version: number; since: number }>>();

const busy = (stmt: Stmt, c: Collection): boolean => {
  let byCid = lastSeen.get(stmt);
  if (!byCid) lastSeen.set(stmt, (byCid = new Map()));
  const seen = byCid.get(c.cid);
  const now = Date.now();
  if (!seen) {
    byCid.set(c.cid, { version: c.version, since: 0 });
    return false;
  }
  if (seen.version !== c.version) {
    seen.version = c.version;
    seen.since = now;
  }
  return now - seen.since < KEYWORD_INDEX_QUIET.ms;
};

const varints = (blob: Buffer): number[] => {
  const out: number[] = [];
  let i = 0;
  while (i < blob.length) {
    let v = 0;
    let n = 0;
    for (;;) {
      const byte = blob[i++] as number;
      if (n === 8) {
        v = v * 256 + byte;
        break;
      }
      v = v * 128 + (byte & 0x7f);
      n++;
      if ((byte & 0x80) === 0) break;
    }
    out.push(v);
  }
  return out;
};
const sum = (xs: number[]): number => xs.reduce((a, x) => a + x, 0);

const grownInt = (a: Int32Array, n: number, fill: number): Int32Array => {
  if (n < a.length) return a;
  const g = new Int32Array(Math.max(n + 1, 2 * a.length)).fill(fill);
  g.set(a);
  return g;
};

/** Totals of the index: its row count and total tokens (FTS5's averages record, `_data` id 1). */
const totals = (stmt: Stmt, fts: string): { nRow: number; avgdl: number } => {
  const blob = stmt(`SELECT block FROM ${fts}_data WHERE id = 1`).pluck().get() as Buffer | undefined;
  if (!blob) return { nRow: 0, avgdl: 0 };
  const [nRow = 0, ...cols] = varints(blob);
  return { nRow, avgdl: sum(cols) / nRow };
};

type Weights = readonly [number, number, number, number];

/**
 * Weighted frequencies per (term, rid) of fts5vocab 'instance' rows (term, doc, col) in the table's order (term, doc,
 * column, offset): the column weights added one instance at a time, as fts5Bm25Function adds them.
 */
const accumulate = (
  rows: IterableIterator<[string, number, string]>,
  weights: Weights,
  emit: (term: string, rid: number, f: number) => void,
): void => {
  const colWeight = new Map<string, number>(COLUMNS.map((c, i) => [c, weights[i] as number]));
  let term = '';
  let rid = -1;
  let f = 0;
  for (const [t, d, col] of rows) {
    if (t !== term || d !== rid) {
      if (rid >= 0) emit(term, rid, f);
      term = t;
      rid = d;
      f = 0;
    }
    f += colWeight.get(col) ?? 1;
  }
  if (rid >= 0) emit(term, rid, f);
};

const narrow = (f: Float64Array): Float32Array | Float64Array => {
  const n = Float32Array.from(f);
  for (let i = 0; i < f.length; i++) if (n[i] !== f[i]) return f;
  return n;
};

const create = (stmt: Stmt, c: Collection, key: string): IndexState => {
  KEYWORD_INDEX_STATS.states++;
  const fts = ftsTable(c.cid);
  const chg = changedTable(stmt, c.cid);
  stmt(`INSERT INTO temp.${chg}(${chg}) VALUES ('delete-all')`).run();
  let docLen: Int32Array = new Int32Array(1024).fill(-1);
  let rows = 0;
  for (const [rid, sz] of stmt(`SELECT id, sz FROM ${fts}_docsize`).raw().iterate() as IterableIterator<
    [number, Buffer]
  >) {
    docLen = grownInt(docLen, rid, -1);
    docLen[rid] = sum(varints(sz));
    rows++;
  }
  return {
    version: c.version,
    weightsKey: key,
    terms: new Map(),
    held: 0,
    docLen,
    changedAt: new Int32Array(docLen.length),
    overlay: { rids: new Set(), byTerm: new Map() },
    rows,
    ...totals(stmt, fts),
    scores: new Float64Array(docLen.length),
  };
};

/** A term's postings as FTS5 holds them now (fts5vocab 'instance' with `term =`: its posting list only). */
const readTerm = (stmt: Stmt, c: Collection, term: string, weights: Weights): TermList => {
  KEYWORD_INDEX_STATS.termReads++;
  const vocab = `vs_ftsi_${c.cid}`;
  stmt(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${vocab} USING fts5vocab(main, ${ftsTable(c.cid)}, 'instance')`).run();
  const docs: number[] = [];
  const freqs: number[] = [];
  accumulate(
    stmt(`SELECT term, doc, col FROM temp.${vocab} WHERE term = ?`).raw().iterate(term) as IterableIterator<
      [string, number, string]
    >,
    weights,
    (_t, rid, f) => {
      docs.push(rid);
      freqs.push(f);
    },
  );
  return { at: c.version, docs: Int32Array.from(docs), freqs: narrow(Float64Array.from(freqs)) };
};

/** Brings `s` to `c.version`: the rows changed since are re-read into the overlay; false: too many, start again. */
const catchUp = (stmt: Stmt, c: Collection, s: IndexState): boolean => {
  const changed = stmt(
    `SELECT rid FROM ${vectorsTable(c.cid)} WHERE ver > ? UNION SELECT rid FROM ${deletedTable(c.cid)} WHERE ver > ?`,
  )
    .pluck()
    .all(s.version, s.version) as number[];
  const o = s.overlay;
  if (o.rids.size + changed.length > s.rows / 4 + 64) return false;
  if (changed.length > 0) {
    const fts = ftsTable(c.cid);
    const chg = changedTable(stmt, c.cid);
    const again = changed.filter((rid) => o.rids.has(rid));
    if (again.length > 0) {
      stmt(`DELETE FROM temp.${chg} WHERE rowid IN (SELECT value FROM json_each(?))`).run(JSON.stringify(again));
    }
    stmt(
      `INSERT INTO temp.${chg}(rowid, text, title, section, codes)
       SELECT rid, text, title, section, codes FROM ${chunksTable(c.cid)} WHERE rid IN (SELECT value FROM json_each(?))`,
    ).run(JSON.stringify(changed));
    for (const rid of changed) o.rids.add(rid);
    o.byTerm.clear();
    const size = stmt(`SELECT sz FROM ${fts}_docsize WHERE id = ?`).pluck();
    for (const rid of changed) {
      const sz = size.get(rid) as Buffer | undefined;
      s.docLen = grownInt(s.docLen, rid, -1);
      s.changedAt = grownInt(s.changedAt, rid, 0);
      s.docLen[rid] = sz === undefined ? -1 : sum(varints(sz));
      s.changedAt[rid] = c.version;
    }
    if (s.scores.length < s.docLen.length) s.scores = new Float64Array(s.docLen.length);
    KEYWORD_INDEX_STATS.overlayRows += changed.length;
    Object.assign(s, totals(stmt, fts));
  }
  s.version = c.version;
  return true;
};

/** The connection's changed-rows table of a collection (contentless, rows deletable), and its instance vocabulary. */
const changedTable = (stmt: Stmt, cid: number): string => {
  const t = `vs_kchg_${cid}`;
  stmt(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t} USING fts5(text, title, section, codes, content='', contentless_delete=1, ${TOKENIZER})`,
  ).run();
  stmt(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t}_i USING fts5vocab(temp, ${t}, 'instance')`).run();
  return t;
};

/** A term's postings among the changed rows (the overlay), read on first use after the rows last changed. */
const overlayOf = (stmt: Stmt, c: Collection, s: IndexState, term: string, weights: Weights): Map<number, number> => {
  const o = s.overlay;
  let m = o.byTerm.get(term);
  if (m) return m;
  m = new Map<number, number>();
  if (o.rids.size > 0) {
    const found = m;
    accumulate(
      stmt(`SELECT term, doc, col FROM temp.${changedTable(stmt, c.cid)}_i WHERE term = ?`)
        .raw()
        .iterate(term) as IterableIterator<[string, number, string]>,
      weights,
      (_t, rid, f) => found.set(rid, f),
    );
  }
  if (o.byTerm.size > 50_000) o.byTerm.clear();
  o.byTerm.set(term, m);
  return m;
};

/**
 * A temp FTS5 table with the collection's tokenizer (and its instance vocabulary), for query words:
 * contentless, emptied by 'delete-all' (which drops its index at once; a DELETE leaves tombstones in its segments that
 * every later read would merge).
 */
const tokenizerTable = (stmt: Stmt): string => {
  const t = 'vs_ktok';
  stmt(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t} USING fts5(text, title, section, codes, content='', ${TOKENIZER})`,
  ).run();
  stmt(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t}_i USING fts5vocab(temp, ${t}, 'instance')`).run();
  return t;
};

/** Per connection: a query word's token (null: not exactly one token). */
const wordTokens = new WeakMap<Stmt, Map<string, string | null>>();

const tokensOf = (stmt: Stmt, words: readonly string[]): (string | null)[] => {
  let cache = wordTokens.get(stmt);
  if (!cache) wordTokens.set(stmt, (cache = new Map()));
  const missing = words.filter((w) => !cache.has(w));
  if (missing.length > 0) {
    if (cache.size > 50_000) cache.clear();
    const tmp = tokenizerTable(stmt);
    stmt(`INSERT INTO temp.${tmp}(${tmp}) VALUES ('delete-all')`).run();
    const ins = stmt(`INSERT INTO temp.${tmp}(rowid, text) VALUES (?, ?)`);
    missing.forEach((w, i) => ins.run(i + 1, w));
    const found = new Map<number, string[]>();
    for (const [term, doc] of stmt(`SELECT term, doc FROM temp.${tmp}_i`).raw().iterate() as IterableIterator<
      [string, number]
    >) {
      let l = found.get(doc);
      if (!l) found.set(doc, (l = []));
      l.push(term);
    }
    missing.forEach((w, i) => {
      const l = found.get(i + 1);
      cache.set(w, l !== undefined && l.length === 1 ? (l[0] as string) : null);
    });
  }
  return words.map((w) => cache.get(w) ?? null);
};

/** The connection's index of `c` at `c.version` under these weights (call inside the read transaction). */
const indexOf = (stmt: Stmt, c: Collection, weights: Weights): IndexState => {
  let byCid = states.get(stmt);
  if (!byCid) states.set(stmt, (byCid = new Map()));
  const key = weights.join(',');
  let s = byCid.get(c.cid);
  if (s && s.weightsKey === key && s.version === c.version) return s;
  if (!s || s.weightsKey !== key || s.version > c.version || !catchUp(stmt, c, s)) {
    byCid.delete(c.cid);
    s = create(stmt, c, key);
    byCid.set(c.cid, s);
  }
  return s;
};

/** Drops the connection's indexes (the bench and the specs start again). */
export const dropKeywordIndexes = (stmt: Stmt): void => {
  states.delete(stmt);
  lastSeen.delete(stmt);
};

/** Memory held by the connection's index of a collection, in bytes (typed arrays only; maps besides). */
export const keywordIndexBytes = (stmt: Stmt, cid: number): number => {
  const s = states.get(stmt)?.get(cid);
  if (!s) return 0;
  let n = s.docLen.byteLength + s.changedAt.byteLength + s.scores.byteLength;
  for (const t of s.terms.values()) n += t.docs.byteLength + t.freqs.byteLength;
  return n;
};

/**
 * The top `limit` rows of the OR of `words` (each one quoted FTS5 phrase) by the weighted bm25(), as FTS5's
 * `SELECT rowid, rank ... ORDER BY rank, rowid LIMIT ?` returns them ({ rid, r }, r = bm25() < 0); null when a word
 * is not exactly one token (a multi-token phrase needs positions) or a weight is not > 0: the caller asks FTS5.
 */
export const keywordTopK = (
  stmt: Stmt,
  c: Collection,
  words: readonly string[],
  weights: Weights,
  limit: number,
): { rid: number; r: number }[] | null => {
  if (busy(stmt, c)) {
    KEYWORD_INDEX_STATS.busy++;
    return null;
  }
  const tokens = tokensOf(stmt, words);
  if (tokens.some((t) => t === null) || weights.some((w) => !(w > 0))) {
    KEYWORD_INDEX_STATS.fallbacks++;
    return null;
  }
  const s = indexOf(stmt, c, weights);
  if (s.nRow === 0 || limit <= 0) return [];
  const lists = (tokens as string[]).map((term) => {
    let l = s.terms.get(term);
    if (!l) {
      l = readTerm(stmt, c, term, weights);
      if (s.held + l.docs.length > POSTINGS_HELD.max) {
        KEYWORD_INDEX_STATS.drops++;
        s.terms.clear();
        s.held = 0;
      }
      // A term no row holds is not kept (read again next time: cheap): a stream of new words would fill the map.
      if (l.docs.length > 0) {
        s.terms.set(term, l);
        s.held += l.docs.length;
      }
    }
    return { l, extra: overlayOf(stmt, c, s, term, weights) };
  });
  const { docLen, changedAt, scores } = s;
  // A rid is touched once its score leaves 0: every contribution is > 0 (idf >= 1e-6, weights > 0).
  const touched: number[] = [];
  const avgdl = s.avgdl;
  for (const { l, extra } of lists) {
    const { docs, freqs, at } = l;
    // A posting of the list is current unless its row changed after the list was read; then the overlay has it.
    let nHit = 0;
    for (let p = 0; p < docs.length; p++) if ((changedAt[docs[p] as number] as number) <= at) nHit++;
    if (extra) for (const rid of extra.keys()) if ((changedAt[rid] as number) > at) nHit++;
    if (nHit === 0) continue;
    // SQLite's ln() (C's log(), as fts5_aux.c calls): V8's Math.log differs from it in the last bit for ~8 % of
    // arguments, which moved final scores by an ulp.
    let idf = stmt('SELECT ln(?)')
      .pluck()
      .get((s.nRow - nHit + 0.5) / (nHit + 0.5)) as number;
    if (idf <= 0) idf = 1e-6;
    const add = (rid: number, f: number): void => {
      const d = docLen[rid] as number;
      const v = idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * d) / avgdl)));
      const prev = scores[rid] as number;
      if (prev === 0) touched.push(rid);
      scores[rid] = prev + v;
    };
    for (let p = 0; p < docs.length; p++) {
      const rid = docs[p] as number;
      if ((changedAt[rid] as number) <= at) add(rid, freqs[p] as number);
    }
    if (extra) for (const [rid, f] of extra) if ((changedAt[rid] as number) > at) add(rid, f);
  }
  const out = topOf(touched, scores, limit);
  for (const rid of touched) scores[rid] = 0;
  return out;
};

/** The `limit` best of `rids` by (score desc, rid asc), as { rid, r = -score }. */
const topOf = (rids: number[], scores: Float64Array, limit: number): { rid: number; r: number }[] => {
  const better = (a: number, b: number): boolean => {
    const sa = scores[a] as number;
    const sb = scores[b] as number;
    return sa > sb || (sa === sb && a < b);
  };
  let pick: number[];
  if (rids.length <= limit) pick = rids.slice();
  else {
    // A min-heap (worst at the top) of the best `limit`.
    const heap: number[] = [];
    const up = (i: number): void => {
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!better(heap[parent] as number, heap[i] as number)) break;
        [heap[parent], heap[i]] = [heap[i] as number, heap[parent] as number];
        i = parent;
      }
    };
    const down = (i: number): void => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let w = i;
        if (l < heap.length && better(heap[w] as number, heap[l] as number)) w = l;
        if (r < heap.length && better(heap[w] as number, heap[r] as number)) w = r;
        if (w === i) return;
        [heap[w], heap[i]] = [heap[i] as number, heap[w] as number];
        i = w;
      }
    };
    for (const rid of rids) {
      if (heap.length < limit) {
        heap.push(rid);
        up(heap.length - 1);
      } else if (better(rid, heap[0] as number)) {
        heap[0] = rid;
        down(0);
      }
    }
    pick = heap;
  }
  pick.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
  return pick.map((rid) => ({ rid, r: -(scores[rid] as number) }));
};
