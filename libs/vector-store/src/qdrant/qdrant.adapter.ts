// SPDX-License-Identifier: AGPL-3.0-or-later
import { createRequire } from 'node:module';
import type * as QdrantRest from '@qdrant/js-client-rest';
import type { QdrantClient, Schemas } from '@qdrant/js-client-rest';
import { AppError } from '@lectern/contracts';
import type { Logger } from '@lectern/runtime';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { searchAcross, type CollectionHit, type SearchManyOptions, type SearchTarget } from '../multi-search.js';
import type { FusionDefaults } from '../fusion.js';
import { INTEGER_FIELDS, KEYWORD_FIELDS } from '../payload-indexes.js';
import {
  assertFingerprint,
  checkDeleteFilter,
  checkFilter,
  checkPatch,
  checkOrderBy,
  checkFingerprint,
  checkLimit,
  checkName,
  checkPoints,
  checkHybridOptions,
  checkQueryTarget,
  collectionNotFound,
  hybridNotSupported,
  sameFingerprint,
} from '../validation.js';
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
import { stemmer } from 'stemmer';
import { queryPhrases, queryTerms } from '../query-terms.js';
import {
  bm25Idf,
  codeTokens,
  FIELD_WEIGHTS,
  keywordPool,
  lexicalFields,
  secondPass,
  SHORT_CHUNK_DAMPING,
  type KeywordCandidate,
} from '../lexical.js';
import type { Scored } from '../fusion.js';

/** A query word found in the title or section path (LEX_KEY) adds this share of its IDF (cf. FIELD_WEIGHTS). */
const LEX_WEIGHT = (FIELD_WEIGHTS.title + FIELD_WEIGHTS.section) / 2;

/** What the keyword side's second pass reads of the collection: its point count and the query words' frequencies. */
interface KeywordStats {
  total: number;
  /** Points holding the word (its Porter stem as key), in the text or the lexical fields. */
  df: Map<string, number>;
}
/** The damping's mean chunk length is taken over at most this many points, and kept this long. */
const MEAN_SAMPLE = 10_000;
const MEAN_TTL_MS = 60_000;

/** The lexical fields of a point as one text (title, section path, code tokens) for the LEX_KEY index. */
const lexText = (payload: Record<string, unknown>, text: string): string => {
  const f = lexicalFields(payload, text);
  return [f.title, f.section, f.codes].filter((x) => x !== '').join('\n');
};
import { toQdrantFilter } from './qdrant-filter.js';
import { charLength, clientFusion, pairMatchScore, SECOND_PASS_KEYS, serverRrf, type Call } from './qdrant-hybrid.js';
import {
  DENSE,
  ID_KEY,
  META_KEY,
  TEXT_KEY,
  LEX_KEY,
  httpStatus,
  idf,
  pointUuid,
  readMeta,
  splitPayload,
  unavailable,
  withRetry,
  type CollectionMeta,
  type RetryPolicy,
} from './qdrant-support.js';

const foreignCollection = (name: string, physical: string): AppError =>
  new AppError(
    'INVALID_PROJECT',
    `Collection "${name}" cannot be used: "${physical}" exists in Qdrant without Lectern's metadata.`,
    {
      httpStatus: 409,
    },
  );

export interface QdrantStoreOptions {
  url: string;
  apiKey?: string;
  collectionPrefix?: string;
  fusion?: FusionDefaults;
  log?: Logger;
  /** Points per upsert request (each sent with `wait: true`). */
  batchSize?: number;
  retry?: RetryPolicy;
  /** Keyword side: at most this many full-text matches are rescored (in id order beyond it). */
  keywordScanLimit?: number;
}

/**
 * The Qdrant client (and undici under it), loaded on first use: only a store at `VECTOR_STORE_URL` needs it, and
 * every process or test file importing `@lectern/vector-store` (the composition barrels do) would otherwise load it
 * at import. Synchronous, so the constructor stays so; the production build loads it lazily too (tools/build.mjs).
 */
