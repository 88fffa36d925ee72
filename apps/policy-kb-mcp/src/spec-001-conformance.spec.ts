// SPDX-License-Identifier: AGPL-3.0-or-later
import { checkPolicyConsistency, createPolicyRevision } from '@lectern/policy-kb';
import { fixtureFile, makePolicyPdf, makeTextPdf, testModelEnv } from '@lectern/testing';
import { startPolicyKb, type RunningPolicyKb } from './policy-kb.testkit.js';

/*
 * Spec 001 clauses a real client tripped over (issue 31), through a real MCP client over Streamable HTTP on a
 * policy-kb-mcp composed by the platform (SQLite registry and store, in-process conversion, generated PDFs).
 */
let kb: RunningPolicyKb;
const pdf = (theme: string): string => fixtureFile(`${theme}-policy.pdf`, makePolicyPdf(theme));

const ingest = async (source: string, revision_id: string, file: string): Promise<Record<string, unknown>> => {
  const r = await kb.call('ingest_policy_revision', { source, revision_id, file_path: file });
  expect(r).toMatchObject({ isError: false });
  return r.body;
};

type Listed = { revision_id: string; effective_to: string | null; status: string; chunk_count: number };
const listed = async (source: string): Promise<Listed[]> => {
  const r = await kb.call('list_policy_revisions', { source });
  expect(r.isError).toBe(false);
  return (r.body['revisions'] as Listed[]).map(({ revision_id, effective_to, status, chunk_count }) => ({
    revision_id,
    effective_to,
    status,
    chunk_count,
  }));
};

const chunkDates = async (revisionId: string): Promise<unknown[]> => {
  const page = await kb.deps.store.scroll(kb.deps.collection, { filter: { revision_id: revisionId }, limit: 1000 });
  return [...new Set(page.points.map((p) => p.payload['effective_to']))];
};

beforeAll(async () => {
  kb = await startPolicyKb(testModelEnv(), 'streamable-http');
  await kb.deps.registry.createPolicy({ source: 'NPPF', title: 'NPPF', category: 'national_policy' });
  // Both revisions registered (processing) before either is ingested, as two quick uploads do.
  await createPolicyRevision(kb.deps, {
    source: 'NPPF',
    revision_id: 'rev_NPPF_2024_12',
    version_label: 'December 2024',
    effective_from: '2024-12-12',
  });
  await createPolicyRevision(kb.deps, {
    source: 'NPPF',
    revision_id: 'rev_NPPF_2026_03',
    version_label: 'March 2026',
    effective_from: '2026-03-01',
  });
}, 120_000);

afterAll(async () => {
  await kb?.stop();
});

describe('policy-kb-api:FR-004 superseded status', () => {
  it('an ingest finishing after a later revision took over leaves it superseded, and list_policy_revisions shows it', async () => {
    // The December 2024 revision is ingested while the later one is still processing.
    await ingest('NPPF', 'rev_NPPF_2024_12', pdf('kilo'));
    const dec = await listed('NPPF');
    expect(dec[1]).toMatchObject({ revision_id: 'rev_NPPF_2024_12', effective_to: '2026-02-28', status: 'superseded' });
    expect(await chunkDates('rev_NPPF_2024_12')).toEqual([20260228]);
    await ingest('NPPF', 'rev_NPPF_2026_03', pdf('lima'));
    expect(await listed('NPPF')).toEqual([
      expect.objectContaining({ revision_id: 'rev_NPPF_2026_03', effective_to: null, status: 'active' }),
      expect.objectContaining({ revision_id: 'rev_NPPF_2024_12', effective_to: '2026-02-28', status: 'superseded' }),
    ]);
    // A reindex of the superseded revision does not bring `active` back, nor reopen its chunks' dates.
    const again = await kb.call('ingest_policy_revision', {
      source: 'NPPF',
      revision_id: 'rev_NPPF_2024_12',
      file_path: pdf('kilo'),
      reindex: true,
    });
    expect(again.isError).toBe(false);
    expect((await listed('NPPF'))[1]).toMatchObject({ status: 'superseded', effective_to: '2026-02-28' });
    expect(await chunkDates('rev_NPPF_2024_12')).toEqual([20260228]);
  });
});

