// SPDX-License-Identifier: AGPL-3.0-or-later
import { createProject, CLIENT_CHUNKING, readProjectRecord } from '@lectern/document-store';
import { fixtureFile, makeTextPdf, testModelEnv } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

type Json = Record<string, unknown>;
interface Result {
  chunk_id: string;
  doc_id: string;
  text: string;
  page_start: number | null;
  page_end: number | null;
  section_heading: string | null;
  section_path: string[];
  citation: Json | null;
  citation_text: string;
  dense_rank?: number | null;
  keyword_rank?: number | null;
}
interface Found {
  status: string;
  results_count: number;
  results: Result[];
  message?: string;
}

const LONG = `${'Enzyme kinetics are measured at several substrate concentrations to estimate the Michaelis constant. '.repeat(12)}End.`;

const PAPERS = [
  {
    doc_id: 'smith2020',
    text: 'Pepsin works best at a pH of about 2, far more acidic than trypsin, which prefers about 8.',
    chunk_index: 0,
    page_start: 3,
    page_end: 4,
    section_heading: 'Optimum pH',
    section_path: ['Results', 'Optimum pH'],
    tags: ['enzymes'],
    citation: {
      citekey: 'smith2020',
      title: 'Digestive enzymes',
      authors: ['Smith, A.'],
      year: 2020,
      doi: '10.1000/xyz123',
    },
  },
  {
    doc_id: 'smith2020',
    text: LONG,
    chunk_index: 1,
    page_start: 5,
    section_heading: 'Kinetics',
    section_path: ['Methods', 'Kinetics'],
    tags: ['enzymes', 'methods'],
    citation: { citekey: 'smith2020' },
  },
  {
    doc_id: 'jones2019',
    text: 'Protected cycle lanes should be at least two metres wide where cycle flows are high.',
    chunk_index: 0,
    page_start: 12,
    page_end: 12,
    section_heading: 'Design widths',
    section_path: ['Design widths'],
    tags: ['transport'],
    citation: { citekey: 'jones2019', year: 2019 },
  },
];

/** A generated report whose words reach a spec 000 ingest (implicit project), searched through spec 004. */
const REPORT = fixtureFile(
  'Heritage_Statement.pdf',
  makeTextPdf([
    [
      '# Heritage assets',
      'The listed chapel and its churchyard wall are designated heritage assets of high significance.',
    ],
    ['# Setting', 'Views of the chapel from the green contribute to its setting and must be preserved.'],
  ]),
);