let qdrantModule: typeof QdrantRest | undefined;
const qdrantRest = (): typeof QdrantRest =>
  (qdrantModule ??= createRequire(import.meta.url)('@qdrant/js-client-rest') as typeof QdrantRest);

/** The full-text index on the chunk text: word tokens, lowercased, ASCII-folded, English snowball stems. */
const TEXT_INDEX: Schemas['TextIndexParams'] = {
  type: 'text',
  tokenizer: 'word',
  lowercase: true,
  ascii_folding: true,
  stemmer: { type: 'snowball', language: 'english' },
};

/**
 * Qdrant adapter. Needs Qdrant server 1.17 or newer (`@qdrant/js-client-rest` 1.18 talks to 1.17-1.19); every
 * request it sends is checked against the server 1.18 OpenAPI schema. It uses formula queries (added in
 * 1.14), the full-text index's snowball stemmer (1.15), collection metadata, `text_any` matches and the
 * parametrised, weighted RRF `{rrf: {k, weights}}`, all present in the 1.18 schema; a server too old for
 * one of them answers 400 (an internal error here, never retried).
 *
 * Keyword search without stored sparse vectors (spec 004 FR-009): Qdrant's full-text index filters but does
 * not score, so the keyword side selects the points matching any query word (`text_any`) and ranks them with a
 * formula query: Σ idf(word) over the words a point contains (BM25's IDF, no term-frequency or length terms).
 * The keyword candidates (twice as many while the short-chunk damping is on) then go through the same second
 * scoring pass as the embedded store's (lexical.ts `secondPass`: short-chunk damping inside a document, phrase
 * credit, running-header credit), fed from the points' payloads (text, `document_id`, `running_header`, fetched with
 * the points), the collection's mean text length (`meanLength`) and the count requests' document frequencies. Where
 * the inputs differ: the first-pass score (Σ IDF, no term frequency or length), the phrase-match score
 * (`pairMatchScore`: a pair found side by side gains its words' IDF, binary; FTS5 scores the pair as a phrase with
 * BM25) and the query words counted (16 here, 64 there).
 * Hybrid search: the default z-score fusion runs client-side (the same `fuse` as the embedded store) on the dense
 * and keyword candidate lists fetched with their scores in one Query API batch (the keyword list with the payload
 * keys the second pass reads); `fusion: 'rrf'` runs on the server (prefetch dense + keyword, weighted RRF) with the
 * two prefetches alone giving the component ranks, and has no second pass (the server fuses its own ranks).
 * Qdrant 1.20 scores text indexes with BM25 (`query: {text}` on a `scoring` text index); once the project
 * can use client and server 1.20, the keyword side should move to it (same port, better ranking).
 */
export class QdrantVectorStore implements VectorStore {
  readonly engine = 'qdrant' as const;
  private readonly client: QdrantClient;
  private readonly prefix: string;
  private readonly log: Logger | undefined;
  private readonly batchSize: number;
  private readonly retry: RetryPolicy;
  private readonly keywordScanLimit: number;
  /** This adapter's writes per physical collection (invalidates `means`). */
  private readonly writes = new Map<string, number>();
  private readonly means = new Map<string, { mean: number; at: number; version: number }>();
  private readonly fusion: FusionDefaults;

  constructor(o: QdrantStoreOptions) {
    this.client = new (qdrantRest().QdrantClient)({ url: o.url, apiKey: o.apiKey, checkCompatibility: false });
    this.prefix = o.collectionPrefix ?? 'lectern_';
    this.log = o.log;
    this.batchSize = o.batchSize ?? 256;
    this.retry = o.retry ?? { attempts: 4, baseDelayMs: 200 };
    this.keywordScanLimit = o.keywordScanLimit ?? 10_000;
    this.fusion = o.fusion ?? {};
  }

  private physical(name: string): string {
    return this.prefix + checkName(name);
  }

