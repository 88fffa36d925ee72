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
 * collection's version as ChunkState is (embedded-search.ts), in place, so the index serves while a collection is
 * being written: the rows changed since (vectors' `ver`, the deleted log) leave every held list, and their current
 * texts are tokenized by FTS5 itself in a temp table of the connection (same tokenizer and columns), whose postings of
 * the held terms join the lists; their |D|, N and avgdl are re-read (catchUp). Past a quarter of the collection
 * changed at once it starts again; past POSTINGS_HELD postings held, the lists are dropped and read again.
 */

const K1 = 1.2;
const B = 0.75;
const TOKENIZER = `tokenize='porter unicode61 remove_diacritics 2'`;
const COLUMNS = ['text', 'title', 'section', 'codes'] as const;

/** A term's postings as FTS5 holds them at the state's version. */
interface TermList {
  docs: Int32Array;
  /** Weighted frequencies: float32 when every one is exactly a float32 (binary-fraction weights), else float64. */
  freqs: Float32Array | Float64Array;
}

interface IndexState {
  version: number;
  weightsKey: string;
  weights: Weights;
  /** The postings of the terms queried so far, as FTS5 holds them at `version` (kept current by `catchUp`). */
  terms: Map<string, TermList>;
  /** Postings held in `terms` (at most POSTINGS_HELD; then they are dropped and read again). */
  held: number;
  /** |D| by rid (-1: no row) */
  docLen: Int32Array;
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
export const KEYWORD_INDEX_STATS = { states: 0, termReads: 0, changedRows: 0, changedTerms: 0, fallbacks: 0, drops: 0 };

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

const narrow = (f: Float64Array): Float32Array | Float64Array => {
  const n = Float32Array.from(f);
  for (let i = 0; i < f.length; i++) if (n[i] !== f[i]) return f;
  return n;
};

const create = (stmt: Stmt, c: Collection, key: string, weights: Weights): IndexState => {
  KEYWORD_INDEX_STATS.states++;
  const fts = ftsTable(c.cid);
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
    weights,
    terms: new Map(),
    held: 0,
    docLen,
    rows,
    ...totals(stmt, fts),
    scores: new Float64Array(docLen.length),
  };
};

/**
 * One term's fts5vocab 'instance' rows as one integer each, rid · 4 + column index, in the table's order (doc, column,
 * offset): a row as a number costs a third of a [term, doc, col] array (measured 9.5 against 25 ms for 36k instances).
 */
const INSTANCES = (vocab: string): string =>
  `SELECT doc * 4 + CASE col ${COLUMNS.map((c, i) => `WHEN '${c}' THEN ${i}`).join(' ')} ELSE 0 END
   FROM ${vocab} WHERE term = ?`;

/**
 * A term's postings from its instance codes (INSTANCES): the weighted frequency per rid, the column weights added one
 * instance at a time in the instances' order (column by column), as fts5Bm25Function adds them.
 */
const listOf = (codes: number[], weights: Weights): TermList => {
  const docs: number[] = [];
  const freqs: number[] = [];
  let rid = -1;
  let f = 0;
  for (const code of codes) {
    const d = Math.floor(code / 4);
    if (d !== rid) {
      if (rid >= 0) {
        docs.push(rid);
        freqs.push(f);
      }
      rid = d;
      f = 0;
    }
    f += weights[code - 4 * d] as number;
  }
  if (rid >= 0) {
    docs.push(rid);
    freqs.push(f);
  }
  return { docs: Int32Array.from(docs), freqs: narrow(Float64Array.from(freqs)) };
};

/** A term's postings as FTS5 holds them now (fts5vocab 'instance' with `term =`: its posting list only). */
const readTerm = (stmt: Stmt, c: Collection, term: string, weights: Weights): TermList => {
  KEYWORD_INDEX_STATS.termReads++;
  const vocab = `vs_ftsi_${c.cid}`;
  stmt(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${vocab} USING fts5vocab(main, ${ftsTable(c.cid)}, 'instance')`).run();
  return listOf(
    stmt(INSTANCES(`temp.${vocab}`))
      .pluck()
      .all(term) as number[],
    weights,
  );
};

/**
 * The connection's table of changed rows (contentless, emptied by 'delete-all'), with its row and instance
 * vocabularies: the changed rows' texts are tokenized there by FTS5 itself, with the collection's tokenizer.
 */
const changedTable = (stmt: Stmt): string => {
  const t = 'vs_kchg';
  stmt(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t} USING fts5(text, title, section, codes, content='', ${TOKENIZER})`,
  ).run();
  stmt(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t}_r USING fts5vocab(temp, ${t}, 'row')`).run();
  stmt(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${t}_i USING fts5vocab(temp, ${t}, 'instance')`).run();
  return t;
};

/**
 * Brings `s` to `c.version` in place: the rows changed since (vectors' `ver`, the deleted log) leave every held list,
 * and their current texts are tokenized by FTS5 in the connection's changed-rows table, whose postings of the held
 * terms (only those the changed rows hold: its 'row' vocabulary says which) join the lists; their |D| is re-read
 * and N and avgdl follow from the averages record. False: more rows changed than a quarter of the collection (cheaper
 * to start again).
 */
