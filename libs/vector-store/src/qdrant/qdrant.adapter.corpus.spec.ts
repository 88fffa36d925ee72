// SPDX-License-Identifier: AGPL-3.0-or-later
import { join } from 'node:path';
import { sharedDir } from '@lectern/testing';
import { AppError } from '@lectern/contracts';
import { runVectorStoreContract } from '../vector-store.contract.js';
import { QdrantVectorStore } from './qdrant.adapter.js';
import { OpenApiValidator } from './testing/openapi-validator.js';
import { QdrantSimulator } from './testing/qdrant-simulator.js';

/*
 * What this file checks, and what it cannot:
 * - Every HTTP request the Qdrant adapter sends while running the whole contract suite (and the retry,
 *   batching and ordering cases below) is captured by a loopback server and validated against Qdrant's
 *   published OpenAPI schema for server 1.18 (../shared/qdrant/openapi-v1.18.json) with Ajv: the method and
 *   path must name an operation of the schema, query parameters must be defined there and match their
 *   schemas (e.g. `wait=true`), and the JSON body must match the operation's request schema (filters,
 *   Query API prefetch/RRF/formula, point structs with UUID ids, payload index params, ...).
 * - Replies come from an in-memory model of Qdrant (testing/qdrant-semantics.ts), and each 200 reply is
 *   itself validated against the operation's response schema, so the adapter parses documented shapes.
 * - Not validated here: the server's real behaviour. Ranking (HNSW, the snowball stemmer, formula and RRF
 *   evaluation), 409/404 wording, consistency under concurrent writers and the real server's acceptance of
 *   schema-valid but semantically wrong requests are only exercised when QDRANT_URL is set, which runs the
 *   same contract suite against a live server.
 */
const validator = new OpenApiValidator(join(sharedDir(), 'qdrant', 'openapi-v1.18.json'));
const fast = { attempts: 4, baseDelayMs: 5 };