  private async call<T>(what: string, fn: (c: QdrantClient) => Promise<T>): Promise<T> {
    try {
      return await withRetry(what, () => fn(this.client), this.retry, this.log);
    } catch (e) {
      const s = httpStatus(e);
      if (s === undefined || s >= 500 || s === 429) throw unavailable(e);
      throw e;
    }
  }

  /** The collection's metadata, or null when it does not exist (or is not one of ours). */
  private async meta(physical: string): Promise<{ meta: CollectionMeta; info: Schemas['CollectionInfo'] } | null> {
    let info: Schemas['CollectionInfo'];
    try {
      info = await this.call('get collection', (c) => c.getCollection(physical));
    } catch (e) {
      if (httpStatus(e) === 404) return null;
      throw e;
    }
    const meta = readMeta(info.config.metadata);
    return meta ? { meta, info } : null;
  }

  private async require(name: string): Promise<CollectionMeta & { physical: string; info: Schemas['CollectionInfo'] }> {
    const physical = this.physical(name);
    const m = await this.meta(physical);
    if (!m) throw collectionNotFound(name);
    return { ...m.meta, physical, info: m.info };
  }

  private async countIn(physical: string, filter?: Schemas['Filter']): Promise<number> {
    return (await this.call('count', (c) => c.count(physical, { filter, exact: true }))).count;
  }

  private async infoOf(name: string, physical: string, meta: CollectionMeta): Promise<CollectionInfo> {
    return {
      name,
      physicalName: physical,
      fingerprint: meta.fingerprint,
      hybrid: meta.hybrid,
      pointsCount: await this.countIn(physical),
    };
  }

  private async createIndexes(physical: string, hybrid: boolean): Promise<void> {
    const fields: [string, Schemas['PayloadFieldSchema']][] = [
      ...KEYWORD_FIELDS.map((f): [string, Schemas['PayloadFieldSchema']] => [f, 'keyword']),
      ...INTEGER_FIELDS.map((f): [string, Schemas['PayloadFieldSchema']] => [f, 'integer']),
      [ID_KEY, 'keyword'],
      ...(hybrid
        ? [
            [TEXT_KEY, TEXT_INDEX] as [string, Schemas['PayloadFieldSchema']],
            [LEX_KEY, TEXT_INDEX] as [string, Schemas['PayloadFieldSchema']],
          ]
        : []),
    ];
    for (const [field_name, field_schema] of fields) {
      await this.call('create index', (c) => c.createPayloadIndex(physical, { field_name, field_schema, wait: true }));
    }
  }

  async ensureCollection(name: string, spec: EnsureCollectionSpec): Promise<CollectionInfo> {
    const fp = checkFingerprint(spec.fingerprint);
    const physical = this.physical(name);
    let current = await this.meta(physical);
    if (current && !sameFingerprint(current.meta.fingerprint, fp)) {
      if (!spec.migrate) assertFingerprint(name, current.meta.fingerprint, fp);
      this.log?.warn(
        { collection: physical, from: current.meta.fingerprint, to: fp },
        'embedding migration: collection recreated',
      );
      await this.call('delete collection', (c) => c.deleteCollection(physical));
      current = null;
    }
    if (!current) {
      const meta: CollectionMeta = { fingerprint: fp, hybrid: spec.hybrid };
      try {
        // The generated API, not QdrantClient.createCollection: the 1.18 wrapper drops `metadata`.
        await this.call('create collection', (c) =>
          c.api().createCollection({
            collection_name: physical,
            vectors: { [DENSE]: { size: fp.dimension, distance: 'Cosine' } },
            metadata: { [META_KEY]: meta },
          }),
        );
      } catch (e) {
        if (httpStatus(e) !== 409) throw e;
        // Created meanwhile by another process (use theirs), or a foreign collection holds the name.
        if (!(await this.meta(physical))) throw foreignCollection(name, physical);
        return this.ensureCollection(name, { ...spec, migrate: false });
      }
      await this.createIndexes(physical, spec.hybrid);
      return this.infoOf(name, physical, meta);
    }
    if (spec.hybrid && !current.meta.hybrid) {
      for (const field_name of [TEXT_KEY, LEX_KEY]) {
        await this.call('create index', (c) =>
          c.createPayloadIndex(physical, { field_name, field_schema: TEXT_INDEX, wait: true }),
        );
      }
      const meta = { ...current.meta, hybrid: true };
      await this.call('update collection', (c) => c.updateCollection(physical, { metadata: { [META_KEY]: meta } }));
      return this.infoOf(name, physical, meta);
    }
    return this.infoOf(name, physical, current.meta);
  }

