// SPDX-License-Identifier: AGPL-3.0-or-later
import { listCollectionNames } from '@lectern/document-store';
import { checkPolicyConsistency, createPolicyRevision } from '@lectern/policy-kb';
import { EffectiveDateResolver, dateInt } from '@lectern/policy-registry';
import { appErrorCode, fixtureFile, makePolicyPdf, testModelEnv } from '@lectern/testing';
import { startPolicyKb, type RunningPolicyKb } from './policy-kb.testkit.js';

/*
 * Spec 001's six tools through a real MCP client over Streamable HTTP, on a policy-kb-mcp composed by the
 * platform (SQLite registry and store, in-process conversion, the generated test embedding model), with generated
 * policy PDFs. NFR-001: on every date the resolver, search_policy and a direct store query by the chunks'
 * integer dates name the same revisions.
 */
let kb: RunningPolicyKb;
const pdf = (theme: string): string => fixtureFile(`${theme}-policy.pdf`, makePolicyPdf(theme));
type Pair = string; // "SOURCE/revision_id"

const ingest = async (source: string, revision_id: string, theme: string): Promise<Record<string, unknown>> => {
  const r = await kb.call('ingest_policy_revision', { source, revision_id, file_path: pdf(theme) });
  expect(r).toMatchObject({ isError: false });
  return r.body;
};

/** The revisions the resolver says are in force on `date`, as "SOURCE/revision". */
const resolverPairs = async (date: string): Promise<Pair[]> =>
  Object.entries(await new EffectiveDateResolver(kb.deps.registry).getRevisionIdsForDate(date))
    .filter(([, r]) => r !== null)
    .map(([s, r]) => `${s}/${r}`)
    .sort();

/** The revisions of search_policy's results on `date` (n_results above the chunk total: every in-force chunk). */
const searchPairs = async (date: string): Promise<Pair[]> => {
  const r = await kb.call('search_policy', { query: 'proposals meet standard', effective_date: date, n_results: 100 });
  expect(r.isError).toBe(false);
  const results = r.body['results'] as { source: string; revision_id: string }[];
  return [...new Set(results.map((x) => `${x.source}/${x.revision_id}`))].sort();
};

/** The revisions whose chunks' integer dates cover `date` (spec 001's ChromaDB where-filter, on the store). */
const storePairs = async (date: string): Promise<Pair[]> => {
  const d = dateInt(date);
  const page = await kb.deps.store.scroll(kb.deps.collection, {
    filter: { $and: [{ effective_from: { $lte: d } }, { effective_to: { $gte: d } }] },
    limit: 1000,
  });
  return [
    ...new Set(page.points.map((p) => `${String(p.payload['source'])}/${String(p.payload['revision_id'])}`)),
  ].sort();
};

beforeAll(async () => {
  // the generated test model: the checks below hold whatever the embeddings mean (libs/testing test-model.ts)
  kb = await startPolicyKb(testModelEnv(), 'streamable-http');
  const { registry } = kb.deps;
  await registry.createPolicy({ source: 'TEST_POL', title: 'Test Policy', category: 'national_policy' });
  await registry.createPolicy({
    source: 'OTHER_POL',
    title: 'Other Policy',
    category: 'local_plan',
    description: 'bounded revisions',
  });
  // TEST_POL: A from 2020-01-01, ingested while open-ended; then B from 2022-06-15 supersedes it (A ends 2022-06-14).
  await createPolicyRevision(kb.deps, {
    source: 'TEST_POL',
    revision_id: 'rev_TEST_POL_2020_01',
    version_label: 'January 2020',
    effective_from: '2020-01-01',
  });
  await ingest('TEST_POL', 'rev_TEST_POL_2020_01', 'alpha');
  await createPolicyRevision(kb.deps, {
    source: 'TEST_POL',
    revision_id: 'rev_TEST_POL_2022_06',
    version_label: 'June 2022',
    effective_from: '2022-06-15',
  });
  await ingest('TEST_POL', 'rev_TEST_POL_2022_06', 'bravo');
  // OTHER_POL: C bounded 2021-03-01..2021-12-31, a gap through 2022, D from 2023-01-01.
  await createPolicyRevision(kb.deps, {
    source: 'OTHER_POL',
    revision_id: 'rev_C',
    version_label: 'C',
    effective_from: '2021-03-01',
    effective_to: '2021-12-31',
  });
  await ingest('OTHER_POL', 'rev_C', 'charlie');
  await createPolicyRevision(kb.deps, {
    source: 'OTHER_POL',
    revision_id: 'rev_D',
    version_label: 'D',
    effective_from: '2023-01-01',
  });
  await ingest('OTHER_POL', 'rev_D', 'delta');
}, 300_000);

