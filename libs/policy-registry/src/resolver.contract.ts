// SPDX-License-Identifier: AGPL-3.0-or-later
import { appErrorCode, seededRandom } from '@lectern/testing';
import { AppError, type PolicyRevision } from '@lectern/contracts';
import { dayFromNumber, dayNumber } from './dates.js';
import { EffectiveDateResolver, type NoRevisionReason } from './effective-date-resolver.js';
import type { PolicyRegistry } from './policy-registry.port.js';

const prng = seededRandom;

type Status = PolicyRevision['status'];
interface ModelRevision {
  id: string;
  from: number;
  /** Inclusive; Infinity when open-ended. */
  to: number;
  status: Status;
}
const STATUSES: Status[] = ['processing', 'active', 'superseded', 'failed'];
const covers = (r: ModelRevision, d: number): boolean => r.from <= d && d <= r.to;

/**
 * The brute-force model of FR-008's creation rules, day by day: the new revision ends where given, else the day
 * before the next later start, else never; an earlier open-ended revision ends the day before it starts; any
 * day then claimed twice is an overlap.
 */
const modelCreate = (
  model: ModelRevision[],
  add: ModelRevision & { explicitTo: boolean },
): ModelRevision[] | 'overlap' => {
  if (model.some((r) => r.from === add.from)) return 'overlap';
  const laterStarts = model.filter((r) => r.from > add.from).map((r) => r.from);
  const to = add.explicitTo ? add.to : laterStarts.length > 0 ? Math.min(...laterStarts) - 1 : Infinity;
  const after = model.map((r) =>
    r.to === Infinity && r.from < add.from
      ? { ...r, to: add.from - 1, status: r.status === 'active' ? ('superseded' as const) : r.status }
      : r,
  );
  const last = Math.max(add.from, ...after.map((r) => (r.to === Infinity ? r.from : r.to))) + 1;
  for (let d = add.from; d <= Math.min(to, last); d++) if (after.some((r) => covers(r, d))) return 'overlap';
  const all = [...after, { id: add.id, from: add.from, to, status: add.status }];
  return all.map((r) => ({ ...r, status: modelStatus(r, all) }));
};

/** FR-004: an `active` revision that ends while a later one is registered is `superseded`. */
const modelStatus = (r: ModelRevision, all: ModelRevision[]): Status =>
  r.status === 'active' && r.to !== Infinity && all.some((o) => o.from > r.from) ? 'superseded' : r.status;

/** The brute-force answer for one day: every counting revision covering it, and the reason when none does. */
const oracle = (model: ModelRevision[], d: number): { ids: string[]; reason: NoRevisionReason | null } => {
  const counting = model.filter((r) => r.status === 'active' || r.status === 'superseded');
  const ids = counting.filter((r) => covers(r, d)).map((r) => r.id);
  if (ids.length > 0) return { ids, reason: null };
  if (counting.length === 0) return { ids, reason: 'no_revisions' };
  return { ids, reason: counting.every((r) => d < r.from) ? 'date_before_first_revision' : 'date_in_gap' };
};