const catchUp = (stmt: Stmt, c: Collection, s: IndexState): boolean => {
  const changed = stmt(
    `SELECT rid FROM ${vectorsTable(c.cid)} WHERE ver > ? UNION SELECT rid FROM ${deletedTable(c.cid)} WHERE ver > ?`,
  )
    .pluck()
    .all(s.version, s.version) as number[];
  if (changed.length > s.rows / 4 + 64) return false;
  if (changed.length > 0) {
    const fts = ftsTable(c.cid);
    let top = 0;
    for (const rid of changed) if (rid > top) top = rid;
    s.docLen = grownInt(s.docLen, top, -1);
    const isChanged = new Uint8Array(s.docLen.length);
    for (const rid of changed) isChanged[rid] = 1;
    const size = stmt(`SELECT sz FROM ${fts}_docsize WHERE id = ?`).pluck();
    let rowsNow = s.rows;
    for (const rid of changed) {
      const sz = size.get(rid) as Buffer | undefined;
      if ((s.docLen[rid] as number) >= 0) rowsNow--;
      s.docLen[rid] = sz === undefined ? -1 : sum(varints(sz));
      if (sz !== undefined) rowsNow++;
    }
    s.rows = rowsNow;
    if (s.scores.length < s.docLen.length) s.scores = new Float64Array(s.docLen.length);
    if (s.terms.size > 0) {
      // Out of every held list: the postings of changed rows.
      for (const [term, l] of s.terms) {
        let keep = 0;
        for (let p = 0; p < l.docs.length; p++) if (isChanged[l.docs[p] as number] === 0) keep++;
        if (keep === l.docs.length) continue;
        const docs = new Int32Array(keep);
        const freqs = l.freqs instanceof Float32Array ? new Float32Array(keep) : new Float64Array(keep);
        for (let p = 0, q = 0; p < l.docs.length; p++) {
          const rid = l.docs[p] as number;
          if (isChanged[rid] === 0) {
            docs[q] = rid;
            freqs[q++] = l.freqs[p] as number;
          }
        }
        s.held -= l.docs.length - keep;
        s.terms.set(term, { docs, freqs });
      }
      // Into them: the changed rows as they are now, tokenized by FTS5.
      const chg = changedTable(stmt);
      stmt(`INSERT INTO temp.${chg}(${chg}) VALUES ('delete-all')`).run();
      stmt(
        `INSERT INTO temp.${chg}(rowid, text, title, section, codes)
         SELECT rid, text, title, section, codes FROM ${chunksTable(c.cid)} WHERE rid IN (SELECT value FROM json_each(?))`,
      ).run(JSON.stringify(changed));
      const present = (stmt(`SELECT term FROM temp.${chg}_r`).pluck().all() as string[]).filter((t) => s.terms.has(t));
      const inst = stmt(INSTANCES(`temp.${chg}_i`)).pluck();
      for (const term of present) {
        const add = listOf(inst.all(term) as number[], s.weights);
        const l = s.terms.get(term) as TermList;
        const n = l.docs.length + add.docs.length;
        const docs = new Int32Array(n);
        docs.set(l.docs);
        docs.set(add.docs, l.docs.length);
        const wide = l.freqs instanceof Float64Array || add.freqs instanceof Float64Array;
        const freqs = wide ? new Float64Array(n) : new Float32Array(n);
        freqs.set(l.freqs);
        freqs.set(add.freqs, l.docs.length);
        s.held += add.docs.length;
        KEYWORD_INDEX_STATS.changedTerms++;
        s.terms.set(term, { docs, freqs });
      }
      stmt(`INSERT INTO temp.${chg}(${chg}) VALUES ('delete-all')`).run();
      if (s.held > POSTINGS_HELD.max) {
        KEYWORD_INDEX_STATS.drops++;
        s.terms.clear();
        s.held = 0;
      }
    }
    KEYWORD_INDEX_STATS.changedRows += changed.length;
    Object.assign(s, totals(stmt, fts));
  }
  s.version = c.version;
  return true;
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
    s = create(stmt, c, key, weights);
    byCid.set(c.cid, s);
  }
  return s;
};

/** Drops the connection's indexes (the bench and the specs start again). */
export const dropKeywordIndexes = (stmt: Stmt): void => {
  states.delete(stmt);
};

/** Memory held by the connection's index of a collection, in bytes (typed arrays only; maps besides). */
export const keywordIndexBytes = (stmt: Stmt, cid: number): number => {
  const s = states.get(stmt)?.get(cid);
  if (!s) return 0;
  let n = s.docLen.byteLength + s.scores.byteLength;
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
    return l;
  });
  const { docLen, scores } = s;
  // A rid is touched once its score leaves 0: every contribution is > 0 (idf >= 1e-6, weights > 0).
  const touched: number[] = [];
  const avgdl = s.avgdl;
  for (const { docs, freqs } of lists) {
    const nHit = docs.length;
    if (nHit === 0) continue;
    // SQLite's ln() (C's log(), as fts5_aux.c calls): V8's Math.log differs from it in the last bit for ~8 % of
    // arguments, which moved final scores by an ulp.
    let idf = stmt('SELECT ln(?)')
      .pluck()
      .get((s.nRow - nHit + 0.5) / (nHit + 0.5)) as number;
    if (idf <= 0) idf = 1e-6;
    for (let p = 0; p < docs.length; p++) {
      const rid = docs[p] as number;
      const f = freqs[p] as number;
      const d = docLen[rid] as number;
      const v = idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * d) / avgdl)));
      const prev = scores[rid] as number;
      if (prev === 0) touched.push(rid);
      scores[rid] = prev + v;
    }
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