  async getCollection(name: string): Promise<CollectionInfo | null> {
    const physical = this.physical(name);
    const m = await this.meta(physical);
    return m ? this.infoOf(name, physical, m.meta) : null;
  }

  async listCollections(): Promise<CollectionInfo[]> {
    const { collections } = await this.call('list collections', (c) => c.getCollections());
    const names = collections
      .map((c) => c.name)
      .filter((n) => n.startsWith(this.prefix))
      .sort();
    const out: CollectionInfo[] = [];
    for (const physical of names) {
      const m = await this.meta(physical);
      if (m) out.push(await this.infoOf(physical.slice(this.prefix.length), physical, m.meta));
    }
    return out;
  }

  async dropCollection(name: string): Promise<boolean> {
    const physical = this.physical(name);
    if (!(await this.meta(physical))) return false;
    return this.call('delete collection', (c) => c.deleteCollection(physical));
  }

  async upsert(name: string, points: Point[], opts: UpsertOptions): Promise<void> {
    if (points.length === 0) return;
    const c = await this.require(name);
    assertFingerprint(name, c.fingerprint, checkFingerprint(opts.fingerprint));
    const vectors = checkPoints(points, c.fingerprint.dimension);
    // More than `batchSize` points go as several requests: unlike one embedded write transaction, a failure or an
    // abort (the signal is checked before each request) leaves earlier requests applied; re-running the same
    // upsert is idempotent (same ids).
    for (let i = 0; i < points.length; i += this.batchSize) {
      opts.signal?.throwIfAborted();
      const batch = points.slice(i, i + this.batchSize).map((p, j) => ({
        id: pointUuid(p.id),
        vector: { [DENSE]: Array.from(vectors[i + j] as Float32Array) },
        payload: { ...p.payload, [ID_KEY]: p.id, [TEXT_KEY]: p.text, [LEX_KEY]: lexText(p.payload, p.text) },
      }));
      this.touched(c.physical);
      await this.call('upsert', (cl) => cl.upsert(c.physical, { wait: true, points: batch }));
    }
  }

  async deleteByIds(name: string, ids: string[], opts: WriteOptions = {}): Promise<number> {
    const c = await this.require(name);
    const unique = [...new Set(ids)];
    let deleted = 0;
    for (let i = 0; i < unique.length; i += this.batchSize) {
      opts.signal?.throwIfAborted();
      const uuids = unique.slice(i, i + this.batchSize).map(pointUuid);
      // Qdrant does not report how many points a delete removed: count the same selection first.
      const n = await this.countIn(c.physical, { must: [{ has_id: uuids }] });
      this.touched(c.physical);
      if (n > 0) await this.call('delete', (cl) => cl.delete(c.physical, { wait: true, points: uuids }));
      deleted += n;
    }
    return deleted;
  }

  /** One server-side delete by filter (Qdrant applies it whole); the signal is checked before it. */
  async deleteByFilter(name: string, filter: Filter, opts: WriteOptions = {}): Promise<number> {
    const qf = toQdrantFilter(checkDeleteFilter(filter)) ?? {};
    const c = await this.require(name);
    const n = await this.countIn(c.physical, qf);
    opts.signal?.throwIfAborted();
    this.touched(c.physical);
    if (n > 0) await this.call('delete', (cl) => cl.delete(c.physical, { wait: true, filter: qf }));
    return n;
  }