afterAll(async () => {
  await kb?.stop();
});

describe('NFR-001: the resolver, search_policy and the store agree on every case', () => {
  const cases: [string, string, Pair[]][] = [
    ['a single revision in range', '2021-06-01', ['OTHER_POL/rev_C', 'TEST_POL/rev_TEST_POL_2020_01']],
    ['several revisions, a middle date', '2022-01-10', ['TEST_POL/rev_TEST_POL_2020_01']],
    ['before the first revision', '2019-12-31', []],
    ['the exact effective_from of the new revision', '2022-06-15', ['TEST_POL/rev_TEST_POL_2022_06']],
    ['the exact effective_to of the superseded revision', '2022-06-14', ['TEST_POL/rev_TEST_POL_2020_01']],
    [
      'the exact effective_from of a bounded revision',
      '2021-03-01',
      ['OTHER_POL/rev_C', 'TEST_POL/rev_TEST_POL_2020_01'],
    ],
    [
      'the exact effective_to of a bounded revision',
      '2021-12-31',
      ['OTHER_POL/rev_C', 'TEST_POL/rev_TEST_POL_2020_01'],
    ],
    ['a gap between revisions', '2022-03-01', ['TEST_POL/rev_TEST_POL_2020_01']],
    ['a snapshot across policies', '2024-05-01', ['OTHER_POL/rev_D', 'TEST_POL/rev_TEST_POL_2022_06']],
  ];
  it.each(cases)('%s (%s)', async (_label, date, expected) => {
    expect(await resolverPairs(date)).toEqual(expected);
    expect(await searchPairs(date)).toEqual(expected);
    expect(await storePairs(date)).toEqual(expected);
  });

  it('explains the dates without a revision: before the first one, and in a gap', async () => {
    const resolver = new EffectiveDateResolver(kb.deps.registry);
    expect((await resolver.resolveForPolicy('TEST_POL', '2019-12-31'))?.reason).toBe('date_before_first_revision');
    expect((await resolver.resolveForPolicy('OTHER_POL', '2022-03-01'))?.reason).toBe('date_in_gap');
    const snapshot = await resolver.resolveSnapshot('2022-03-01');
    expect(snapshot.policies_with_revision).toEqual(['TEST_POL']);
    expect(snapshot.policies_in_gap).toEqual(['OTHER_POL']);
  });

  it('without a date searches every revision, superseded ones included; sources restrict it', async () => {
    const all = await kb.call('search_policy', { query: 'proposals meet standard', n_results: 100 });
    const revisions = new Set((all.body['results'] as { revision_id: string }[]).map((r) => r.revision_id));
    expect([...revisions].sort()).toEqual(['rev_C', 'rev_D', 'rev_TEST_POL_2020_01', 'rev_TEST_POL_2022_06']);
    const only = await kb.call('search_policy', {
      query: 'proposals',
      sources: ['OTHER_POL'],
      effective_date: '2021-06-01',
      n_results: 100,
    });
    expect(new Set((only.body['results'] as { source: string }[]).map((r) => r.source))).toEqual(
      new Set(['OTHER_POL']),
    );
  });

  it('auto-supersession closed the first revision in the registry and in its chunks', async () => {
    const revisions = await kb.call('list_policy_revisions', { source: 'TEST_POL' });
    expect(revisions.body).toMatchObject({
      status: 'success',
      source: 'TEST_POL',
      revision_count: 2,
      revisions: [
        { revision_id: 'rev_TEST_POL_2022_06', effective_from: '2022-06-15', effective_to: null, status: 'active' },
        {
          revision_id: 'rev_TEST_POL_2020_01',
          effective_from: '2020-01-01',
          effective_to: '2022-06-14',
          status: 'superseded',
        },
      ],
    });
    const old = await kb.deps.store.scroll(kb.deps.collection, {
      filter: { revision_id: 'rev_TEST_POL_2020_01' },
      limit: 1000,
    });
    expect(old.points.length).toBeGreaterThan(0);
    expect(new Set(old.points.map((p) => p.payload['effective_to']))).toEqual(new Set([20220614]));
  });
});