describe('policy-kb-api:FR-006 remove_policy_revision does not modify the policy registry', () => {
  it('removes the later revision chunks only: statuses, dates and chunk_count stay; the earlier one stays superseded', async () => {
    const before = await listed('NPPF');
    const stored = await kb.deps.store.count(kb.deps.collection, { revision_id: 'rev_NPPF_2026_03' });
    expect(stored).toBeGreaterThan(0);
    const r = await kb.call('remove_policy_revision', { source: 'NPPF', revision_id: 'rev_NPPF_2026_03' });
    expect(r.body).toEqual({
      status: 'success',
      source: 'NPPF',
      revision_id: 'rev_NPPF_2026_03',
      chunks_removed: stored,
    });
    expect(await listed('NPPF')).toEqual(before);
    expect(before[0]).toMatchObject({ revision_id: 'rev_NPPF_2026_03', chunk_count: stored });
    expect(await kb.deps.store.count(kb.deps.collection, { revision_id: 'rev_NPPF_2026_03' })).toBe(0);
    // A registered revision with no chunks: 0, not an error.
    expect(
      (await kb.call('remove_policy_revision', { source: 'NPPF', revision_id: 'rev_NPPF_2026_03' })).body,
    ).toMatchObject({ status: 'success', chunks_removed: 0 });
  });

  it('answers revision_not_found for a revision that is neither registered nor stored', async () => {
    for (const [source, revision_id] of [
      ['NPPF', 'rev_NPPF_1999_01'],
      ['NO_SUCH_POLICY', 'rev_x'],
    ]) {
      const r = await kb.call('remove_policy_revision', { source, revision_id });
      expect(r).toMatchObject({ isError: true, body: { status: 'error', error_type: 'revision_not_found' } });
    }
  });

  it.each(['../../etc', '__', 'rev__x', 'a/b', 'rev:x', '.hidden'])(
    'refuses the revision id %p as invalid_arguments in every tool, before any registry or store call',
    async (revision_id) => {
      for (const [tool, args] of [
        ['remove_policy_revision', { source: 'NPPF', revision_id }],
        ['get_policy_section', { source: 'NPPF', section_ref: 'Para 1', revision_id }],
        ['ingest_policy_revision', { source: 'NPPF', revision_id, file_path: '/nonexistent.pdf' }],
      ] as const) {
        const r = await kb.call(tool, args);
        expect(r).toMatchObject({ isError: true, body: { status: 'error', error_type: 'invalid_arguments' } });
        expect(String(r.body['message'])).toMatch(/revision_id/);
      }
    },
  );

  it('search keeps answering; policy check reports the removed chunks, repair leaves them, re-ingest restores', async () => {
    // The date of the revision without chunks: no results, no error; an earlier date still finds its revision.
    const now = await kb.call('search_policy', { query: 'proposals meet standard', effective_date: '2026-06-01' });
    expect(now.body).toMatchObject({ status: 'success', results_count: 0, results: [] });
    const then = await kb.call('search_policy', { query: 'kilo proposals', effective_date: '2025-06-01' });
    expect(then.body['results_count']).toBeGreaterThan(0);
    const section = await kb.call('get_policy_section', { source: 'NPPF', section_ref: 'Para 1' });
    expect(section.body).toMatchObject({ status: 'error', error_type: 'section_not_found' });

    const registered = (await kb.deps.registry.getRevision('NPPF', 'rev_NPPF_2026_03'))?.chunk_count;
    const found = await checkPolicyConsistency(kb.deps, { repair: true });
    expect(found).toMatchObject({
      consistent: false,
      count_mismatches: [],
      fixed_counts: 0,
      removed_revisions: [
        {
          source: 'NPPF',
          revision_id: 'rev_NPPF_2026_03',
          registered,
          hint: 'chunks removed by remove_policy_revision; re-ingest to restore',
        },
      ],
    });
    expect((await kb.deps.registry.getRevision('NPPF', 'rev_NPPF_2026_03'))?.chunk_count).toBe(registered);

    await ingest('NPPF', 'rev_NPPF_2026_03', pdf('lima'));
    expect(await checkPolicyConsistency(kb.deps)).toMatchObject({ consistent: true, removed_revisions: [] });
    const restored = await kb.call('search_policy', { query: 'lima proposals', effective_date: '2026-06-01' });
    expect(restored.body['results_count']).toBeGreaterThan(0);
  });
});

