// SPDX-License-Identifier: AGPL-3.0-or-later
import Database, { type Database as Db } from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@lectern/runtime';
import type { FusionDefaults } from '../fusion.js';
import {
  assertFingerprint,
  checkOrderBy,
  checkDeleteFilter,
  checkPatch,
  checkFilter,
  checkFingerprint,
  checkLimit,
  checkName,
  checkPoints,
  collectionNotFound,
  checkQueryTarget,
  sameFingerprint,
} from '../validation.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { searchAcross, type CollectionHit, type SearchManyOptions, type SearchTarget } from '../multi-search.js';
import type {
  CollectionInfo,
  EmbeddingFingerprint,
  EnsureCollectionSpec,
  Filter,
  Hit,
  HybridOptions,
  Inspection,
  Point,
  ScrollOptions,
  StoredPoint,
  UpsertOptions,
  VectorStore,
  WriteOptions,
} from '../vector-store.port.js';
import { DenseCache } from './dense-cache.js';
import type { Stmt } from './embedded-search.js';
import { EmbeddedReader, statementCache, type DenseQuery } from './embedded-reader.js';
import { SEARCH_IDLE_TRIM_MS, SearchPool } from './search-pool.js';
import {
  CATALOG_DDL,
  chunksTable,
  deletedTable,
  vectorsTable,
  createFtsSql,
  createPointsSql,
  dropCollectionSql,
  pointsTable,
  readCollection,
  toCollection,
  type CatalogRow,
  type Collection,
} from './embedded-schema.js';
import { compileFilter } from './sql-filter.js';
import { fillLexicalFields, upgradeLexicalSchema } from './embedded-upgrade.js';
import { LEXICAL_PAYLOAD_KEYS, lexicalFields } from '../lexical.js';

export const EMBEDDED_DB_FILE = 'vectors.sqlite';

/**
 * Points (or ids) per write transaction. Between two, the event loop runs (a deadline or shutdown can fire) and the
 * caller's signal is checked; a batch is all-or-nothing, a call of several batches is not (see `WriteOptions`).
 */
export const EMBEDDED_WRITE_BATCH = 500;

/** Lets timers and I/O run between two write transactions (each one holds the thread while it runs). */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Row {
  rid: number;
  id: string;
  payload: string;
  text: string;
  vector?: Buffer;
}

const toBlob = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const fromBlob = (b: Buffer): Float32Array =>
  new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

/**
 * Embedded store: one SQLite file (WAL) under the data directory. Several processes may read while one
 * writes; writes go in IMMEDIATE transactions of at most `EMBEDDED_WRITE_BATCH` rows (a crash leaves all of a batch
 * or none of it), the caller's signal checked before each.
 */
export class EmbeddedVectorStore implements VectorStore {
  readonly engine = 'embedded' as const;
  private readonly db: Db;
  private readonly stmt: Stmt;
  private readonly dense: DenseCache;
  private readonly reader: EmbeddedReader;
  private readonly pool: SearchPool | null;

  /**
   * `searchThreads` > 0: searches run in that many worker threads (`SearchPool`), each over its own read-only
   * connection to this file; writes stay on this connection. 0 (default here): searches run on this thread.
   */
  constructor(opts: {
    dataDir: string;
    collectionPrefix?: string;
    fusion?: FusionDefaults;
    log?: Logger;
    searchThreads?: number;
    searchQueue?: number;
  }) {
    this.fusion = opts.fusion ?? {};
    mkdirSync(opts.dataDir, { recursive: true });
    this.prefix = opts.collectionPrefix ?? 'lectern_';
    this.log = opts.log;
    const file = join(opts.dataDir, EMBEDDED_DB_FILE);
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 10000');
    // Reads through a memory map and a larger page cache: filters scan the points table. With search workers (which
    // read through their own memory maps) this connection mostly writes: no map of its own, whose resident pages
    // counted once more in the process's memory (docs/benchmarks/load.md, "Memory").
    const pooled = opts.searchThreads !== undefined && opts.searchThreads > 0;
    this.db.pragma(`mmap_size = ${pooled ? 0 : 1073741824}`);
    this.db.pragma('cache_size = -65536');
    this.db.exec(CATALOG_DDL);
    upgradeLexicalSchema(this.db, this.log);
    this.stmt = statementCache(this.db);
    this.dense = new DenseCache(this.stmt, this.log);
    this.reader = new EmbeddedReader(this.db, this.stmt, this.dense, this.prefix, this.fusion);
    this.pool =
      opts.searchThreads && opts.searchThreads > 0
        ? new SearchPool({
            file,
            prefix: this.prefix,
            fusion: this.fusion,
            threads: opts.searchThreads,
            ...(opts.searchQueue !== undefined ? { maxQueued: opts.searchQueue } : {}),
            ...(opts.log ? { log: opts.log } : {}),
          })
        : null;
  }