describe('search_policy', () => {
  it('returns the spec shape, ranked, and only the revision in force (its theme)', async () => {
    const r = await kb.call('search_policy', {
      query: 'bravo proposals',
      effective_date: '2023-01-01',
      sources: ['TEST_POL'],
      n_results: 3,
    });
    expect(r.body).toMatchObject({
      status: 'success',
      query: 'bravo proposals',
      effective_date: '2023-01-01',
      results_count: 3,
    });
    const results = r.body['results'] as Record<string, unknown>[];
    expect(results).toHaveLength(3);
    for (const hit of results) {
      expect(hit).toMatchObject({
        source: 'TEST_POL',
        revision_id: 'rev_TEST_POL_2022_06',
        version_label: 'June 2022',
      });
      expect(String(hit['chunk_id'])).toMatch(/^TEST_POL__rev_TEST_POL_2022_06__[A-Za-z0-9_]+__\d{3}$/);
      expect(String(hit['text'])).toContain('bravo');
      expect(hit['relevance_score']).toBeGreaterThanOrEqual(0);
      expect(hit['relevance_score']).toBeLessThanOrEqual(1);
      expect(Number.isInteger(hit['page_number'])).toBe(true);
    }
  });

  it('answers a batch of queries in one call, each with the same filters', async () => {
    const r = await kb.call('search_policy', {
      query: 'alpha',
      queries: ['charlie parking', 'delta standard'],
      effective_date: '2021-06-01',
      n_results: 2,
    });
    expect(r.isError).toBe(false);
    const batch = r.body['batch'] as { query: string; results_count: number; results: { revision_id: string }[] }[];
    expect(batch.map((b) => b.query)).toEqual(['charlie parking', 'delta standard']);
    for (const b of batch) {
      expect(b.results_count).toBe(b.results.length);
      for (const hit of b.results) expect(['rev_C', 'rev_TEST_POL_2020_01']).toContain(hit.revision_id);
    }
    expect((r.body['results'] as unknown[]).length).toBe(2);
  });

  it.each(['2024-02-30', '2024-13-01', 'yesterday', '12/12/2024', ''])('answers invalid_date for %j', async (date) => {
    const r = await kb.call('search_policy', { query: 'parking', effective_date: date });
    expect(r).toMatchObject({ isError: true, body: { status: 'error', error_type: 'invalid_date' } });
  });
});