  async setPayload(name: string, filter: Filter, patch: Record<string, unknown>): Promise<number> {
    const qf = toQdrantFilter(checkDeleteFilter(filter)) ?? {};
    const payload = checkPatch(patch);
    const c = await this.require(name);
    // Qdrant does not report how many points a payload update touched: count the same selection first.
    const n = await this.countIn(c.physical, qf);
    if (n > 0) await this.call('set payload', (cl) => cl.setPayload(c.physical, { wait: true, payload, filter: qf }));
    return n;
  }

  async count(name: string, filter?: Filter): Promise<number> {
    const qf = toQdrantFilter(checkFilter(filter));
    const c = await this.require(name);
    return this.countIn(c.physical, qf);
  }

  async scroll(name: string, opts: ScrollOptions = {}): Promise<{ points: StoredPoint[]; next: string | null }> {
    const limit = checkLimit(opts.limit ?? 100);
    const filter = toQdrantFilter(checkFilter(opts.filter));
    checkOrderBy(opts.orderBy);
    const cursor = decodeCursor(opts.cursor, opts.orderBy);
    const c = await this.require(name);
    const with_vector = opts.withVector ? [DENSE] : false;
    const toStored = (r: Schemas['Record']): StoredPoint => {
      const s = splitPayload(r.payload);
      const v = (r.vector as Record<string, number[]> | null | undefined)?.[DENSE];
      return { id: s.id, payload: s.payload, text: s.text, ...(opts.withVector && v ? { vector: v } : {}) };
    };
    if (opts.orderBy === undefined) {
      const r = await this.call('scroll', (cl) =>
        cl.scroll(c.physical, {
          filter,
          limit,
          offset: cursor?.offset as string | number | undefined,
          with_payload: true,
          with_vector,
        }),
      );
      const next = r.next_page_offset;
      const offset = typeof next === 'string' || typeof next === 'number' ? next : null;
      return { points: r.points.map(toStored), next: offset === null ? null : encodeCursor({ id: '', offset }) };
    }
    // Ordered scrolls page by value (`start_from`); points at the boundary value already returned are skipped.
    const key = opts.orderBy;
    const seen = new Set(cursor?.seen ?? []);
    const r = await this.call('scroll', (cl) =>
      cl.scroll(c.physical, {
        filter,
        limit: limit + seen.size + 1,
        with_payload: true,
        with_vector,
        order_by: { key, direction: 'asc', ...(cursor?.value !== undefined ? { start_from: cursor.value } : {}) },
      }),
    );
    const rest = r.points.map(toStored).filter((p) => !seen.has(p.id));
    const page = rest.slice(0, limit);
    const last = page[page.length - 1];
    if (!last || rest.length <= limit) return { points: page, next: null };
    const value = last.payload[key] as number;
    const atValue = page.filter((p) => p.payload[key] === value).map((p) => p.id);
    const carried = cursor?.value === value ? [...seen] : [];
    return { points: page, next: encodeCursor({ id: last.id, value, orderBy: key, seen: [...carried, ...atValue] }) };
  }

  private hit(p: Schemas['ScoredPoint'], score: number): Hit {
    const s = splitPayload(p.payload);
    return { id: s.id, score, payload: s.payload, text: s.text };
  }

  async searchDense(
    name: string,
    vector: Float32Array | number[],
    opts: { fingerprint: EmbeddingFingerprint; filter?: Filter; limit: number },
  ): Promise<Hit[]> {
    const limit = checkLimit(opts.limit);
    const filter = toQdrantFilter(checkFilter(opts.filter));
    const c = await this.require(name);
    const q = Array.from(checkQueryTarget(name, c, vector, opts.fingerprint, false));
    const r = await this.call('query', (cl) =>
      cl.query(c.physical, { query: q, using: DENSE, filter, limit, with_payload: true }),
    );
    return r.points.map((p) => this.hit(p, Math.max(0, p.score)));
  }