  private readonly prefix: string;
  private readonly log: Logger | undefined;
  private readonly fusion: FusionDefaults;

  /** The worker-thread pool (tests); null when searches run on this thread. */
  get searchPool(): SearchPool | null {
    return this.pool;
  }

  private physical(name: string): string {
    return this.prefix + checkName(name);
  }

  /**
   * Points per collection, at the version they were counted at. Every write that adds or removes points bumps the
   * collection's version in its transaction (any process's: `bump`), so a count is good while the version read with
   * it holds; `getCollection` runs on every search's project lookup, and `count(*)` scanned the id index each time
   * (10k points: ~0.2 ms). One entry per collection; a dropped collection's goes with it (its cid is never reused).
   */
  private readonly counts = new Map<number, { version: number; n: number }>();

  private pointsCount(c: Collection): number {
    const held = this.counts.get(c.cid);
    if (held?.version === c.version) return held.n;
    const n = (this.stmt(`SELECT count(*) AS n FROM ${pointsTable(c.cid)}`).get() as { n: number }).n;
    if (this.counts.size >= 1024) this.counts.clear();
    this.counts.set(c.cid, { version: c.version, n });
    return n;
  }

  private info(c: Collection): CollectionInfo {
    return {
      name: c.name.slice(this.prefix.length),
      physicalName: c.name,
      fingerprint: c.fingerprint,
      hybrid: c.hybrid,
      pointsCount: this.pointsCount(c),
    };
  }

  private require(name: string): Collection {
    const c = readCollection(this.stmt, this.physical(name));
    if (!c) throw collectionNotFound(name);
    return c;
  }

  private bump(c: Collection): void {
    this.stmt('UPDATE vs_collections SET version = version + 1 WHERE cid = ?').run(c.cid);
    // 30 s after the last write, the connection's spare page-cache memory goes back (sqlite3_db_release_memory)
    clearTimeout(this.idleTrim);
    this.idleTrim = setTimeout(() => {
      if (this.db.open) this.db.pragma('shrink_memory');
    }, SEARCH_IDLE_TRIM_MS);
    this.idleTrim.unref();
  }

  private idleTrim: NodeJS.Timeout | undefined;

  async ensureCollection(name: string, spec: EnsureCollectionSpec): Promise<CollectionInfo> {
    const fp = checkFingerprint(spec.fingerprint);
    const physical = this.physical(name);
    this.checked.delete(name);
    const run = this.db.transaction((): Collection => {
      let c = readCollection(this.stmt, physical);
      if (c && !sameFingerprint(c.fingerprint, fp)) {
        if (!spec.migrate) assertFingerprint(name, c.fingerprint, fp);
        this.log?.warn(
          { collection: physical, from: c.fingerprint, to: fp },
          'embedding migration: collection emptied',
        );
        this.db.exec(dropCollectionSql(c.cid));
        this.db.prepare('DELETE FROM vs_collections WHERE cid = ?').run(c.cid);
        this.dense.drop(c.cid);
        this.pool?.drop(c.cid);
        this.counts.delete(c.cid);
        c = null;
      }
      if (!c) {
        const r = this.db
          .prepare('INSERT INTO vs_collections(name, fingerprint, hybrid, created_at) VALUES (?, ?, ?, ?) RETURNING *')
          .get(physical, JSON.stringify(fp), spec.hybrid ? 1 : 0, new Date().toISOString()) as CatalogRow;
        c = toCollection(r);
        this.db.exec(createPointsSql(c.cid));
        if (c.hybrid) this.db.exec(createFtsSql(c.cid));
      } else if (spec.hybrid && !c.hybrid) {
        this.db.exec(createFtsSql(c.cid));
        this.db.prepare('UPDATE vs_collections SET hybrid = 1 WHERE cid = ?').run(c.cid);
        c = { ...c, hybrid: true };
      }
      return c;
    });
    return this.info(run.immediate());
  }

  async getCollection(name: string): Promise<CollectionInfo | null> {
    const c = readCollection(this.stmt, this.physical(name));
    return c ? this.info(c) : null;
  }

  async listCollections(): Promise<CollectionInfo[]> {
    const rows = this.db
      .prepare('SELECT cid, name, fingerprint, hybrid, version FROM vs_collections ORDER BY name')
      .all() as CatalogRow[];
    return rows.filter((r) => r.name.startsWith(this.prefix)).map((r) => this.info(toCollection(r)));
  }