describe('get_policy_section', () => {
  it('returns a paragraph of the revision in force today, with its pages', async () => {
    const r = await kb.call('get_policy_section', { source: 'TEST_POL', section_ref: 'Para 4' });
    expect(r.body).toMatchObject({
      status: 'success',
      source: 'TEST_POL',
      section_ref: 'Para 4',
      revision_id: 'rev_TEST_POL_2022_06',
      version_label: 'June 2022',
      page_numbers: [2],
    });
    expect(r.body['text']).toContain('Paragraph 4 of the bravo policy');
    expect(r.body['text']).not.toContain('Paragraph 5');
  });

  it('reads a given revision, a chapter with its paragraphs, a table, and normalises the reference', async () => {
    const old = await kb.call('get_policy_section', {
      source: 'TEST_POL',
      section_ref: 'paragraph 4',
      revision_id: 'rev_TEST_POL_2020_01',
    });
    expect(old.body).toMatchObject({ section_ref: 'Para 4', revision_id: 'rev_TEST_POL_2020_01' });
    expect(old.body['text']).toContain('Paragraph 4 of the alpha policy');
    const chapter = await kb.call('get_policy_section', { source: 'TEST_POL', section_ref: 'Chapter 2' });
    for (const n of [4, 5, 6]) expect(chapter.body['text']).toContain(`Paragraph ${n} of the bravo policy`);
    expect(chapter.body['text']).not.toContain('Paragraph 7');
    const table = await kb.call('get_policy_section', { source: 'TEST_POL', section_ref: 'table 2.1' });
    expect(table.body).toMatchObject({ section_ref: 'Table 2-1', page_numbers: [2] });
    expect(table.body['text']).toContain('secure bravo cycle spaces');
  });

  it('answers policy_not_found, revision_not_found and section_not_found', async () => {
    expect((await kb.call('get_policy_section', { source: 'NO_SUCH', section_ref: 'Para 1' })).body).toMatchObject({
      status: 'error',
      error_type: 'policy_not_found',
    });
    expect(
      (await kb.call('get_policy_section', { source: 'TEST_POL', section_ref: 'Para 1', revision_id: 'rev_nope' }))
        .body,
    ).toMatchObject({
      error_type: 'revision_not_found',
    });
    expect((await kb.call('get_policy_section', { source: 'TEST_POL', section_ref: 'Para 999' })).body).toMatchObject({
      error_type: 'section_not_found',
    });
  });
});

describe('listing', () => {
  it('lists the policies and answers policy_not_found for an unknown source', async () => {
    const r = await kb.call('list_policy_documents', {});
    expect(r.body).toEqual({
      status: 'success',
      policy_count: 2,
      policies: [
        { source: 'OTHER_POL', title: 'Other Policy', category: 'local_plan' },
        { source: 'TEST_POL', title: 'Test Policy', category: 'national_policy' },
      ],
    });
    expect((await kb.call('list_policy_revisions', { source: 'NO_SUCH' })).body).toMatchObject({
      error_type: 'policy_not_found',
    });
  });

  it("keeps the policy collection out of spec 002's collections", async () => {
    expect((await kb.deps.store.listCollections()).map((c) => c.name)).toContain(kb.deps.collection);
    expect(await listCollectionNames(kb.deps)).not.toContain(kb.deps.collection);
  });
});