/** NFR-001's cases and a property test, on a registry the caller's contract opened. */
export const runResolverContract = (getRegistry: () => PolicyRegistry): void => {
  describe('EffectiveDateResolver', () => {
    let registry: PolicyRegistry;
    let resolver: EffectiveDateResolver;
    const at = async (source: string, date: string): Promise<[string | null, string | null]> => {
      const r = await resolver.resolveForPolicy(source, date);
      if (!r) throw new Error(`no policy ${source}`);
      return [r.effective_revision?.revision_id ?? null, r.reason];
    };

    beforeEach(async () => {
      registry = getRegistry();
      resolver = new EffectiveDateResolver(registry);
      await registry.createPolicy({ source: 'LTN_1_20', title: 'LTN 1/20', category: 'national_guidance' });
      await registry.createRevision({
        source: 'LTN_1_20',
        revision_id: 'rev_LTN_1_20_2020_07',
        version_label: 'July 2020',
        effective_from: '2020-07-27',
        status: 'active',
      });
      await registry.createPolicy({ source: 'NPPF', title: 'NPPF', category: 'national_policy' });
      for (const [id, from] of [
        ['rev_NPPF_2021_07', '2021-07-20'],
        ['rev_NPPF_2023_09', '2023-09-05'],
        ['rev_NPPF_2024_12', '2024-12-12'],
      ] as const) {
        await registry.createRevision({
          source: 'NPPF',
          revision_id: id,
          version_label: id,
          effective_from: from,
          status: 'active',
        });
      }
      await registry.createPolicy({
        source: 'CHERWELL_LOCAL_PLAN',
        title: 'Cherwell Local Plan',
        category: 'local_plan',
      });
      await registry.createRevision({
        source: 'CHERWELL_LOCAL_PLAN',
        revision_id: 'rev_2018',
        version_label: '2018',
        effective_from: '2018-01-01',
        effective_to: '2018-12-31',
        status: 'superseded',
      });
      await registry.createRevision({
        source: 'CHERWELL_LOCAL_PLAN',
        revision_id: 'rev_2020',
        version_label: '2020',
        effective_from: '2020-01-01',
        status: 'active',
      });
    });

    it('single revision, a date in range', async () => {
      expect(await at('LTN_1_20', '2024-03-15')).toEqual(['rev_LTN_1_20_2020_07', null]);
    });

    it('several revisions, a middle date', async () => {
      expect(await at('NPPF', '2024-03-15')).toEqual(['rev_NPPF_2023_09', null]);
    });

    it('a date before the first revision', async () => {
      expect(await at('LTN_1_20', '2019-01-01')).toEqual([null, 'date_before_first_revision']);
      expect(await at('NPPF', '2021-07-19')).toEqual([null, 'date_before_first_revision']);
    });

    it('the exact effective_from and effective_to days are both in force', async () => {
      expect(await at('NPPF', '2023-09-05')).toEqual(['rev_NPPF_2023_09', null]);
      expect(await at('NPPF', '2024-12-11')).toEqual(['rev_NPPF_2023_09', null]);
      expect(await at('NPPF', '2024-12-12')).toEqual(['rev_NPPF_2024_12', null]);
      expect(await at('CHERWELL_LOCAL_PLAN', '2018-12-31')).toEqual(['rev_2018', null]);
    });

    it('a date in a gap between revisions', async () => {
      expect(await at('CHERWELL_LOCAL_PLAN', '2019-06-01')).toEqual([null, 'date_in_gap']);
      expect(await at('CHERWELL_LOCAL_PLAN', '2020-01-01')).toEqual(['rev_2020', null]);
    });

    it('a snapshot across policies, and the revision ids a search filters by', async () => {
      const snap = await resolver.resolveSnapshot('2019-06-01');
      expect(snap.effective_date).toBe('2019-06-01');
      expect(snap.policies.map((p) => [p.source, p.effective_revision?.revision_id ?? null, p.reason])).toEqual([
        ['CHERWELL_LOCAL_PLAN', null, 'date_in_gap'],
        ['LTN_1_20', null, 'date_before_first_revision'],
        ['NPPF', null, 'date_before_first_revision'],
      ]);
      expect(snap.policies_not_yet_effective).toEqual(['LTN_1_20', 'NPPF']);
      expect(snap.policies_in_gap).toEqual(['CHERWELL_LOCAL_PLAN']);
      const later = await resolver.resolveSnapshot('2024-03-15');
      expect(later.policies_with_revision).toEqual(['CHERWELL_LOCAL_PLAN', 'LTN_1_20', 'NPPF']);
      expect(await resolver.getRevisionIdsForDate('2024-03-15')).toEqual({
        CHERWELL_LOCAL_PLAN: 'rev_2020',
        LTN_1_20: 'rev_LTN_1_20_2020_07',
        NPPF: 'rev_NPPF_2023_09',
      });
      expect(await resolver.getRevisionIdsForDate('2020-01-01', ['NPPF', 'CHERWELL_LOCAL_PLAN', 'UNKNOWN'])).toEqual({
        NPPF: null,
        CHERWELL_LOCAL_PLAN: 'rev_2020',
      });
    });

    it('counts only active and superseded revisions', async () => {
      await registry.createRevision({
        source: 'NPPF',
        revision_id: 'rev_NPPF_2026',
        version_label: 'draft',
        effective_from: '2026-01-01',
      });
      expect(await at('NPPF', '2026-06-01')).toEqual([null, 'date_in_gap']);
      await registry.createPolicy({ source: 'DRAFT', title: 'Draft', category: 'local_guidance' });
      await registry.createRevision({
        source: 'DRAFT',
        revision_id: 'r',
        version_label: 'r',
        effective_from: '2020-01-01',
        status: 'failed',
      });
      expect(await at('DRAFT', '2024-01-01')).toEqual([null, 'no_revisions']);
      expect(await resolver.resolveForPolicy('UNKNOWN', '2024-01-01')).toBeNull();
    });

    it('answers invalid_date for a date that is not a calendar day', async () => {
      for (const date of ['2024-02-30', '2024-13-01', '15/03/2024', '2024-3-5', '', 'today']) {
        expect(await appErrorCode(resolver.resolveForPolicy('NPPF', date))).toBe('invalid_date');
        expect(await appErrorCode(resolver.resolveSnapshot(date))).toBe('invalid_date');
        expect(await appErrorCode(resolver.getRevisionIdsForDate(date, ['NPPF']))).toBe('invalid_date');
      }
    });

    it('agrees with a brute-force oracle on random revision sets (seeded)', async () => {
      const CASES = 24;
      const lo = dayNumber('2015-01-01');
      for (let seed = 1; seed <= CASES; seed++) {
        const rnd = prng(seed);
        const source = `PROP_${seed}`;
        await registry.createPolicy({ source, title: source, category: 'local_plan' });
        let model: ModelRevision[] = [];
        const count = 1 + rnd(7);
        for (let i = 0; i < count; i++) {
          const from = lo + rnd(16 * 365);
          const explicitTo = rnd(10) < 3;
          const add = {
            id: `r${i}`,
            from,
            to: explicitTo ? from + rnd(900) : Infinity,
            status: STATUSES[rnd(4)] as Status,
            explicitTo,
          };
          const expected = modelCreate(model, add);
          const outcome = await registry
            .createRevision({
              source,
              revision_id: add.id,
              version_label: add.id,
              effective_from: dayFromNumber(from),
              effective_to: explicitTo ? dayFromNumber(add.to) : null,
              status: add.status,
            })
            .then(
              () => 'created',
              (e: unknown) => (e instanceof AppError ? e.code : 'thrown'),
            );
          expect([seed, add.id, outcome]).toEqual([
            seed,
            add.id,
            expected === 'overlap' ? 'revision_overlap' : 'created',
          ]);
          if (expected !== 'overlap') model = expected;
        }
        for (const r of model) {
          if (rnd(4) !== 0) continue;
          r.status = STATUSES[rnd(4)] as Status;
          await registry.updateRevision(source, r.id, { status: r.status });
          r.status = modelStatus(r, model);
        }
        const stored = (await registry.listRevisions(source)).map((r) => [
          r.revision_id,
          r.effective_from,
          r.effective_to,
          r.status,
        ]);
        const modelled = [...model]
          .sort((a, b) => b.from - a.from)
          .map((r) => [r.id, dayFromNumber(r.from), r.to === Infinity ? null : dayFromNumber(r.to), r.status]);
        expect([seed, stored]).toEqual([seed, modelled]);

        const edges = model.flatMap((r) => [
          r.from - 1,
          r.from,
          r.from + 1,
          ...(r.to === Infinity ? [] : [r.to - 1, r.to, r.to + 1]),
        ]);
        const days = [...new Set([lo - 30, ...edges, ...Array.from({ length: 8 }, () => lo - 10 + rnd(18 * 365))])];
        for (const d of days) {
          const date = dayFromNumber(d);
          const want = oracle(model, d);
          expect(want.ids.length).toBeLessThanOrEqual(1);
          const got = await resolver.resolveForPolicy(source, date);
          const direct = await registry.getEffectiveRevision(source, date);
          expect([
            seed,
            date,
            got?.effective_revision?.revision_id ?? null,
            got?.reason ?? null,
            direct?.revision_id ?? null,
          ]).toEqual([seed, date, want.ids[0] ?? null, want.reason, want.ids[0] ?? null]);
        }
      }
    });
  });
};
