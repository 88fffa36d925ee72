// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Database as Db, Statement, Transaction } from 'better-sqlite3';
import type { Logger } from '@lectern/runtime';
import { fuse, type FusionDefaults, type Scored } from '../fusion.js';
import {
  checkFilter,
  checkHybridOptions,
  checkLimit,
  checkName,
  checkQueryTarget,
  collectionNotFound,
} from '../validation.js';
import type { EmbeddingFingerprint, Filter, Hit, HybridOptions } from '../vector-store.port.js';
import { DenseCache } from './dense-cache.js';
import type { DenseSearch } from './dense-index.js';
import { denseCandidates, hits, keywordCandidates, keywordSecondPass, type Stmt } from './embedded-search.js';
import { pointsTable, readCollection, type Collection } from './embedded-schema.js';

/** A prepared-statement cache over `db` (at most ~256 statements kept). */
export const statementCache = (db: Db): Stmt => {
  const statements = new Map<string, Statement>();
  return (sql: string): Statement => {
    let s = statements.get(sql);
    if (!s) {
      if (statements.size > 256) statements.clear();
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };
};

/** Where a reader gets a collection's matrix: DenseCache (its own), or a search worker's SharedDenseCache. */
export interface MatrixSource {
  /** Loads the matrix ahead of the read transaction (no-op once held). */
  warm(c: Collection): Promise<void>;
  /** The matrix at `c.version`, inside the read transaction that read `c`. */
  at(c: Collection): DenseSearch;
}

export interface DenseQuery {
  fingerprint: EmbeddingFingerprint;
  filter?: Filter;
  limit: number;
}

/**
 * The query side of the embedded store: dense, keyword and hybrid search over one connection, each in one read
 * transaction (one snapshot). The adapter runs it on its own connection (`SEARCH_THREADS=0`); each search worker
 * thread (search.worker.ts) runs one over its own read-only connection, with its own statement cache and a view of
 * the matrices the workers share (`SharedDenseCache`): a snapshot begun after a write committed sees that write, and
 * the matrix catches up to the collection's version inside the snapshot (`MatrixSource.at`), so a search never lags
 * a write that has returned.
 */
export class EmbeddedReader {
  /** One transaction function for every read: `db.transaction(fn)` per search built a new wrapper each time. */
  private readonly tx: Transaction<(fn: () => unknown) => unknown>;

  constructor(
    db: Db,
    readonly stmt: Stmt,
    readonly dense: MatrixSource,
    private readonly prefix: string,
    private readonly fusion: FusionDefaults,
  ) {
    this.tx = db.transaction((fn: () => unknown) => fn());
  }

  static open(
    db: Db,
    prefix: string,
    fusion: FusionDefaults,
    log?: Logger,
    matrices: (stmt: Stmt) => MatrixSource = (stmt) => new DenseCache(stmt, log),
  ): EmbeddedReader {
    const stmt = statementCache(db);
    return new EmbeddedReader(db, stmt, matrices(stmt), prefix, fusion);
  }

  /** The collection by the callers' name, through the statement cache (a search's hot path). */
  lookup(name: string): Collection | null {
    return readCollection(this.stmt, this.prefix + checkName(name));
  }

  private require(name: string): Collection {
    const c = this.lookup(name);
    if (!c) throw collectionNotFound(name);
    return c;
  }

  /** Loads the collection's matrix without blocking the event loop for long (no-op once held). */
  private async warm(name: string): Promise<void> {
    const c = this.lookup(name);
    if (c) await this.dense.warm(c);
  }

  /** Runs `fn` in one read transaction, so every statement sees the same snapshot. */
  private read<T>(fn: () => T): T {
    return this.tx.deferred(fn) as T;
  }

  async searchDense(name: string, vector: Float32Array | number[], opts: DenseQuery): Promise<Hit[]> {
    const limit = checkLimit(opts.limit);
    const filter = checkFilter(opts.filter);
    await this.warm(name);
    return this.read(() => {
      const c = this.require(name);
      const q = checkQueryTarget(name, c, vector, opts.fingerprint, false);
      const found = denseCandidates(this.stmt, this.dense.at(c), c, q, filter, limit).map(
        ([rid, s]): [number, number] => [rid, Math.max(0, s)],
      );
      return hits(this.stmt, c, found);
    });
  }

  async searchKeyword(name: string, query: string, opts: { filter?: Filter; limit: number }): Promise<Hit[]> {
    const limit = checkLimit(opts.limit);
    const filter = checkFilter(opts.filter);
    return this.read(() => {
      const c = this.require(name);
      checkQueryTarget(name, c, null, undefined, true);
      return hits(this.stmt, c, keywordCandidates(this.stmt, c, query, filter, limit));
    });
  }

  /**
   * The keyword side's second scoring pass (lexical.ts `secondPass`) alone, over the given first-pass candidates (ids
   * and keyword scores, best first); ids not in the collection are left out. For the adapters' parity spec: the
   * keyword and hybrid searches run the same code on their bm25() candidates.
   */
  keywordSecondPass(
    name: string,
    query: string,
    candidates: readonly { id: string; score: number }[],
    limit: number,
  ): { id: string; score: number }[] {
    return this.read(() => {
      const c = this.require(name);
      const rids = new Map(
        (
          this.stmt(`SELECT id, rid FROM ${pointsTable(c.cid)} WHERE id IN (SELECT value FROM json_each(?))`).all(
            JSON.stringify(candidates.map((x) => x.id)),
          ) as { id: string; rid: number }[]
        ).map((r) => [r.id, r.rid]),
      );
      const ids = new Map([...rids].map(([id, rid]) => [rid, id]));
      const known = candidates.flatMap((x) => {
        const rid = rids.get(x.id);
        return rid === undefined ? [] : [{ rid, score: x.score }];
      });
      return keywordSecondPass(this.stmt, c, query, known, limit).map(([rid, score]) => ({
        id: ids.get(rid) ?? '',
        score,
      }));
    });
  }

  async searchHybrid(
    name: string,
    q: { vector: Float32Array | number[]; text: string },
    opts: HybridOptions,
  ): Promise<Hit[]> {
    const { limit, filter, fusion: p } = checkHybridOptions(opts, this.fusion);
    await this.warm(name);
    return this.read(() => {
      const c = this.require(name);
      const v = checkQueryTarget(name, c, q.vector, opts.fingerprint, true);
      const scored = (l: [number, number][]): Scored[] => l.map(([rid, score]) => ({ id: String(rid), score }));
      const dense = scored(denseCandidates(this.stmt, this.dense.at(c), c, v, filter, p.candidates));
      const keyword = scored(
        keywordCandidates(this.stmt, c, q.text, filter, p.candidates, p.documentEvidence, p.documentEvidenceSpan),
      );
      const fused = fuse(dense, keyword, p, limit);
      const keywordScore = new Map(keyword.map((k) => [Number(k.id), k.score]));
      const cosine = this.dense.at(c).similarity(
        v,
        fused.map((f) => Number(f.id)),
      );
      const extra = new Map(
        fused.map((f) => {
          const rid = Number(f.id);
          return [
            rid,
            {
              denseRank: f.denseRank,
              keywordRank: f.keywordRank,
              denseScore: Math.max(0, cosine.get(rid) ?? 0),
              keywordScore: keywordScore.get(rid),
            },
          ];
        }),
      );
      return hits(
        this.stmt,
        c,
        fused.map((f) => [Number(f.id), f.score]),
        extra,
      ).map((h) => dropUndefined(h));
    });
  }
}

const dropUndefined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