describe('ingest, remove and consistency (NFR-003)', () => {
  it('records chunk_count, page_count and ingested_at; reindex replaces the chunks', async () => {
    const rev = await kb.deps.registry.getRevision('OTHER_POL', 'rev_D');
    expect(rev).toMatchObject({ status: 'active', page_count: 3, error: null });
    expect(rev?.ingested_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const stored = await kb.deps.store.count(kb.deps.collection, { source: 'OTHER_POL', revision_id: 'rev_D' });
    expect(rev?.chunk_count).toBe(stored);
    const again = await kb.call('ingest_policy_revision', {
      source: 'OTHER_POL',
      revision_id: 'rev_D',
      file_path: pdf('delta'),
      reindex: true,
    });
    expect(again.body).toMatchObject({
      status: 'success',
      chunks_created: stored,
      page_count: 3,
      extraction_method: 'text_layer',
    });
    expect(await kb.deps.store.count(kb.deps.collection, { source: 'OTHER_POL', revision_id: 'rev_D' })).toBe(stored);
  });

  it('answers revision_not_found and file errors, and marks a revision whose file cannot be read failed', async () => {
    expect(
      (
        await kb.call('ingest_policy_revision', {
          source: 'TEST_POL',
          revision_id: 'rev_nope',
          file_path: pdf('alpha'),
        })
      ).body,
    ).toMatchObject({
      error_type: 'revision_not_found',
    });
    await createPolicyRevision(kb.deps, {
      source: 'OTHER_POL',
      revision_id: 'rev_BROKEN',
      version_label: 'broken',
      effective_from: '2020-01-01',
      effective_to: '2020-12-31',
    });
    const junk = fixtureFile('junk-policy.pdf', Buffer.from('%PDF-1.4\nthis is not really a PDF\n'));
    const r = await kb.call('ingest_policy_revision', {
      source: 'OTHER_POL',
      revision_id: 'rev_BROKEN',
      file_path: junk,
    });
    expect(r.isError).toBe(true);
    const broken = await kb.deps.registry.getRevision('OTHER_POL', 'rev_BROKEN');
    expect(broken).toMatchObject({ status: 'failed', chunk_count: 0 });
    expect(broken?.error).toContain(String(r.body['error_type']));
    // A failed revision is never in force.
    expect(await resolverPairs('2020-06-01')).toEqual(['TEST_POL/rev_TEST_POL_2020_01']);
    expect(
      (
        await kb.call('ingest_policy_revision', {
          source: 'OTHER_POL',
          revision_id: 'rev_BROKEN',
          file_path: '/etc/passwd',
        })
      ).isError,
    ).toBe(true);
    await kb.deps.registry.deleteRevision('OTHER_POL', 'rev_BROKEN');
  });

  it('refuses an overlapping revision with revision_overlap and changes nothing', async () => {
    const before = await kb.deps.registry.listRevisions('TEST_POL');
    const chunksBefore = await kb.deps.store.scroll(kb.deps.collection, {
      filter: { source: 'TEST_POL' },
      limit: 1000,
    });
    const attempt = createPolicyRevision(kb.deps, {
      source: 'TEST_POL',
      revision_id: 'rev_overlap',
      version_label: 'overlap',
      effective_from: '2021-01-01',
      effective_to: '2021-02-01',
    });
    expect(await appErrorCode(attempt)).toBe('revision_overlap');
    expect(await kb.deps.registry.listRevisions('TEST_POL')).toEqual(before);
    expect(await kb.deps.store.scroll(kb.deps.collection, { filter: { source: 'TEST_POL' }, limit: 1000 })).toEqual(
      chunksBefore,
    );
  });

  it('remove_policy_revision returns the count removed, leaves the registry as it was, and 0 the second time', async () => {
    await createPolicyRevision(kb.deps, {
      source: 'OTHER_POL',
      revision_id: 'rev_OLD',
      version_label: 'old',
      effective_from: '2019-01-01',
      effective_to: '2019-12-31',
    });
    const ingested = await ingest('OTHER_POL', 'rev_OLD', 'echo');
    const r = await kb.call('remove_policy_revision', { source: 'OTHER_POL', revision_id: 'rev_OLD' });
    expect(r.body).toEqual({
      status: 'success',
      source: 'OTHER_POL',
      revision_id: 'rev_OLD',
      chunks_removed: ingested['chunks_created'],
    });
    expect((await kb.deps.registry.getRevision('OTHER_POL', 'rev_OLD'))?.chunk_count).toBe(ingested['chunks_created']);
    expect(
      (await kb.call('remove_policy_revision', { source: 'OTHER_POL', revision_id: 'rev_OLD' })).body,
    ).toMatchObject({ chunks_removed: 0 });
    await kb.deps.registry.deleteRevision('OTHER_POL', 'rev_OLD');
  });

  it('leaves the registry and the store consistent after all of the above', async () => {
    const report = await checkPolicyConsistency(kb.deps);
    expect(report).toMatchObject({
      consistent: true,
      orphan_chunks: 0,
      count_mismatches: [],
      policies: 2,
      revisions: 4,
    });
  });
});