describe('VectorStore (Qdrant adapter, requests validated against the OpenAPI schema)', () => {
  const sim = new QdrantSimulator(validator);
  beforeAll(async () => {
    await sim.start();
  });
  afterAll(async () => {
    await sim.stop();
  });

  runVectorStoreContract(() => new QdrantVectorStore({ url: sim.url, retry: fast, collectionPrefix: 'sim_' }));

  const store = (): QdrantVectorStore =>
    new QdrantVectorStore({ url: sim.url, retry: fast, collectionPrefix: 'sim_', batchSize: 2 });
  const fp = { model_id: 'test/mini-4d', revision: 'r1', dimension: 4, normalized: true };
  const pts = (n: number, chunk: (i: number) => number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `p${i}`,
      vector: [1, i, 0, 0],
      text: `row ${i}`,
      payload: { chunk_index: chunk(i) },
    }));

  it('retries 5xx replies and dropped connections, then gives up with INDEX_UNAVAILABLE', async () => {
    const s = store();
    await s.ensureCollection('retry', { fingerprint: fp, hybrid: false });
    sim.failNext(503, 'reset', 502);
    expect(await s.count('retry')).toBe(0);
    sim.failNext(503, 503, 503, 503);
    await expect(s.count('retry')).rejects.toMatchObject({ code: 'INDEX_UNAVAILABLE' });
    sim.failNext(400);
    await expect(s.count('retry')).rejects.not.toBeInstanceOf(AppError);
    expect(await s.dropCollection('retry')).toBe(true);
  });

  it('upserts in batches, each with wait=true, and creates the payload indexes with the collection', async () => {
    const s = store();
    const from = sim.requests.length;
    await s.ensureCollection('batches', { fingerprint: fp, hybrid: true });
    await s.upsert(
      'batches',
      pts(5, (i) => i),
      { fingerprint: fp },
    );
    const sent = sim.requests.slice(from);
    const upserts = sent.filter((r) => r.operationId === 'upsert_points');
    expect(upserts.map((r) => (r.body as { points: unknown[] }).points.length)).toEqual([2, 2, 1]);
    expect(upserts.every((r) => r.path.endsWith('?wait=true'))).toBe(true);
    const indexes = sent
      .filter((r) => r.operationId === 'create_field_index')
      .map((r) => (r.body as { field_name: string }).field_name);
    expect(indexes).toEqual(
      expect.arrayContaining(['project', 'tags', 'document_id', 'revision_id', 'effective_from', '__text']),
    );
    const create = sent.find((r) => r.operationId === 'create_collection')?.body;
    expect(create).toMatchObject({
      vectors: { dense: { size: 4, distance: 'Cosine' } },
      metadata: { lectern: { fingerprint: fp, hybrid: true } },
    });
    await s.dropCollection('batches');
  });

  it('fuses z-scores client-side: one batch of the two scored candidate lists, then the payloads of the top hits', async () => {
    const s = store();
    await s.ensureCollection('hz', { fingerprint: fp, hybrid: true });
    await s.upsert(
      'hz',
      pts(4, (i) => i),
      { fingerprint: fp },
    );
    const from = sim.requests.length;
    const hits = await s.searchHybrid('hz', { vector: [1, 0, 0, 0], text: 'row 2' }, { fingerprint: fp, limit: 2 });
    const sent = sim.requests.slice(from);
    const batch = sent.find((r) => r.operationId === 'query_batch_points')?.body as {
      searches: Record<string, unknown>[];
    };
    expect(batch.searches).toHaveLength(2);
    expect(batch.searches[0]).toMatchObject({ using: 'dense', limit: 100, with_payload: { include: ['__id'] } });
    // The keyword side: twice the candidates while the short-chunk damping is on, with the payload keys the second
    // pass reads (lexical.ts `secondPass`), which cuts it back to 100.
    expect(batch.searches[1]).toMatchObject({
      query: { formula: expect.any(Object) },
      limit: 200,
      with_payload: { include: ['__id', '__text', 'document_id', 'running_header', 'chunk_index'] },
    });
    expect(JSON.stringify(batch)).not.toContain('rrf');
    const scroll = sent.filter((r) => r.operationId === 'scroll_points').at(-1)?.body as {
      filter: { must: { has_id: string[] }[] };
      limit: number;
    };
    expect(scroll.limit).toBe(2);
    expect(scroll.filter.must[0]?.has_id).toHaveLength(2);
    expect(hits.map((h) => h.text)).toEqual(['row 2', expect.any(String)]);
    await s.dropCollection('hz');
  });

  it('sends RRF hybrid search as one Query API batch: prefetch dense + keyword, fused by weighted RRF', async () => {
    const s = store();
    await s.ensureCollection('hq', { fingerprint: fp, hybrid: true });
    await s.upsert(
      'hq',
      pts(4, (i) => i),
      { fingerprint: fp },
    );
    const from = sim.requests.length;
    const hits = await s.searchHybrid(
      'hq',
      { vector: [1, 0, 0, 0], text: 'row 2' },
      { fingerprint: fp, limit: 3, fusion: 'rrf', rrfK: 10, denseWeight: 0.5, keywordWeight: 2 },
    );
    const batch = sim.requests.slice(from).find((r) => r.operationId === 'query_batch_points')?.body as {
      searches: Record<string, unknown>[];
    };
    expect(batch.searches[0]).toMatchObject({ query: { rrf: { k: 11, weights: [0.5, 2] } }, limit: 3 });
    expect(batch.searches[0]?.['prefetch']).toHaveLength(2);
    expect(hits[0]).toMatchObject({ id: 'p2', keywordRank: 1 });
    await s.dropCollection('hq');
  });

  it('pages an ordered scroll across equal values without repeating or losing points', async () => {
    const s = store();
    await s.ensureCollection('ties', { fingerprint: fp, hybrid: false });
    await s.upsert(
      'ties',
      pts(7, (i) => Math.floor(i / 3)),
      { fingerprint: fp },
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<QdrantVectorStore['scroll']>> = await s.scroll('ties', {
        orderBy: 'chunk_index',
        limit: 2,
        cursor,
      });
      seen.push(...page.points.map((p) => p.id));
      cursor = page.next;
    } while (cursor);
    expect([...seen].sort()).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
    expect(seen).toHaveLength(7);
    await s.dropCollection('ties');
  });

  it("sent only requests that match Qdrant 1.18's OpenAPI schema, and got schema-valid replies", () => {
    const bad = sim.requests.filter((r) => r.errors.length > 0 || r.replyErrors.length > 0);
    expect(bad.map((r) => ({ path: r.path, errors: r.errors, replyErrors: r.replyErrors }))).toEqual([]);
    const used = new Set(sim.requests.map((r) => r.operationId));
    for (const op of [
      'get_collection',
      'create_collection',
      'update_collection',
      'delete_collection',
      'get_collections',
      'create_field_index',
      'upsert_points',
      'delete_points',
      'count_points',
      'scroll_points',
      'query_points',
      'query_batch_points',
      'facet',
    ]) {
      expect(used).toContain(op);
    }
  });
});

const liveUrl = process.env['QDRANT_URL'];
if (liveUrl) {
  describe('VectorStore (Qdrant adapter, live server at QDRANT_URL)', () => {
    runVectorStoreContract(
      () =>
        new QdrantVectorStore({
          url: liveUrl,
          apiKey: process.env['QDRANT_API_KEY'],
          collectionPrefix: `lectern_test_${process.pid}_`,
        }),
    );
  });
}
