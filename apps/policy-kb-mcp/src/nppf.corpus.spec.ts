// SPDX-License-Identifier: AGPL-3.0-or-later
import { createPolicyRevision } from '@lectern/policy-kb';
import { EffectiveDateResolver, dateInt } from '@lectern/policy-registry';
import { corpusFile, fixtureFile, makePolicyPdf } from '@lectern/testing';
import { startPolicyKb, type RunningPolicyKb } from './policy-kb.testkit.js';

/*
 * A real document: the NPPF of December 2024 (82 pages) as the revision effective 2024-12-12, and a later
 * revision of the same policy (a generated fixture, effective 2026-03-01) that supersedes it. Tools through a
 * real MCP client over Streamable HTTP.
 */
const NPPF_2024 = corpusFile('uk-planning-policy', 'nppf-2024', 'NPPF_December_2024.pdf');
const NEXT = fixtureFile('nppf-next-revision.pdf', makePolicyPdf('renewal', 4, 4));
const R2024 = 'rev_NPPF_2024_12';
const R2026 = 'rev_NPPF_2026_03';
let kb: RunningPolicyKb;

const revisionsOf = (results: unknown): string[] =>
  [...new Set((results as { revision_id: string }[]).map((r) => r.revision_id))].sort();

beforeAll(async () => {
  kb = await startPolicyKb();
  // "Today" for get_policy_section's default revision: inside the 2024 revision's range.
  kb.deps.now = () => new Date('2025-06-01T12:00:00Z');
  await kb.deps.registry.createPolicy({
    source: 'NPPF',
    title: 'National Planning Policy Framework',
    category: 'national_policy',
  });
  await createPolicyRevision(kb.deps, {
    source: 'NPPF',
    revision_id: R2024,
    version_label: 'December 2024',
    effective_from: '2024-12-12',
  });
  const first = await kb.call('ingest_policy_revision', { source: 'NPPF', revision_id: R2024, file_path: NPPF_2024 });
  expect(first.body).toMatchObject({ status: 'success', page_count: 82, extraction_method: 'text_layer' });
  await createPolicyRevision(kb.deps, {
    source: 'NPPF',
    revision_id: R2026,
    version_label: 'March 2026',
    effective_from: '2026-03-01',
  });
  expect(
    (await kb.call('ingest_policy_revision', { source: 'NPPF', revision_id: R2026, file_path: NEXT })).body,
  ).toMatchObject({ status: 'success' });
}, 600_000);
afterAll(async () => {
  await kb?.stop();
});

it('searches only the revision in force on a date in each range', async () => {
  for (const [date, want] of [
    ['2025-06-01', R2024],
    ['2026-02-28', R2024],
    ['2026-03-01', R2026],
    ['2027-01-01', R2026],
  ] as const) {
    const r = await kb.call('search_policy', {
      query: 'presumption in favour of sustainable development',
      effective_date: date,
      n_results: 20,
    });
    expect(r.body['results_count']).toBeGreaterThan(0);
    expect({ date, revisions: revisionsOf(r.body['results']) }).toEqual({ date, revisions: [want] });
  }
  const before = await kb.call('search_policy', { query: 'green belt', effective_date: '2024-12-11' });
  expect(before.body).toMatchObject({ results_count: 0, results: [] });
  const hit = (
    await kb.call('search_policy', {
      query: 'Green Belt boundaries exceptional circumstances',
      effective_date: '2025-06-01',
      n_results: 5,
    })
  ).body;
  expect(String((hit['results'] as { text: string }[])[0]?.text)).toMatch(/Green Belt/);
});

it('after the second revision superseded the first, a store query by date agrees with the registry', async () => {
  const revisions = (await kb.call('list_policy_revisions', { source: 'NPPF' })).body;
  expect(revisions).toMatchObject({
    revision_count: 2,
    revisions: [
      { revision_id: R2026, effective_to: null, status: 'active' },
      { revision_id: R2024, effective_to: '2026-02-28', status: 'superseded' },
    ],
  });
  const resolver = new EffectiveDateResolver(kb.deps.registry);
  for (const date of ['2024-12-12', '2026-02-28', '2026-03-01']) {
    const d = dateInt(date);
    const inForce = await kb.deps.store.scroll(kb.deps.collection, {
      filter: { $and: [{ source: 'NPPF' }, { effective_from: { $lte: d } }, { effective_to: { $gte: d } }] },
      limit: 1000,
    });
    const expected = (await resolver.resolveForPolicy('NPPF', date))?.effective_revision?.revision_id;
    expect({ date, stored: [...new Set(inForce.points.map((p) => p.payload['revision_id']))] }).toEqual({
      date,
      stored: [expected],
    });
  }
  const registry = await kb.deps.registry.getRevision('NPPF', R2024);
  expect(await kb.deps.store.count(kb.deps.collection, { source: 'NPPF', revision_id: R2024 })).toBe(
    registry?.chunk_count,
  );
});

it('get_policy_section("NPPF", "Para 11") returns that paragraph and its page', async () => {
  const r = await kb.call('get_policy_section', { source: 'NPPF', section_ref: 'Para 11' });
  expect(r.body).toMatchObject({
    status: 'success',
    source: 'NPPF',
    section_ref: 'Para 11',
    revision_id: R2024,
    version_label: 'December 2024',
    page_numbers: [6],
  });
  const text = String(r.body['text']);
  expect(text).toMatch(/^11\. Plans and decisions should apply a presumption in favour of sustainable development\./);
  expect(text).toContain('For decision-taking this means');
  expect(text).not.toContain('12. The presumption in favour of sustainable development does not change');
  const chapter = await kb.call('get_policy_section', { source: 'NPPF', section_ref: 'Chapter 13' });
  expect(String(chapter.body['text'])).toContain('Protecting Green Belt land');
  const annex = await kb.call('get_policy_section', { source: 'NPPF', section_ref: 'Annex 2' });
  expect(String(annex.body['text'])).toContain('Glossary');
  const later = await kb.call('get_policy_section', { source: 'NPPF', section_ref: 'Para 11', revision_id: R2026 });
  expect(String(later.body['text'])).toContain('renewal');
});