  /**
   * The keyword side as a Query API request (null when no point contains a query word), with what the second pass
   * needs of the collection: its point count and each query word's document frequency (unfiltered, as the embedded
   * store's FTS5 statistics are).
   */
  private async keywordQuery(
    physical: string,
    text: string,
    filter: Filter | undefined,
    limit: number,
  ): Promise<{ request: Schemas['QueryRequest']; stats: KeywordStats } | null> {
    const words = queryTerms(text, 16); // one count request per word: keep it bounded
    const codes = codeTokens(text).slice(0, 8);
    if (words.length === 0 && codes.length === 0) return null;
    // A word counts in the text and, weighted, in the lexical fields; a code token only exists in the latter.
    const anyWord = [...words, ...codes].join(' ');
    const matching = toQdrantFilter(filter, {
      should: [
        { key: TEXT_KEY, match: { text_any: anyWord } },
        { key: LEX_KEY, match: { text_any: anyWord } },
      ],
    });
    const [all, total, found, ...perTerm] = await Promise.all([
      filter === undefined ? Promise.resolve(-1) : this.countIn(physical),
      this.countIn(physical, toQdrantFilter(filter)),
      this.countIn(physical, matching),
      ...words.map((t) =>
        this.countIn(physical, {
          should: [
            { key: TEXT_KEY, match: { text: t } },
            { key: LEX_KEY, match: { text: t } },
          ],
        }),
      ),
      ...codes.map((t) => this.countIn(physical, { must: [{ key: LEX_KEY, match: { text: t } }] })),
    ]);
    if (!found) return null;
    const n = Math.max(total ?? 0, 1);
    const weighted = [
      ...words.flatMap((t, i) => {
        const df = perTerm[i] ?? 0;
        if (df === 0) return [];
        const w = idf(Math.max(n, df), df);
        return [
          { mult: [w, { key: TEXT_KEY, match: { text: t } }] },
          { mult: [w * LEX_WEIGHT, { key: LEX_KEY, match: { text: t } }] },
        ];
      }),
      ...codes.flatMap((t, i) => {
        const df = perTerm[words.length + i] ?? 0;
        return df === 0
          ? []
          : [{ mult: [idf(Math.max(n, df), df) * FIELD_WEIGHTS.codes, { key: LEX_KEY, match: { text: t } }] }];
      }),
    ];
    const df = new Map<string, number>();
    words.forEach((w, i) => {
      const stem = stemmer(w);
      if (!df.has(stem)) df.set(stem, perTerm[i] ?? 0);
    });
    return {
      request: {
        prefetch: { filter: matching, limit: Math.min(found, this.keywordScanLimit) },
        query: { formula: { sum: weighted } },
        limit,
        with_payload: true,
      },
      stats: { total: all >= 0 ? all : (total ?? 0), df },
    };
  }

  /**
   * The collection's mean chunk text length in characters, for the short-chunk damping: over its first
   * MEAN_SAMPLE points (scrolled, text only), cached per collection until this adapter writes to it or
   * MEAN_TTL_MS pass (the embedded store's is exact, per collection version).
   */
  private async meanLength(physical: string): Promise<number> {
    const version = this.writes.get(physical) ?? 0;
    const hit = this.means.get(physical);
    if (hit && hit.version === version && Date.now() - hit.at < MEAN_TTL_MS) return hit.mean;
    let sum = 0;
    let n = 0;
    let offset: Schemas['ExtendedPointId'] | null | undefined;
    do {
      const page = await this.call('scroll', (cl) =>
        cl.scroll(physical, {
          limit: Math.min(1_000, MEAN_SAMPLE - n),
          with_payload: { include: [TEXT_KEY] },
          with_vector: false,
          ...(offset !== undefined && offset !== null ? { offset } : {}),
        }),
      );
      for (const p of page.points) {
        sum += charLength(splitPayload(p.payload).text);
        n++;
      }
      const next = page.next_page_offset;
      offset = typeof next === 'string' || typeof next === 'number' ? next : null;
    } while (offset !== undefined && offset !== null && n < MEAN_SAMPLE);
    const mean = n > 0 ? sum / n : 0;
    this.means.set(physical, { mean, at: Date.now(), version });
    return mean;
  }

