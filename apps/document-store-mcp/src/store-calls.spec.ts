// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { VectorStore } from '@lectern/vector-store';
import {
  connectMcp,
  fixtureFile,
  makeTextPdf,
  listenOnFreePort,
  silentLogger,
  testModelEnv,
  toolText,
} from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { composeDocumentStore, type ComposedDocumentStore } from './compose.js';
import { loadConfig } from './config.js';

const TOPICS = [
  'Flood risk',
  'Air quality',
  'Heritage assets',
  'Transport',
  'Biodiversity',
  'Housing need',
  'Open space',
  'Employment land',
];
/** A generated 8-page adoption statement (this suite runs without ../shared): one topic per page, shared terms throughout. */
const REPORT = fixtureFile(
  'SASEA_Adoption_Statement_Dec_2017.pdf',
  makeTextPdf(
    TOPICS.map((topic, i) => [
      `# ${topic}`,
      ...Array.from(
        { length: 10 },
        (_, l) =>
          `${topic} (paragraph ${i + 1}.${l + 1}): the Sustainability Appraisal and Strategic Environmental Assessment of the plan found its effects acceptable.`,
      ),
    ]),
  ),
);

/** The real store behind a wrapper that records every port call by name. */
const counting = (store: VectorStore, calls: string[]): VectorStore =>
  new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });

describe('search tools: store calls per query (real embedded store behind a counting wrapper)', () => {
  const calls: string[] = [];
  let dataDir: string;
  let composed: ComposedDocumentStore;
  let app: FastifyInstance;
  let client: Client;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-store-calls-'));
    const config = loadConfig({ ...testModelEnv(), DATA_DIR: dataDir, DOCUMENT_ROOTS: dirname(REPORT) });
    composed = composeDocumentStore(config, silentLogger());
    const deps = { ...composed.documentStore.deps, store: counting(composed.documentStore.deps.store, calls) };
    app = buildApp({ config, logger: silentLogger(), documentStore: deps });
    client = await connectMcp(await listenOnFreePort(app), 'streamable-http');
    const ingested = await client.callTool(
      { name: 'ingest_document', arguments: { file_path: REPORT, application_ref: 'CALLS/1' } },
      undefined,
      {
        timeout: 300_000,
      },
    );
    expect(ingested.structuredContent).toMatchObject({ status: 'success' });
    const stored = await client.callTool({
      name: 'store_document_chunks',
      arguments: {
        collection: 'papers',
        chunks: [
          {
            text: 'Sustainability appraisal of the city centre plan and its environmental effects.',
            source_filename: 'a.txt',
            chunk_index: 0,
          },
          { text: 'Flood risk and drainage along the river corridor.', source_filename: 'a.txt', chunk_index: 1 },
        ],
      },
    });
    expect(stored.structuredContent).toMatchObject({ success: true, chunks_stored: 2 });
  }, 300_000);

  afterAll(async () => {
    await client.close();
    await app.close();
    await composed.platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const callCounted = async (name: string, args: Record<string, unknown>) => {
    calls.length = 0;
    const result = await client.callTool({ name, arguments: args });
    return { result, calls: [...calls] };
  };

  it.each([
    ['hybrid (default)', {}],
    ['semantic', { search_mode: 'semantic' }],
    ['keyword', { search_mode: 'keyword' }],
  ])('search_application_docs %s: at most two store calls, and results', async (_mode, extra) => {
    const { result, calls: made } = await callCounted('search_application_docs', {
      query: 'sustainability appraisal adoption',
      max_results: 10,
      ...extra,
    });
    const body = toolText(result) as { results_count: number; results: Array<{ relevance_score: number }> };
    expect(body.results_count).toBeGreaterThan(0);
    expect(made.length).toBeLessThanOrEqual(2);
    expect(made[0]).toBe('getCollection');
  });

  it('hybrid results carry each hit its own cosine (a keyword-only candidate is scored, not searched again)', async () => {
    const { result, calls: made } = await callCounted('search_application_docs', {
      query: 'Sustainability Appraisal Strategic Environmental Assessment',
      max_results: 20,
    });
    const body = toolText(result) as { results: Array<{ relevance_score: number }> };
    expect(made).toEqual(['getCollection', 'searchHybrid']);
    expect(body.results.length).toBeGreaterThan(5);
    for (const r of body.results) expect(r.relevance_score).toBeGreaterThan(0);
  });

  it('retrieve_document_chunks in one collection: two store calls, score is the cosine', async () => {
    const { result, calls: made } = await callCounted('retrieve_document_chunks', {
      query: 'flood risk river',
      collection: 'papers',
      top_k: 2,
    });
    // Spec 002's text answer is the list itself.
    const list = toolText(result) as Array<{ text: string; score: number }>;
    expect(made).toEqual(['getCollection', 'searchHybrid']);
    expect(list[0]?.text).toMatch(/Flood risk/);
    for (const r of list) expect(r.score).toBeGreaterThan(0);
  });

  it('retrieve_document_chunks across every collection: three store calls however many collections (one multi-collection search)', async () => {
    const { result, calls: made } = await callCounted('retrieve_document_chunks', {
      query: 'flood risk river',
      top_k: 3,
    });
    const list = toolText(result) as Array<{ text: string; score: number }>;
    expect([...made].sort()).toEqual(['listCollections', 'scroll', 'searchMany']);
    expect(list.length).toBeGreaterThan(0);
    expect(list.some((r) => /Flood risk/.test(r.text))).toBe(true);
    for (const r of list) expect(r.score).toBeGreaterThan(0);
  });
});