  async dropCollection(name: string): Promise<boolean> {
    const physical = this.physical(name);
    this.checked.delete(name);
    const run = this.db.transaction((): boolean => {
      const c = readCollection(this.stmt, physical);
      if (!c) return false;
      this.db.exec(dropCollectionSql(c.cid));
      this.db.prepare('DELETE FROM vs_collections WHERE cid = ?').run(c.cid);
      this.dense.drop(c.cid);
      this.pool?.drop(c.cid);
      this.counts.delete(c.cid);
      return true;
    });
    return run.immediate();
  }

  async upsert(name: string, points: Point[], opts: UpsertOptions): Promise<void> {
    if (points.length === 0) return;
    // Every point is checked before the first batch is written: invalid input writes nothing.
    const checked = this.require(name);
    assertFingerprint(name, checked.fingerprint, checkFingerprint(opts.fingerprint));
    const vectors = checkPoints(points, checked.fingerprint.dimension);
    for (let start = 0; start < points.length; start += EMBEDDED_WRITE_BATCH) {
      if (start > 0) await yieldToEventLoop();
      opts.signal?.throwIfAborted();
      const end = start + EMBEDDED_WRITE_BATCH;
      this.upsertBatch(name, points.slice(start, end), vectors.slice(start, end), opts.fingerprint);
    }
  }

  /** One write transaction (the collection read again inside it: its version, and it may have been dropped). */
  private upsertBatch(name: string, points: Point[], vectors: Float32Array[], fingerprint: EmbeddingFingerprint): void {
    const run = this.db.transaction(() => {
      const c = this.require(name);
      assertFingerprint(name, c.fingerprint, fingerprint);
      const ins = this.stmt(
        `INSERT INTO ${pointsTable(c.cid)}(id, payload) VALUES (?, jsonb(?))
         ON CONFLICT(id) DO UPDATE SET payload = excluded.payload RETURNING rid`,
      );
      // An unchanged chunk is not rewritten, so re-ingesting the same chunks leaves the full-text index alone.
      const chunk = this.stmt(
        `INSERT INTO ${chunksTable(c.cid)}(rid, text, title, section, codes) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(rid) DO UPDATE SET text = excluded.text, title = excluded.title, section = excluded.section,
           codes = excluded.codes
         WHERE text IS NOT excluded.text OR title IS NOT excluded.title OR section IS NOT excluded.section
           OR codes IS NOT excluded.codes`,
      );
      const vec = this.stmt(
        `INSERT INTO ${vectorsTable(c.cid)}(rid, ver, vector) VALUES (?, ?, ?)
         ON CONFLICT(rid) DO UPDATE SET ver = excluded.ver, vector = excluded.vector`,
      );
      const rids = points.map((p, i) => {
        const { rid } = ins.get(p.id, JSON.stringify(p.payload)) as { rid: number };
        const f = lexicalFields(p.payload, p.text);
        chunk.run(rid, p.text, f.title, f.section, f.codes);
        vec.run(rid, c.version + 1, toBlob(vectors[i] as Float32Array));
        return rid;
      });
      this.bump(c);
      return { c, rids };
    });
    const { c, rids } = run.immediate();
    this.dense.afterWrite(
      c,
      rids.map((rid, i) => ({ rid, vector: vectors[i] as Float32Array })),
      [],
    );
  }

  /** Deletes the points `where` selects (over `T AS p`), at most `limit` of them, in one transaction. */
  private deleteWhere(name: string, where: string, params: unknown[], limit = -1): number {
    const run = this.db.transaction(() => {
      const c = this.require(name);
      const table = pointsTable(c.cid);
      const rows = this.stmt(
        `DELETE FROM ${table} WHERE rid IN (SELECT p.rid FROM ${table} AS p WHERE ${where} LIMIT ?) RETURNING rid`,
      ).all(...params, limit) as { rid: number }[];
      if (rows.length > 0) {
        this.stmt(`INSERT INTO ${deletedTable(c.cid)}(rid, ver) SELECT value, ? FROM json_each(?)`).run(
          c.version + 1,
          JSON.stringify(rows.map((r) => r.rid)),
        );
        this.bump(c);
      }
      return { c, rids: rows.map((r) => r.rid) };
    });
    const { c, rids } = run.immediate();
    if (rids.length > 0) this.dense.afterWrite(c, [], rids);
    return rids.length;
  }