  private touched(physical: string): void {
    this.writes.set(physical, (this.writes.get(physical) ?? 0) + 1);
  }

  /**
   * The keyword candidates' second scoring pass (lexical.ts `secondPass`, the same function the embedded store
   * calls): this adapter's inputs are the points' keyword scores and payloads (text length, `document_id`,
   * `running_header`), the collection's mean text length, FTS5's IDF formula over its count requests' document
   * frequencies, and `pairMatchScore` for the phrase credit. `points` are the first-pass points, best first.
   */
  private async secondPassOf(
    physical: string,
    text: string,
    points: readonly Schemas['ScoredPoint'][],
    stats: KeywordStats,
    limit: number,
    documentEvidence = 0,
    documentEvidenceSpan = 0,
  ): Promise<Scored[]> {
    const damping = SHORT_CHUNK_DAMPING.exponent;
    const mean = damping > 0 && points.length >= 2 ? await this.meanLength(physical) : 0;
    const idf = (stem: string): number => {
      const n = stats.df.get(stem);
      return n === undefined ? 0 : bm25Idf(stats.total, n);
    };
    const pairs = queryPhrases(text).map(([a, b]) => [stemmer(a), stemmer(b)] as const);
    const candidates: KeywordCandidate<string>[] = points.map((p) => {
      const s = splitPayload(p.payload);
      const d = s.payload['document_id'];
      const h = s.payload['running_header'];
      const i = s.payload['chunk_index'];
      return {
        id: s.id,
        score: p.score,
        length: charLength(s.text),
        documentId: typeof d === 'string' || typeof d === 'number' ? String(d) : undefined,
        header: typeof h === 'string' ? h : null,
        phrase: pairMatchScore(s.text, pairs, idf),
        position: typeof i === 'number' ? i : undefined,
      };
    });
    return secondPass(candidates, {
      query: text,
      meanLength: mean,
      idf,
      limit,
      damping,
      documentEvidence,
      documentEvidenceSpan,
    });
  }

  /**
   * The keyword side's second scoring pass alone over given first-pass candidates (ids and keyword scores, best
   * first); ids not in the collection are left out. For the adapters' parity spec: the keyword and hybrid searches
   * run the same code on their formula-query candidates.
   */
  async keywordSecondPass(
    name: string,
    query: string,
    candidates: readonly { id: string; score: number }[],
    limit: number,
  ): Promise<{ id: string; score: number }[]> {
    const c = await this.require(name);
    const kq = await this.keywordQuery(c.physical, query, undefined, limit);
    const stats = kq?.stats ?? { total: await this.countIn(c.physical), df: new Map<string, number>() };
    const page = await this.call('scroll', (cl) =>
      cl.scroll(c.physical, {
        filter: { must: [{ has_id: candidates.map((x) => pointUuid(x.id)) }] },
        limit: Math.max(1, candidates.length),
        with_payload: { include: SECOND_PASS_KEYS },
        with_vector: false,
      }),
    );
    const byId = new Map(page.points.map((p) => [splitPayload(p.payload).id, p]));
    const points = candidates.flatMap((x) => {
      const p = byId.get(x.id);
      return p ? [{ id: p.id, version: 0, score: x.score, payload: p.payload ?? null }] : [];
    });
    return this.secondPassOf(c.physical, query, points, stats, limit);
  }

