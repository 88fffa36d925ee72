// SPDX-License-Identifier: AGPL-3.0-or-later
import { appErrorCode } from '@lectern/testing';
import { runHybridContract } from './hybrid.contract.js';
import type { EmbeddingFingerprint, Filter, Hit, Point, VectorStore } from './vector-store.port.js';

/**
 * The one behaviour every VectorStore adapter must show. Each adapter's spec calls it with a factory;
 * collections are named per test, so a store may be shared by tests or fresh for each.
 */
export const runVectorStoreContract = (makeStore: () => Promise<VectorStore> | VectorStore): void => {
  const MODEL: EmbeddingFingerprint = { model_id: 'test/mini-4d', revision: 'r1', dimension: 4, normalized: true };
  const OTHER: EmbeddingFingerprint = { ...MODEL, model_id: 'test/other-4d' };
  let store: VectorStore;
  let used: string[] = [];
  let seq = 0;
  const fresh = (label: string): string => {
    const n = `c${process.pid}-${Date.now().toString(36)}-${seq++}-${label}`;
    used.push(n);
    return n;
  };
  const unit = (...v: number[]): number[] => {
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  };
  const docs: [Point, Point, Point, Point, Point, Point] = [
    {
      id: 'a',
      vector: unit(1, 0, 0, 0),
      text: 'The cat sat on the mat near the window.',
      payload: {
        document_id: 'd1',
        document_type: 'policy',
        chunk_index: 2,
        tags: ['pets', 'home'],
        effective_from: 20200101,
        effective_to: 20221231,
        draft: false,
      },
    },
    {
      id: 'b',
      vector: unit(0.9, 0.1, 0, 0),
      text: 'Dogs bark loudly at night in the garden.',
      payload: {
        document_id: 'd1',
        document_type: 'policy',
        chunk_index: 0,
        tags: ['pets'],
        effective_from: 20230101,
        effective_to: 20251231,
        draft: true,
      },
    },
    {
      id: 'c',
      vector: unit(0, 1, 0, 0),
      text: 'Quantum chromodynamics describes quarks and gluons.',
      payload: { document_id: 'd2', document_type: 'report', chunk_index: 1, tags: ['physics'] },
    },
    {
      id: 'd',
      vector: unit(0, 0, 1, 0),
      text: 'A cat and a dog share one kennel.',
      payload: { document_id: 'd2', document_type: 'report', chunk_index: 3, tags: [] },
    },
    {
      id: 'e',
      vector: unit(0, 0, 0, 1),
      text: 'Planning permission requires a site plan and fees.',
      payload: { document_id: 'd3', document_type: 'decision', chunk_index: 4 },
    },
    {
      id: 'f',
      vector: unit(-1, 0, 0, 0),
      text: 'Nothing relevant appears in this sentence.',
      payload: { document_id: 'd3', document_type: 'decision', chunk_index: 5 },
    },
  ];
  const ids = (hits: Hit[]): string[] => hits.map((h) => h.id);
  const seeded = async (label: string, hybrid = true): Promise<string> => {
    const name = fresh(label);
    await store.ensureCollection(name, { fingerprint: MODEL, hybrid });
    await store.upsert(name, docs, { fingerprint: MODEL });
    return name;
  };

  /** A second collection holding one point with the same id as `docs[0]` ('a'), text 'zebra stripes'. */
  const zebra = async (
    label: string,
    spec: { fingerprint: EmbeddingFingerprint; hybrid: boolean },
    vector: number[],
    documentId: string,
  ): Promise<string> => {
    const name = fresh(label);
    await store.ensureCollection(name, spec);
    await store.upsert(name, [{ id: 'a', vector, text: 'zebra stripes', payload: { document_id: documentId } }], {
      fingerprint: spec.fingerprint,
    });
    return name;
  };

  beforeEach(async () => {
    store = await makeStore();
    used = [];
  });
  afterEach(async () => {
    for (const n of used) await store.dropCollection(n);
    await store.close();
  });

  describe('collections', () => {
    it('creates a collection once, reports it, lists it and drops it', async () => {
      const name = fresh('life');
      expect(await store.getCollection(name)).toBeNull();
      const info = await store.ensureCollection(name, { fingerprint: MODEL, hybrid: true });
      expect(info).toMatchObject({ name, fingerprint: MODEL, hybrid: true, pointsCount: 0 });
      expect(info.physicalName.endsWith(name)).toBe(true);
      expect(await store.ensureCollection(name, { fingerprint: MODEL, hybrid: true })).toEqual(info);
      expect((await store.listCollections()).map((c) => c.name)).toContain(name);
      expect(await store.dropCollection(name)).toBe(true);
      expect(await store.dropCollection(name)).toBe(false);
      expect(await store.getCollection(name)).toBeNull();
      expect((await store.listCollections()).map((c) => c.name)).not.toContain(name);
    });

    it('refuses another embedding model unless migration is asked for, which empties the collection', async () => {
      const name = await seeded('migrate');
      expect(await appErrorCode(store.ensureCollection(name, { fingerprint: OTHER, hybrid: true }))).toBe(
        'EMBEDDING_MISMATCH',
      );
      expect(await store.count(name)).toBe(docs.length);
      const migrated = await store.ensureCollection(name, { fingerprint: OTHER, hybrid: true, migrate: true });
      expect(migrated).toMatchObject({ fingerprint: OTHER, pointsCount: 0 });
      expect(await appErrorCode(store.upsert(name, docs, { fingerprint: MODEL }))).toBe('EMBEDDING_MISMATCH');
    });

    it('turns the full-text index on for an existing collection and keyword search finds old points', async () => {
      const name = await seeded('late-hybrid', false);
      expect(await appErrorCode(store.searchKeyword(name, 'cat', { limit: 5 }))).toBe('HYBRID_NOT_SUPPORTED');
      expect((await store.ensureCollection(name, { fingerprint: MODEL, hybrid: true })).hybrid).toBe(true);
      expect(ids(await store.searchKeyword(name, 'quarks', { limit: 5 }))).toEqual(['c']);
    });

    it('answers INVALID_PROJECT for every operation on an unknown collection', async () => {
      const name = fresh('ghost');
      const v = unit(1, 0, 0, 0);
      const calls: Promise<unknown>[] = [
        store.upsert(name, docs, { fingerprint: MODEL }),
        store.deleteByIds(name, ['a']),
        store.deleteByFilter(name, { document_id: 'd1' }),
        store.scroll(name, {}),
        store.count(name),
        store.searchDense(name, v, { fingerprint: MODEL, limit: 3 }),
        store.searchKeyword(name, 'cat', { limit: 3 }),
        store.searchHybrid(name, { vector: v, text: 'cat' }, { fingerprint: MODEL, limit: 3 }),
        store.inspect(name),
      ];
      for (const call of calls) expect(await appErrorCode(call)).toBe('INVALID_PROJECT');
    });

    it('rejects bad names, filters, limits, dimensions and reserved payload keys as invalid_arguments', async () => {
      const name = await seeded('bad-input');
      expect(await appErrorCode(store.getCollection('../etc'))).toBe('invalid_arguments');
      expect(await appErrorCode(store.count(name, { 'a.b': 1 } as never))).toBe('invalid_arguments');
      expect(await appErrorCode(store.count(name, { n: { $gte: 'x' } } as never))).toBe('invalid_arguments');
      expect(await appErrorCode(store.searchDense(name, [1, 0, 0], { fingerprint: MODEL, limit: 3 }))).toBe(
        'invalid_arguments',
      );
      expect(await appErrorCode(store.searchDense(name, unit(1, 0, 0, 0), { fingerprint: MODEL, limit: 0 }))).toBe(
        'invalid_arguments',
      );
      const bad = { ...docs[0], id: 'z', payload: { __id: 'x' } };
      expect(await appErrorCode(store.upsert(name, [bad], { fingerprint: MODEL }))).toBe('invalid_arguments');
      expect(
        await appErrorCode(store.upsert(name, [{ ...docs[0], id: 'z', vector: [1, 0] }], { fingerprint: MODEL })),
      ).toBe('invalid_arguments');
      expect(await store.count(name)).toBe(docs.length);
    });
  });

  describe('writes', () => {
    it('upserts idempotently by id: a second write replaces payload, text and vector', async () => {
      const name = await seeded('idem');
      await store.upsert(name, docs, { fingerprint: MODEL });
      expect(await store.count(name)).toBe(docs.length);
      await store.upsert(
        name,
        [{ ...docs[5], vector: unit(0, 1, 0, 0), text: 'gluons again', payload: { document_id: 'd9' } }],
        { fingerprint: MODEL },
      );
      expect(await store.count(name)).toBe(docs.length);
      const page = await store.scroll(name, { filter: { document_id: 'd9' } });
      expect(page.points).toEqual([{ id: 'f', text: 'gluons again', payload: { document_id: 'd9' } }]);
      expect(ids(await store.searchDense(name, unit(0, 1, 0, 0), { fingerprint: MODEL, limit: 2 })).sort()).toEqual([
        'c',
        'f',
      ]);
      expect(ids(await store.searchKeyword(name, 'nothing relevant', { limit: 5 }))).toEqual([]);
    });

    it('refuses a write with another embedding model and writes nothing', async () => {
      const name = await seeded('mismatch-write');
      const p = { ...docs[0], id: 'new' };
      expect(await appErrorCode(store.upsert(name, [p], { fingerprint: OTHER }))).toBe('EMBEDDING_MISMATCH');
      expect(await appErrorCode(store.upsert(name, [p], { fingerprint: { ...MODEL, revision: 'r2' } }))).toBe(
        'EMBEDDING_MISMATCH',
      );
      expect(await store.count(name)).toBe(docs.length);
    });

    it('deletes by ids and by filter, returning exact counts', async () => {
      const name = await seeded('delete');
      expect(await store.deleteByIds(name, ['a', 'missing', 'a'])).toBe(1);
      expect(await store.deleteByIds(name, ['a'])).toBe(0);
      expect(await store.deleteByFilter(name, { document_id: 'd2' })).toBe(2);
      expect(await store.deleteByFilter(name, { document_id: 'd2' })).toBe(0);
      expect(
        await store.deleteByFilter(name, { $and: [{ document_type: 'decision' }, { chunk_index: { $gte: 5 } }] }),
      ).toBe(1);
      expect(await store.count(name)).toBe(2);
      expect(await appErrorCode(store.deleteByFilter(name, {}))).toBe('invalid_arguments');
      expect(await appErrorCode(store.deleteByFilter(name, { $and: [] }))).toBe('invalid_arguments');
      expect(await store.count(name)).toBe(2);
      expect(ids(await store.searchDense(name, unit(1, 0, 0, 0), { fingerprint: MODEL, limit: 10 })).sort()).toEqual([
        'b',
        'e',
      ]);
      expect(ids(await store.searchKeyword(name, 'cat quarks', { limit: 10 }))).toEqual([]);
    });
  });

  describe('cancellation between write batches', () => {
    /**
     * A real AbortSignal that aborts itself at its `n`-th boundary check: the adapters check the signal before
     * each write batch, so `n = 2` aborts right after the first batch was written, whatever the batch size.
     */
    const abortingAtCheck = (n: number, reason: Error): AbortSignal => {
      const controller = new AbortController();
      const { signal } = controller;
      const check = signal.throwIfAborted.bind(signal);
      let checks = 0;
      signal.throwIfAborted = () => {
        checks += 1;
        if (checks === n) controller.abort(reason);
        check();
      };
      return signal;
    };
    const many = (count: number): Point[] =>
      Array.from({ length: count }, (_, i) => ({
        id: `p${i}`,
        vector: unit(1, (i % 10) / 10, 0, 0),
        text: `bulk point ${i}`,
        payload: { document_id: 'bulk', chunk_index: i },
      }));
    const TOTAL = 1_200;

    it('upsert stops after the batch in flight when the signal aborts midway, and rejects with its reason', async () => {
      const name = fresh('abort-upsert');
      await store.ensureCollection(name, { fingerprint: MODEL, hybrid: true });
      const reason = new Error('deadline reached');
      await expect(
        store.upsert(name, many(TOTAL), { fingerprint: MODEL, signal: abortingAtCheck(2, reason) }),
      ).rejects.toBe(reason);
      const written = await store.count(name);
      // The first batch is committed and stays; nothing after it was written.
      expect(written).toBeGreaterThan(0);
      expect(written).toBeLessThan(TOTAL);
      const stored = await store.scroll(name, { limit: 1_000, orderBy: 'chunk_index' });
      expect(stored.points.map((p) => p.payload['chunk_index'])).toEqual(Array.from({ length: written }, (_, i) => i));
    });

    it('upsert on an aborted signal writes nothing', async () => {
      const name = fresh('abort-before');
      await store.ensureCollection(name, { fingerprint: MODEL, hybrid: false });
      const reason = new Error('client left');
      await expect(store.upsert(name, docs, { fingerprint: MODEL, signal: AbortSignal.abort(reason) })).rejects.toBe(
        reason,
      );
      expect(await store.count(name)).toBe(0);
    });

    it('deleteByIds stops between batches; deleteByFilter on an aborted signal deletes nothing', async () => {
      const name = fresh('abort-delete');
      await store.ensureCollection(name, { fingerprint: MODEL, hybrid: false });
      const points = many(TOTAL);
      await store.upsert(name, points, { fingerprint: MODEL });
      const reason = new Error('shutting down');
      await expect(
        store.deleteByIds(
          name,
          points.map((p) => p.id),
          { signal: abortingAtCheck(2, reason) },
        ),
      ).rejects.toBe(reason);
      const left = await store.count(name);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThan(TOTAL);
      await expect(
        store.deleteByFilter(name, { document_id: 'bulk' }, { signal: AbortSignal.abort(reason) }),
      ).rejects.toBe(reason);
      expect(await store.count(name)).toBe(left);
      expect(await store.deleteByFilter(name, { document_id: 'bulk' }, { signal: new AbortController().signal })).toBe(
        left,
      );
    });
  });

  describe('payload updates', () => {
    it('setPayload merges a patch into the matching points only, returns the count, and filters see it', async () => {
      const name = await seeded('set-payload');
      const during: Filter = { $and: [{ effective_from: { $lte: 20230601 } }, { effective_to: { $gte: 20230601 } }] };
      expect(await store.count(name, during)).toBe(1);
      expect(
        await store.setPayload(name, { document_id: 'd1' }, { effective_to: 20230531, status: 'superseded' }),
      ).toBe(2);
      expect(await store.count(name, during)).toBe(0);
      const d1 = (await store.scroll(name, { filter: { document_id: 'd1' } })).points;
      expect(d1.map((p) => [p.id, p.payload['effective_to'], p.payload['status'], p.payload['tags']])).toEqual([
        ['a', 20230531, 'superseded', ['pets', 'home']],
        ['b', 20230531, 'superseded', ['pets']],
      ]);
      expect(d1[0]?.text).toBe(docs[0].text);
      expect(await store.count(name, { status: 'superseded' })).toBe(2);
      expect(
        ids(
          await store.searchDense(name, unit(1, 0, 0, 0), {
            fingerprint: MODEL,
            filter: { effective_to: 20230531 },
            limit: 10,
          }),
        ),
      ).toEqual(['a', 'b']);
      expect(ids(await store.searchKeyword(name, 'cat', { filter: { status: 'superseded' }, limit: 10 }))).toEqual([
        'a',
      ]);
      expect((await store.scroll(name, { filter: { document_id: 'd2' } })).points.map((p) => p.payload)).toEqual([
        docs[2].payload,
        docs[3].payload,
      ]);
      expect(await store.setPayload(name, { document_id: 'nope' }, { status: 'x' })).toBe(0);
    });

    it('setPayload refuses an empty filter, an empty patch, null values and reserved keys, changing nothing', async () => {
      const name = await seeded('set-payload-bad');
      expect(await appErrorCode(store.setPayload(name, {}, { status: 'x' }))).toBe('invalid_arguments');
      expect(await appErrorCode(store.setPayload(name, { document_id: 'd1' }, {}))).toBe('invalid_arguments');
      expect(await appErrorCode(store.setPayload(name, { document_id: 'd1' }, { status: null }))).toBe(
        'invalid_arguments',
      );
      expect(await appErrorCode(store.setPayload(name, { document_id: 'd1' }, { __id: 'x' }))).toBe(
        'invalid_arguments',
      );
      expect(await appErrorCode(store.setPayload(fresh('ghost-set'), { document_id: 'd1' }, { status: 'x' }))).toBe(
        'INVALID_PROJECT',
      );
      expect(await store.count(name, { status: 'x' })).toBe(0);
    });
  });

  describe('filters', () => {
    const cases: [string, Parameters<VectorStore['count']>[1], string[]][] = [
      ['equality', { document_id: 'd1' }, ['a', 'b']],
      ['equality on an array field matches any element', { tags: 'pets' }, ['a', 'b']],
      ['$in', { document_type: { $in: ['report', 'decision'] } }, ['c', 'd', 'e', 'f']],
      ['$in on an array field', { tags: { $in: ['home', 'physics'] } }, ['a', 'c']],
      ['numeric equality', { chunk_index: 3 }, ['d']],
      ['boolean equality', { draft: true }, ['b']],
      ['range', { chunk_index: { $gte: 1, $lte: 3 } }, ['a', 'c', 'd']],
      [
        'temporal validity (from <= d AND to >= d)',
        { $and: [{ effective_from: { $lte: 20210615 } }, { effective_to: { $gte: 20210615 } }] },
        ['a'],
      ],
      ['several fields in one object', { document_id: 'd1', draft: false }, ['a']],
      ['no match', { document_id: 'nope' }, []],
      ['an absent field never matches', { draft: false, document_type: 'report' }, []],
    ];
    it.each(cases)('%s: count, scroll and dense search agree', async (_label, filter, expected) => {
      const name = await seeded('filter');
      expect(await store.count(name, filter)).toBe(expected.length);
      expect((await store.scroll(name, { filter, limit: 100 })).points.map((p) => p.id).sort()).toEqual(expected);
      const dense = await store.searchDense(name, unit(1, 1, 1, 1), { fingerprint: MODEL, filter, limit: 10 });
      expect(ids(dense).sort()).toEqual(expected);
    });
  });

  describe('scroll', () => {
    it('pages through every point exactly once, in the same order each time', async () => {
      const name = await seeded('scroll');
      const all = async (): Promise<string[]> => {
        const out: string[] = [];
        let cursor: string | null = null;
        do {
          const page: Awaited<ReturnType<VectorStore['scroll']>> = await store.scroll(name, { limit: 4, cursor });
          expect(page.points.length).toBeLessThanOrEqual(4);
          out.push(...page.points.map((p) => p.id));
          cursor = page.next;
        } while (cursor);
        return out;
      };
      const first = await all();
      expect([...first].sort()).toEqual(docs.map((d) => d.id));
      expect(await all()).toEqual(first);
    });

    it('orders by a numeric payload field across pages and returns vectors when asked', async () => {
      const name = await seeded('ordered');
      const p1 = await store.scroll(name, { orderBy: 'chunk_index', limit: 4, withVector: true });
      const p2 = await store.scroll(name, { orderBy: 'chunk_index', limit: 4, cursor: p1.next });
      expect([...p1.points, ...p2.points].map((p) => p.payload['chunk_index'])).toEqual([0, 1, 2, 3, 4, 5]);
      expect(p2.next).toBeNull();
      expect(p1.points[0]?.vector?.map((x) => Math.round(x * 1000) / 1000)).toEqual(
        unit(0.9, 0.1, 0, 0).map((x) => Math.round(x * 1000) / 1000),
      );
      expect(p2.points[0]?.vector).toBeUndefined();
      const filtered = await store.scroll(name, { orderBy: 'chunk_index', filter: { document_id: 'd2' } });
      expect(filtered.points.map((p) => p.id)).toEqual(['c', 'd']);
      expect(await appErrorCode(store.scroll(name, { orderBy: 'document_id' }))).toBe('invalid_arguments');
      expect(await appErrorCode(store.scroll(name, { orderBy: 'chunk_index', cursor: p1.next?.slice(2) ?? 'x' }))).toBe(
        'invalid_arguments',
      );
    });
  });

  describe('search', () => {
    it('dense: nearest first, cosine scores clipped at 0, limit respected', async () => {
      const name = await seeded('dense');
      const hits = await store.searchDense(name, Float32Array.from(unit(1, 0, 0, 0)), { fingerprint: MODEL, limit: 6 });
      expect(ids(hits).slice(0, 2)).toEqual(['a', 'b']);
      expect(hits[0]?.score).toBeCloseTo(1, 5);
      expect(hits[1]?.score).toBeCloseTo(unit(0.9, 0.1, 0, 0)[0] ?? NaN, 5);
      const f = hits.find((h) => h.id === 'f');
      expect(f?.score).toBe(0);
      for (const h of hits) expect(h.score).toBeGreaterThanOrEqual(0);
      expect(hits[0]).toMatchObject({ text: docs[0].text, payload: docs[0].payload });
      expect(await store.searchDense(name, unit(1, 0, 0, 0), { fingerprint: MODEL, limit: 1 })).toHaveLength(1);
    });

    it('dense and hybrid refuse a query embedded by another model', async () => {
      const name = await seeded('mismatch-query');
      const v = unit(1, 0, 0, 0);
      expect(await appErrorCode(store.searchDense(name, v, { fingerprint: OTHER, limit: 3 }))).toBe(
        'EMBEDDING_MISMATCH',
      );
      expect(
        await appErrorCode(store.searchHybrid(name, { vector: v, text: 'cat' }, { fingerprint: OTHER, limit: 3 })),
      ).toBe('EMBEDDING_MISMATCH');
    });

    it('keyword: ranks matching points, skips the rest, honours filters, stems words', async () => {
      const name = await seeded('keyword');
      const hits = await store.searchKeyword(name, 'quarks', { limit: 5 });
      expect(ids(hits)).toEqual(['c']);
      expect(hits[0]?.score).toBeGreaterThan(0);
      const cats = await store.searchKeyword(name, 'cat kennel', { limit: 5 });
      expect(ids(cats)).toEqual(['d', 'a']);
      expect(ids(await store.searchKeyword(name, 'cat', { limit: 5, filter: { document_id: 'd1' } }))).toEqual(['a']);
      expect(ids(await store.searchKeyword(name, 'barking dog', { limit: 5 })).sort()).toEqual(['b', 'd']);
      expect(await store.searchKeyword(name, '  ?! ', { limit: 5 })).toEqual([]);
      // Stopwords are ignored when the query has other words, and used when it has nothing else.
      expect(ids(await store.searchKeyword(name, 'what is the kennel for?', { limit: 5 }))).toEqual(['d']);
      expect(ids(await store.searchKeyword(name, 'the', { limit: 5 })).sort()).toEqual(['a', 'b']);
    });
  });

  describe('hybrid', () => {
    runHybridContract({ store: () => store, model: MODEL, seeded, fresh, unit, code: appErrorCode });
  });

  describe('searchMany (several collections, one call)', () => {
    it('searches each collection with its own model and vector, merges by score and names the collection', async () => {
      const a = await seeded('many-a');
      const b = await zebra('many-b', { fingerprint: OTHER, hybrid: false }, unit(0.95, 0.05, 0, 0), 'z');
      const hits = await store.searchMany(
        [
          { name: a, vector: unit(1, 0, 0, 0), fingerprint: MODEL },
          { name: b, vector: unit(1, 0, 0, 0), fingerprint: OTHER },
        ],
        { limit: 3 },
      );
      expect(hits.map((h) => [h.collection, h.id])).toEqual([
        [a, 'a'],
        [b, 'a'],
        [a, 'b'],
      ]);
      expect(hits[1]?.payload).toEqual({ document_id: 'z' });
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1]?.score ?? 0).toBeGreaterThanOrEqual(hits[i]?.score ?? 0);
    });

    it('runs a hybrid search of a target given its text, honours filters, and refuses a wrong model', async () => {
      const a = await seeded('many-h');
      const hits = await store.searchMany(
        [{ name: a, vector: unit(0, 0, 1, 0), fingerprint: MODEL, text: 'cat kennel' }],
        { limit: 2, filter: { document_type: 'report' } },
      );
      expect(hits[0]).toMatchObject({ collection: a, id: 'd' });
      expect(hits[0]?.denseScore).toBeGreaterThan(0.99);
      expect(hits.every((h) => h.payload['document_type'] === 'report')).toBe(true);
      expect(
        await appErrorCode(store.searchMany([{ name: a, vector: unit(1, 0, 0, 0), fingerprint: OTHER }], { limit: 1 })),
      ).toBe('EMBEDDING_MISMATCH');
      expect(await store.searchMany([], { limit: 5 })).toEqual([]);
    });
  });

  describe('isolation and inspection', () => {
    it('never returns points of one collection from another, even with the same ids', async () => {
      const a = await seeded('iso-a');
      const b = await zebra('iso-b', { fingerprint: MODEL, hybrid: true }, unit(1, 0, 0, 0), 'other');
      expect(await store.count(b)).toBe(1);
      expect(ids(await store.searchDense(b, unit(1, 0, 0, 0), { fingerprint: MODEL, limit: 10 }))).toEqual(['a']);
      expect((await store.searchDense(b, unit(1, 0, 0, 0), { fingerprint: MODEL, limit: 10 }))[0]?.payload).toEqual({
        document_id: 'other',
      });
      expect(await store.searchKeyword(b, 'cat quarks planning', { limit: 10 })).toEqual([]);
      expect(await store.searchKeyword(a, 'zebra', { limit: 10 })).toEqual([]);
      expect(await store.deleteByFilter(b, { document_id: 'd1' })).toBe(0);
      expect(await store.deleteByIds(b, ['a'])).toBe(1);
      expect(await store.count(a)).toBe(docs.length);
    });

    it('inspect reports size, model, indexes and sample payloads', async () => {
      const name = await seeded('inspect');
      const i = await store.inspect(name, 2);
      expect(i).toMatchObject({
        name,
        pointsCount: 6,
        documentsCount: 3,
        fingerprint: MODEL,
        hybrid: true,
        engine: store.engine,
      });
      expect(i.samplePayloads).toHaveLength(2);
      for (const p of i.samplePayloads) expect(Object.keys(p).some((k) => k.startsWith('__'))).toBe(false);
      expect(i.indexes.map((x) => x.field)).toContain('text');
      expect((await store.inspect(name, 0)).samplePayloads).toEqual([]);
    });
  });
};
