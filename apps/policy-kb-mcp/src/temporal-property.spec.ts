// SPDX-License-Identifier: AGPL-3.0-or-later
import { isAppError } from '@lectern/contracts';
import { createPolicyRevision, ingestPolicyRevision, searchPolicy } from '@lectern/policy-kb';
import { EffectiveDateResolver, addDays, dateInt } from '@lectern/policy-registry';
import { fixtureFile, makePolicyPdf, seededRandom, testModelEnv } from '@lectern/testing';
import { startPolicyKb, type RunningPolicyKb } from './policy-kb.testkit.js';

/*
 * NFR-001 as a property: for random sets of revisions (created in random order: auto-supersession, historical
 * insertion, explicit ends, refused overlaps), on random dates and on every revision boundary, the resolver,
 * search_policy and a direct store query by the chunks' integer dates name the same revision — or none.
 * A seeded generator (no property-testing library is installed): the same seed, the same cases.
 */
let kb: RunningPolicyKb;
const file = fixtureFile('property-policy.pdf', makePolicyPdf('property', 1, 2));
const TRIALS = 12;

beforeAll(async () => {
  kb = await startPolicyKb(testModelEnv());
}, 120_000);
afterAll(async () => {
  await kb?.stop();
});

const BASE = '2018-01-01';

it(`resolver, search and store agree for ${TRIALS} random revision sets`, async () => {
  const rnd = seededRandom(20241212);
  const resolver = new EffectiveDateResolver(kb.deps.registry);
  let checkedDates = 0;
  let refused = 0;
  for (let t = 0; t < TRIALS; t++) {
    const source = `PROP_${t}`;
    await kb.deps.registry.createPolicy({ source, title: `Property ${t}`, category: 'local_guidance' });
    const count = 2 + rnd(3);
    for (let i = 0; i < count; i++) {
      const from = addDays(BASE, rnd(2000));
      const bounded = rnd(3) === 0;
      const input = {
        source,
        revision_id: `rev_${t}_${i}`,
        version_label: `v${i}`,
        effective_from: from,
        ...(bounded ? { effective_to: addDays(from, rnd(400)) } : {}),
      };
      try {
        await createPolicyRevision(kb.deps, input);
      } catch (e) {
        if (!isAppError(e) || !['revision_overlap', 'invalid_arguments'].includes(e.code)) throw e;
        refused += 1;
        continue;
      }
      await ingestPolicyRevision(kb.deps, { source, revision_id: input.revision_id, file_path: file });
    }
    const revisions = await kb.deps.registry.listRevisions(source);
    const boundaries = revisions.flatMap((r) => [
      r.effective_from,
      addDays(r.effective_from, -1),
      ...(r.effective_to ? [r.effective_to, addDays(r.effective_to, 1)] : []),
    ]);
    const dates = [...boundaries, ...Array.from({ length: 6 }, () => addDays(BASE, rnd(2600) - 100))];
    for (const date of dates) {
      const expected = (await resolver.resolveForPolicy(source, date))?.effective_revision?.revision_id ?? null;
      const found = await searchPolicy(kb.deps, {
        query: 'property proposals',
        sources: [source],
        effective_date: date,
        n_results: 50,
      });
      const searched = [...new Set(found.results.map((r) => r.revision_id))];
      const d = dateInt(date);
      const page = await kb.deps.store.scroll(kb.deps.collection, {
        filter: { $and: [{ source }, { effective_from: { $lte: d } }, { effective_to: { $gte: d } }] },
        limit: 1000,
      });
      const stored = [...new Set(page.points.map((p) => String(p.payload['revision_id'])))];
      const want = expected === null ? [] : [expected];
      expect({ source, date, searched }).toEqual({ source, date, searched: want });
      expect({ source, date, stored }).toEqual({ source, date, stored: want });
      checkedDates += 1;
    }
  }
  // The generator exercised what it should: many dates, and some refused overlaps.
  expect(checkedDates).toBeGreaterThan(TRIALS * 8);
  expect(refused).toBeGreaterThan(0);
}, 300_000);