describe('spec 004 project tools through a real MCP client', () => {
  let ds: RunningDocumentStore;
  beforeAll(async () => {
    ds = await startDocumentStore({ ...testModelEnv(), RETRIEVAL_MAX_CHARS: '400' });
    await createProject(ds.deps, { project: 'papers', chunking: CLIENT_CHUNKING });
    await createProject(ds.deps, { project: 'planning', chunking: CLIENT_CHUNKING });
    // A project declared with another model than this server writes with (FR-005).
    await createProject(ds.deps, {
      project: 'minilm-project',
      chunking: CLIENT_CHUNKING,
      fingerprint: { model_id: 'all-MiniLM-L6-v2', revision: 'declared', dimension: 384, normalized: true },
    });
    // A project without full-text index.
    await createProject(ds.deps, { project: 'dense-only', chunking: CLIENT_CHUNKING, hybrid: false });
  }, 120_000);
  afterAll(async () => {
    await ds.stop();
  });

  it('store_chunks stores with deterministic ids; storing again overwrites (no duplicates)', async () => {
    const first = await ds.call('store_chunks', { project: 'papers', chunks: PAPERS });
    expect(first.isError).toBe(false);
    const body = first.body as { chunks_stored: number; chunk_ids: string[]; embedding_model: string };
    expect(body.chunks_stored).toBe(3);
    expect(new Set(body.chunk_ids).size).toBe(3);
    const again = (await ds.call('store_chunks', { project: 'papers', chunks: PAPERS })).body as {
      chunk_ids: string[];
    };
    expect(again.chunk_ids).toEqual(body.chunk_ids);
    expect((await ds.call('inspect_collection', { project: 'papers' })).body).toMatchObject({
      points_count: 3,
      documents_count: 2,
    });
    await ds.call('store_chunks', {
      project: 'planning',
      chunks: [{ ...PAPERS[2], doc_id: 'plan1', tags: ['planning'] }],
    });
  }, 120_000);

  it('find_chunks returns cited, trimmed results from that project only', async () => {
    const { body } = await ds.call('find_chunks', { project: 'papers', query: 'acidity optimum of pepsin' });
    const found = body as Found;
    expect(found.status).toBe('success');
    expect(found.results_count).toBe(3);
    expect(found.results.every((r) => ['smith2020', 'jones2019'].includes(r.doc_id))).toBe(true);
    const pepsin = found.results[0] as Result;
    expect(pepsin).toMatchObject({
      doc_id: 'smith2020',
      page_start: 3,
      page_end: 4,
      section_heading: 'Optimum pH',
      section_path: ['Results', 'Optimum pH'],
      citation_text: '(smith2020, pp. 3\u20134)',
    });
    expect(pepsin.citation).toMatchObject({ citekey: 'smith2020', year: 2020, doi: '10.1000/xyz123' });
    const kinetics = found.results.find((r) => r.section_heading === 'Kinetics') as Result;
    expect(kinetics.citation_text).toBe('(smith2020, p. 5)');
    // The policy maximum (RETRIEVAL_MAX_CHARS=400): cut at a word boundary, "..." appended.
    expect(kinetics.text.length).toBeLessThanOrEqual(400);
    expect(kinetics.text.endsWith('...')).toBe(true);
    expect(LONG.startsWith(kinetics.text.slice(0, -3))).toBe(true);
    expect(LONG.charAt(kinetics.text.length - 3)).toBe(' ');
  });

  it('a client may lower the trim limit, never raise it', async () => {
    const lowered = (
      await ds.call('find_chunks', { project: 'papers', query: 'Michaelis constant', max_chars: 60, top_k: 1 })
    ).body as Found;
    expect(lowered.results[0]?.text.length).toBeLessThanOrEqual(60);
    const raised = (
      await ds.call('find_chunks', { project: 'papers', query: 'Michaelis constant', max_chars: 5000, top_k: 1 })
    ).body as Found;
    expect(raised.results[0]?.text.length).toBeLessThanOrEqual(400);
  });

  it('filters by tags and by document ids, and results never mix projects', async () => {
    const tagged = (
      await ds.call('find_chunks', { project: 'papers', query: 'cycle lanes', filters: { tags: ['transport'] } })
    ).body as Found;
    expect(tagged.results.map((r) => r.doc_id)).toEqual(['jones2019']);
    const byDoc = (
      await ds.call('find_chunks', { project: 'papers', query: 'cycle lanes', filters: { doc_ids: ['smith2020'] } })
    ).body as Found;
    expect(byDoc.results.every((r) => r.doc_id === 'smith2020')).toBe(true);
    const other = (await ds.call('find_chunks', { project: 'planning', query: 'pepsin enzymes cycle lanes' }))
      .body as Found;
    expect(other.results.map((r) => r.doc_id)).toEqual(['plan1']);
    const none = (
      await ds.call('find_chunks', { project: 'papers', query: 'anything', filters: { tags: ['no-such-tag'] } })
    ).body as Found;
    expect(none).toMatchObject({ status: 'success', results_count: 0, results: [] });
    expect(none.message).toMatch(/No chunk/);
  });

  it('query_hybrid fuses keyword and dense rankings and reports both ranks', async () => {
    const { body } = await ds.call('query_hybrid', { project: 'papers', query: 'Michaelis constant', top_k: 3 });
    const found = body as Found;
    expect(found.results[0]?.section_heading).toBe('Kinetics');
    expect(found.results[0]?.keyword_rank).toBe(1);
    expect(found.results[0]?.dense_rank).toEqual(expect.any(Number));
    const keywordOnly = (
      await ds.call('query_hybrid', {
        project: 'papers',
        query: 'Michaelis constant',
        top_k: 3,
        dense_weight: 0,
        keyword_weight: 1,
      })
    ).body as Found;
    expect(keywordOnly.results[0]?.section_heading).toBe('Kinetics');
  });

  it('query_hybrid on a project without a full-text index is HYBRID_NOT_SUPPORTED', async () => {
    const { isError, body } = await ds.call('query_hybrid', { project: 'dense-only', query: 'x' });
    expect(isError).toBe(true);
    expect(body).toMatchObject({ status: 'error', error_type: 'HYBRID_NOT_SUPPORTED' });
  });

  it.each(['find_chunks', 'query_hybrid', 'inspect_collection', 'store_chunks'])(
    '%s on an unknown project is INVALID_PROJECT naming the projects there are',
    async (tool) => {
      const args: Json = { project: 'nope', query: 'x', chunks: [PAPERS[0]] };
      const { isError, body } = await ds.call(tool, args);
      expect(isError).toBe(true);
      expect(body).toMatchObject({ status: 'error', error_type: 'INVALID_PROJECT' });
      expect((body as { message: string }).message).toMatch(/papers/);
    },
  );

  it('store_chunks with another model is EMBEDDING_MISMATCH every time; migrate switches to a new collection and keeps the old', async () => {
    for (let i = 0; i < 2; i++) {
      const refused = await ds.call('store_chunks', { project: 'minilm-project', chunks: [PAPERS[0]] });
      expect(refused.isError).toBe(true);
      expect(refused.body).toMatchObject({ error_type: 'EMBEDDING_MISMATCH' });
    }
    const before = await readProjectRecord(ds.deps.store, 'minilm-project');
    const migrated = await ds.call('store_chunks', { project: 'minilm-project', chunks: [PAPERS[0]], migrate: true });
    expect(migrated.isError).toBe(false);
    const after = await readProjectRecord(ds.deps.store, 'minilm-project');
    expect(after?.collection).toBe('minilm-project__v2');
    expect(after?.previous_collections).toEqual([before?.collection]);
    expect(await ds.deps.store.getCollection(before?.collection ?? '')).not.toBeNull();
    const found = (await ds.call('find_chunks', { project: 'minilm-project', query: 'pepsin' })).body as Found;
    expect(found.results_count).toBe(1);
  });

  it('inspect_collection reports size, model, indexes and redacted samples', async () => {
    const { body } = await ds.call('inspect_collection', { project: 'papers', sample_size: 3 });
    expect(body).toMatchObject({
      status: 'success',
      project: 'papers',
      collection: 'papers',
      points_count: 3,
      hybrid_enabled: true,
    });
    const b = body as {
      indexes: Array<{ field: string }>;
      sample_payloads: Json[];
      embedding_model: { model_id: string };
    };
    expect(b.indexes.length).toBeGreaterThan(0);
    expect(b.sample_payloads).toHaveLength(3);
    expect(b.sample_payloads[0]).toHaveProperty('section_path');
    expect(b.embedding_model.model_id).toEqual(expect.any(String));
  });

  it('list_projects lists every project with collection and model, never internal collections', async () => {
    const ingest = await ds.call('ingest_document', { file_path: REPORT, application_ref: 'HER/1' });
    expect(ingest.body).toMatchObject({ status: 'success' });
    const { body } = await ds.call('list_projects', {});
    const listed = body as {
      project_count: number;
      projects: Array<{ project: string; collection: string; points_count: number }>;
    };
    expect(listed.projects.map((p) => p.project)).toEqual([
      'application_docs',
      'dense-only',
      'minilm-project',
      'papers',
      'planning',
    ]);
    expect(listed.projects.find((p) => p.project === 'minilm-project')?.collection).toBe('minilm-project__v2');
    expect(listed.projects.every((p) => !p.project.includes('__'))).toBe(true);
  }, 120_000);

  it('a spec 000 ingest is searchable through spec 004 with page spans and section paths', async () => {
    const found = (
      await ds.call('find_chunks', { project: 'application_docs', query: 'views of the chapel from the green' })
    ).body as Found;
    expect(found.results_count).toBeGreaterThan(0);
    const hit = found.results.find((r) => r.text.includes('Views of the chapel')) as Result;
    expect(hit).toBeDefined();
    // The short report is one spec 000 chunk (800 characters) over both pages, starting under its first heading.
    expect(hit).toMatchObject({
      page_start: 1,
      page_end: 2,
      section_heading: 'Heritage assets',
      section_path: ['Heritage assets'],
    });
    expect(hit.citation_text).toBe('(Heritage_Statement.pdf, pp. 1\u20132)');
  });

  it('rejects an empty query with invalid_arguments', async () => {
    const { body } = await ds.call('find_chunks', { project: 'papers', query: '   ' });
    expect(body).toMatchObject({ error_type: 'invalid_arguments' });
  });
});