  async deleteByIds(name: string, ids: string[], opts: WriteOptions = {}): Promise<number> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) {
      this.require(name);
      return 0;
    }
    let deleted = 0;
    for (let start = 0; start < unique.length; start += EMBEDDED_WRITE_BATCH) {
      if (start > 0) await yieldToEventLoop();
      opts.signal?.throwIfAborted();
      const batch = unique.slice(start, start + EMBEDDED_WRITE_BATCH);
      deleted += this.deleteWhere(name, 'p.id IN (SELECT value FROM json_each(?))', [JSON.stringify(batch)]);
    }
    return deleted;
  }

  async deleteByFilter(name: string, filter: Filter, opts: WriteOptions = {}): Promise<number> {
    const f = compileFilter(checkDeleteFilter(filter));
    let deleted = 0;
    for (let first = true; ; first = false) {
      if (!first) await yieldToEventLoop();
      opts.signal?.throwIfAborted();
      const n = this.deleteWhere(name, f.sql, f.params, EMBEDDED_WRITE_BATCH);
      deleted += n;
      if (n < EMBEDDED_WRITE_BATCH) return deleted;
    }
  }

  async setPayload(name: string, filter: Filter, patch: Record<string, unknown>): Promise<number> {
    const f = compileFilter(checkDeleteFilter(filter));
    const json = JSON.stringify(checkPatch(patch));
    // json_patch is RFC 7396 (merge patch): the patch holds no nulls, so it only sets keys. The vectors are
    // unchanged, but the patched points' vector rows take the version this write makes (and the collection version
    // is bumped): every write marks the points it changed there, and the keyword side's per-point cache of payload
    // values (document_id, running_header; embedded-search.ts, ChunkState) evicts exactly those. The dense cache
    // re-reads those rows on its next catch-up (the same vectors).
    const run = this.db.transaction(() => {
      const c = this.require(name);
      const rids = this.stmt(
        `UPDATE ${pointsTable(c.cid)} AS p SET payload = jsonb_patch(p.payload, ?) WHERE ${f.sql} RETURNING rid`,
      )
        .pluck()
        .all(json, ...f.params) as number[];
      // A patched title or section path re-derives those points' lexical fields (and so their index entries).
      if (rids.length > 0 && LEXICAL_PAYLOAD_KEYS.some((k) => k in patch)) fillLexicalFields(this.db, c.cid, rids);
      if (rids.length > 0) {
        this.stmt(`UPDATE ${vectorsTable(c.cid)} SET ver = ? WHERE rid IN (SELECT value FROM json_each(?))`).run(
          c.version + 1,
          JSON.stringify(rids),
        );
        this.bump(c);
      }
      return rids.length;
    });
    return run.immediate();
  }

  async count(name: string, filter?: Filter): Promise<number> {
    const c = this.require(name);
    const f = compileFilter(checkFilter(filter));
    return (
      this.stmt(`SELECT count(*) AS n FROM ${pointsTable(c.cid)} p WHERE ${f.sql}`).get(...f.params) as { n: number }
    ).n;
  }

  async scroll(name: string, opts: ScrollOptions = {}): Promise<{ points: StoredPoint[]; next: string | null }> {
    const c = this.require(name);
    const limit = checkLimit(opts.limit ?? 100);
    const f = compileFilter(checkFilter(opts.filter));
    const cursor = decodeCursor(opts.cursor, opts.orderBy);
    const cols = `p.rid, p.id, json(p.payload) AS payload, ch.text${opts.withVector ? ', vv.vector' : ''}`;
    const from =
      `${pointsTable(c.cid)} p JOIN ${chunksTable(c.cid)} ch ON ch.rid = p.rid` +
      (opts.withVector ? ` JOIN ${vectorsTable(c.cid)} vv ON vv.rid = p.rid` : '');
    const params: unknown[] = [...f.params];
    let sql: string;
    if (opts.orderBy === undefined) {
      sql = `SELECT ${cols} FROM ${from} WHERE ${f.sql}${cursor ? ' AND p.id > ?' : ''} ORDER BY p.id LIMIT ?`;
      if (cursor) params.push(cursor.id);
    } else {
      checkOrderBy(opts.orderBy);
      const key = `json_extract(p.payload, '$.${opts.orderBy}')`;
      sql =
        `SELECT ${cols}, ${key} AS ord FROM ${from} WHERE ${f.sql} AND json_type(p.payload, '$.${opts.orderBy}') IN ('integer','real')` +
        `${cursor ? ` AND (${key} > ? OR (${key} = ? AND p.id > ?))` : ''} ORDER BY ${key}, p.id LIMIT ?`;
      if (cursor) params.push(cursor.value, cursor.value, cursor.id);
    }
    params.push(limit + 1);
    const rows = this.stmt(sql).all(...params) as (Row & { ord?: number })[];
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const next =
      rows.length > limit && last ? encodeCursor({ id: last.id, value: last.ord, orderBy: opts.orderBy }) : null;
    return {
      points: page.map((r) => ({
        id: r.id,
        payload: JSON.parse(r.payload) as Record<string, unknown>,
        text: r.text,
        ...(r.vector ? { vector: Array.from(fromBlob(r.vector)) } : {}),
      })),
      next,
    };
  }

  /** Runs `fn` in one read transaction, so every statement sees the same snapshot. */
  private read<T>(fn: () => T): T {
    return this.db.transaction(fn).deferred();
  }

  /**
   * With the pool: what a search would refuse at once (bad input, an unknown collection, a wrong model, no full-text
   * index) is refused here, on this thread, before a worker is asked (the worker checks again in its snapshot).
   */
  private pooled(
    name: string,
    opts: { limit: number; filter?: Filter | undefined; fingerprint?: EmbeddingFingerprint },
    vector: Float32Array | number[] | null,
    keyword: boolean,
  ): SearchPool | null {
    if (!this.pool) return null;
    checkLimit(opts.limit);
    checkFilter(opts.filter);
    // The worker checks again in its snapshot, so a collection that passed before may pass on what was read then
    // (one SQLite read fewer per search); a refusal is only given on what is read now.
    const held = this.checked.get(name);
    if (held) {
      try {
        checkQueryTarget(name, held, vector, opts.fingerprint, keyword);
        return this.pool;
      } catch {
        this.checked.delete(name);
      }
    }
    const c = this.reader.lookup(name);
    if (!c) throw collectionNotFound(name);
    checkQueryTarget(name, c, vector, opts.fingerprint, keyword);
    if (this.checked.size >= 256) this.checked.clear();
    this.checked.set(name, c);
    return this.pool;
  }

  /** Collections a pooled search's early check passed on, by the callers' name (see `pooled`). */
  private readonly checked = new Map<string, Collection>();

  async searchDense(name: string, vector: Float32Array | number[], opts: DenseQuery): Promise<Hit[]> {
    return (this.pooled(name, opts, vector, false) ?? this.reader).searchDense(name, vector, opts);
  }

  async searchKeyword(name: string, query: string, opts: { filter?: Filter; limit: number }): Promise<Hit[]> {
    return (this.pooled(name, opts, null, true) ?? this.reader).searchKeyword(name, query, opts);
  }

  searchMany(targets: readonly SearchTarget[], opts: SearchManyOptions): Promise<CollectionHit[]> {
    return searchAcross(this, targets, opts);
  }

  /** The keyword side's second scoring pass alone over given candidates (see EmbeddedReader; the parity spec). */
  keywordSecondPass(
    name: string,
    query: string,
    candidates: readonly { id: string; score: number }[],
    limit: number,
  ): Promise<{ id: string; score: number }[]> {
    return Promise.resolve(this.reader.keywordSecondPass(name, query, candidates, limit));
  }

  async searchHybrid(
    name: string,
    q: { vector: Float32Array | number[]; text: string },
    opts: HybridOptions,
  ): Promise<Hit[]> {
    return (this.pooled(name, opts, q.vector, true) ?? this.reader).searchHybrid(name, q, opts);
  }

  async inspect(name: string, sampleSize = 1): Promise<Inspection> {
    return this.read(() => {
      const c = this.require(name);
      const t = pointsTable(c.cid);
      const docs = this.stmt(`SELECT count(DISTINCT json_extract(payload, '$.document_id')) AS n FROM ${t}`).get() as {
        n: number;
      };
      const samples = this.stmt(`SELECT json(payload) AS payload FROM ${t} ORDER BY rid LIMIT ?`)
        .pluck()
        .all(Math.max(0, Math.min(sampleSize, 10))) as string[];
      return {
        ...this.info(c),
        documentsCount: docs.n,
        indexes: [
          { field: 'vector', type: `dense ${c.fingerprint.dimension}-d cosine (in-memory int8 scan, exact rescoring)` },
          { field: 'id', type: 'keyword (unique)' },
          ...(c.hybrid ? [{ field: 'text', type: 'full-text (FTS5, BM25)' }] : []),
        ],
        samplePayloads: samples.map((s) => JSON.parse(s) as Record<string, unknown>),
        engine: this.engine,
      };
    });
  }

  async ping(): Promise<void> {
    this.stmt('SELECT 1').get();
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTrim);
    await this.pool?.close();
    this.dense.clear();
    if (this.db.open) this.db.close();
  }
}