  async searchKeyword(name: string, query: string, opts: { filter?: Filter; limit: number }): Promise<Hit[]> {
    const limit = checkLimit(opts.limit);
    const filter = checkFilter(opts.filter);
    const c = await this.require(name);
    if (!c.hybrid) throw hybridNotSupported(name);
    const kq = await this.keywordQuery(c.physical, query, filter, keywordPool(limit));
    if (!kq) return [];
    const r = await this.call('query', (cl) => cl.query(c.physical, kq.request));
    const points = r.points.filter((p) => p.score > 0);
    const byId = new Map(points.map((p) => [splitPayload(p.payload).id, p]));
    return (await this.secondPassOf(c.physical, query, points, kq.stats, limit)).flatMap((x) => {
      const p = byId.get(x.id);
      return p ? [this.hit(p, x.score)] : [];
    });
  }

  searchMany(targets: readonly SearchTarget[], opts: SearchManyOptions): Promise<CollectionHit[]> {
    return searchAcross(this, targets, opts);
  }

  async searchHybrid(
    name: string,
    q: { vector: Float32Array | number[]; text: string },
    opts: HybridOptions,
  ): Promise<Hit[]> {
    const { limit, filter, fusion: p } = checkHybridOptions(opts, this.fusion);
    const c = await this.require(name);
    const vector = Array.from(checkQueryTarget(name, c, q.vector, opts.fingerprint, true));
    const dense: Schemas['QueryRequest'] = {
      query: vector,
      using: DENSE,
      filter: toQdrantFilter(filter),
      limit: p.candidates,
    };
    const call: Call = (what, fn) => this.call(what, fn);
    if (p.method === 'rrf') {
      // Server-side RRF fuses Qdrant's own keyword ranks: no second pass (see the class comment).
      const keyword = await this.keywordQuery(c.physical, q.text, filter, p.candidates);
      return keyword
        ? serverRrf(call, c.physical, dense, keyword.request, p, limit)
        : clientFusion(call, c.physical, dense, null, p, limit, () => Promise.resolve([]));
    }
    const keyword = await this.keywordQuery(c.physical, q.text, filter, keywordPool(p.candidates));
    return clientFusion(call, c.physical, dense, keyword?.request ?? null, p, limit, (points) =>
      keyword
        ? this.secondPassOf(
            c.physical,
            q.text,
            points,
            keyword.stats,
            p.candidates,
            p.documentEvidence,
            p.documentEvidenceSpan,
          )
        : Promise.resolve([]),
    );
  }

  async inspect(name: string, sampleSize = 1): Promise<Inspection> {
    const c = await this.require(name);
    const [pointsCount, facet, sample] = await Promise.all([
      this.countIn(c.physical),
      this.call('facet', (cl) => cl.facet(c.physical, { key: 'document_id', limit: 1_000_000, exact: true })),
      this.call('scroll', (cl) =>
        cl.scroll(c.physical, { limit: Math.max(1, Math.min(sampleSize, 10)), with_payload: true }),
      ),
    ]);
    const indexes = Object.entries(c.info.payload_schema)
      .filter(([field]) => field !== ID_KEY)
      .map(([field, i]) => ({
        field: field === TEXT_KEY ? 'text' : field === LEX_KEY ? 'title, section, codes' : field,
        type: i?.data_type === 'text' ? 'full-text' : String(i?.data_type),
      }));
    return {
      name,
      physicalName: c.physical,
      fingerprint: c.fingerprint,
      hybrid: c.hybrid,
      pointsCount,
      documentsCount: facet.hits.length,
      indexes: [{ field: 'vector', type: `dense ${c.fingerprint.dimension}-d cosine (HNSW)` }, ...indexes],
      samplePayloads: sample.points.slice(0, Math.max(0, sampleSize)).map((r) => splitPayload(r.payload).payload),
      engine: this.engine,
    };
  }

  async ping(): Promise<void> {
    // Straight to the client: a readiness probe must see an outage, not wait out the retries.
    await this.client.getCollections();
  }

  async close(): Promise<void> {
    // The REST client holds no resources beyond keep-alive sockets, which close on their own.
  }
}