describe('policy-kb-api:FR-001 search_policy results ordered by the score they report (issue 25)', () => {
  // Every paragraph but one is near the query in meaning and shares its common words; the odd one out repeats
  // the query's one rare word, so keyword ranking puts it high while its cosine is low.
  const paragraphs = [
    '1. Secure cycle parking must be provided for every new dwelling in the district.',
    '2. Cycle parking for visitors should be covered, lit and close to the main entrance.',
    '3. Cycle parking spaces in flats are provided in a secure communal store at ground level.',
    '4. Quorum quorum quorum: the committee quorum is three members, and without a quorum it adjourns.',
    '5. Long stay cycle parking at workplaces is secure, covered and overlooked.',
    '6. Parking for cargo cycles and adapted cycles needs wider spaces.',
  ];
  const query = 'secure cycle parking quorum';

  it('returns the hybrid hits in fused order with the fused score as rank_score, relevance_score the cosine, where the orders differ', async () => {
    await kb.deps.registry.createPolicy({ source: 'ORDER_POL', title: 'Order', category: 'local_guidance' });
    await createPolicyRevision(kb.deps, {
      source: 'ORDER_POL',
      revision_id: 'rev_ORDER',
      version_label: 'one',
      effective_from: '2020-01-01',
    });
    await ingest('ORDER_POL', 'rev_ORDER', fixtureFile('order-policy.pdf', makeTextPdf([paragraphs])));

    // Precondition (what makes the two scores tell different orders): the store's fused order is not the cosine order.
    const collection = await kb.deps.store.getCollection(kb.deps.collection);
    const embedder = await kb.deps.embedders.for(collection!.fingerprint);
    const hits = await kb.deps.store.searchHybrid(
      kb.deps.collection,
      { vector: await embedder.embed(query), text: query },
      { fingerprint: collection!.fingerprint, limit: 10, filter: { source: 'ORDER_POL' } },
    );
    const fused = hits.map((h) => h.id);
    const byCosine = [...hits].sort((a, b) => (b.denseScore ?? 0) - (a.denseScore ?? 0)).map((h) => h.id);
    expect(fused).not.toEqual(byCosine);

    const r = await kb.call('search_policy', { query, sources: ['ORDER_POL'], n_results: 10 });
    const results = r.body['results'] as Array<{ chunk_id: string; relevance_score: number; rank_score: number }>;
    // Ordered by the score each result shows (rank_score, the fused score), highest first: the store's order.
    const scores = results.map((x) => x.rank_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(results.map((x) => x.chunk_id)).toEqual(fused);
    hits.forEach((h, i) => {
      expect(results[i]!.rank_score).toBeCloseTo(h.score, 5);
      expect(results[i]!.relevance_score).toBeCloseTo(h.denseScore ?? -1, 5);
    });
    // The batch answers are ordered the same way.
    const batch = await kb.call('search_policy', {
      query: 'x',
      queries: [query],
      sources: ['ORDER_POL'],
      n_results: 10,
    });
    const batched = (batch.body['batch'] as Array<{ results: Array<{ rank_score: number }> }>)[0]!.results;
    expect(batched.map((x) => x.rank_score)).toEqual(scores);
  });
});