describe('spec 004 tools with the vector database unreachable', () => {
  let ds: RunningDocumentStore;
  beforeAll(async () => {
    // Qdrant configured on a loopback port nothing listens on: every store call fails to connect.
    ds = await startDocumentStore({ ...testModelEnv(), QDRANT_URL: 'http://127.0.0.1:9' });
  });
  afterAll(async () => {
    await ds.stop();
  });

  it.each([
    ['list_projects', {}],
    ['find_chunks', { project: 'papers', query: 'pepsin' }],
    ['inspect_collection', { project: 'papers' }],
  ])(
    '%s answers INDEX_UNAVAILABLE',
    async (tool, args) => {
      const { isError, body } = await ds.call(tool, args);
      expect(isError).toBe(true);
      expect(body).toMatchObject({ status: 'error', error_type: 'INDEX_UNAVAILABLE' });
    },
    60_000,
  );
});

describe('spec 004 FR-013 audit log for each ingest operation (store_chunks through a real MCP client)', () => {
  let ds: RunningDocumentStore;
  beforeAll(async () => {
    ds = await startDocumentStore(testModelEnv());
  }, 120_000);
  afterAll(async () => {
    await ds.stop();
  });
  const ingestRecords = async (project: string) =>
    (await ds.deps.audit!.list({ project, kind: 'ingest', limit: 100 })).sort((a, b) => a.at.localeCompare(b.at));

  it('store_chunks over MCP writes one record per call: documents, chunk counts, model, duration', async () => {
    await createProject(ds.deps, { project: 'audited', chunking: CLIENT_CHUNKING });
    expect(await ingestRecords('audited')).toEqual([]);
    const stored = await ds.call('store_chunks', { project: 'audited', chunks: PAPERS });
    expect(stored.isError).toBe(false);
    const [record, ...more] = await ingestRecords('audited');
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      kind: 'ingest',
      tool: 'store_chunks',
      project: 'audited',
      model: (stored.body as Json)['embedding_model'],
      collection: 'audited',
      totals: { documents: 2, chunks: 3, written: 3, removed: 0, errors: 0 },
      steps: ['stored 3 chunks of 2 documents'],
    });
    expect(record?.duration_ms).toEqual(expect.any(Number));
    expect(Date.parse(record?.at ?? '')).not.toBeNaN();
    expect(record?.documents).toEqual([
      expect.objectContaining({ doc_id: 'smith2020', chunks: 2, written: 2, removed: 0, citekey: 'smith2020' }),
      expect.objectContaining({ doc_id: 'jones2019', chunks: 1, written: 1, removed: 0, citekey: 'jones2019' }),
    ]);
    await ds.call('store_chunks', { project: 'audited', chunks: [PAPERS[2]] });
    expect((await ingestRecords('audited')).map((r) => r.totals?.chunks)).toEqual([3, 1]);
  });

  it('a refused call leaves no record; migrate: true leaves one naming both collections and models', async () => {
    await createProject(ds.deps, {
      project: 'audited-migrate',
      chunking: CLIENT_CHUNKING,
      fingerprint: { model_id: 'all-MiniLM-L6-v2', revision: 'declared', dimension: 384, normalized: true },
    });
    const refused = await ds.call('store_chunks', { project: 'audited-migrate', chunks: [PAPERS[0]] });
    expect(refused.body).toMatchObject({ error_type: 'EMBEDDING_MISMATCH' });
    expect(await ingestRecords('audited-migrate')).toEqual([]);
    const migrated = await ds.call('store_chunks', {
      project: 'audited-migrate',
      chunks: [PAPERS[0]],
      migrate: true,
    });
    expect(migrated.isError).toBe(false);
    const records = await ingestRecords('audited-migrate');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      tool: 'store_chunks',
      model: (migrated.body as Json)['embedding_model'],
      collection: 'audited-migrate__v2',
      totals: { documents: 1, chunks: 1, written: 1 },
      documents: [expect.objectContaining({ doc_id: 'smith2020', chunks: 1 })],
    });
    expect(records[0]?.steps?.[0]).toBe(
      `migrated audited-migrate from audited-migrate (all-MiniLM-L6-v2@declared) to audited-migrate__v2 ` +
        `(${String((migrated.body as Json)['embedding_model'])}); audited-migrate kept`,
    );
  });
});
