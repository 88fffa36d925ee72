// SPDX-License-Identifier: AGPL-3.0-or-later
import { appErrorCode } from '@lectern/testing';
import type { AppError } from '@lectern/contracts';
import type { CreateRevisionInput, PolicyRegistry } from './policy-registry.port.js';
import { runResolverContract } from './resolver.contract.js';

/** One backing store (a Redis key prefix, a SQLite file) that several registries may open; removed by `cleanup`. */
export interface RegistryFixture {
  open(): Promise<PolicyRegistry>;
  cleanup(): Promise<void>;
}

/**
 * The behaviour every PolicyRegistry adapter must show (spec 001 FR-007/FR-008). `makeFixture` gives each test
 * a fresh, empty store; the suite opens registries on it and closes them.
 */
export const runPolicyRegistryContract = (makeFixture: () => Promise<RegistryFixture>): void => {
  let fixture: RegistryFixture;
  let opened: PolicyRegistry[] = [];
  let registry: PolicyRegistry;
  const open = async (): Promise<PolicyRegistry> => {
    const r = await fixture.open();
    opened.push(r);
    return r;
  };
  const rev = (
    source: string,
    revision_id: string,
    effective_from: string,
    extra: Partial<CreateRevisionInput> = {},
  ): CreateRevisionInput => ({
    source,
    revision_id,
    version_label: revision_id,
    effective_from,
    ...extra,
  });
  const ranges = async (source: string, r = registry): Promise<string[]> =>
    (await r.listRevisions(source)).map(
      (x) => `${x.revision_id} ${x.effective_from}..${x.effective_to ?? 'open'} ${x.status}`,
    );

  beforeEach(async () => {
    fixture = await makeFixture();
    opened = [];
    registry = await open();
  });
  afterEach(async () => {
    for (const r of opened) await r.close();
    await fixture.cleanup();
  });

  describe('policies', () => {
    it('starts empty, then creates, gets and lists policies by source', async () => {
      expect(await registry.listPolicies()).toEqual([]);
      const nppf = await registry.createPolicy({
        source: 'NPPF',
        title: 'National Planning Policy Framework',
        category: 'national_policy',
      });
      expect(nppf).toMatchObject({ source: 'NPPF', description: null, category: 'national_policy' });
      expect(nppf.created_at).toBe(nppf.updated_at);
      await registry.createPolicy({
        source: 'LTN_1_20',
        title: 'LTN 1/20',
        description: 'Cycle design',
        category: 'national_guidance',
      });
      expect(await registry.getPolicy('NPPF')).toEqual(nppf);
      expect(await registry.getPolicy('UNKNOWN')).toBeNull();
      expect((await registry.listPolicies()).map((p) => [p.source, p.description])).toEqual([
        ['LTN_1_20', 'Cycle design'],
        ['NPPF', null],
      ]);
    });

    it('refuses a duplicate source and keeps the first', async () => {
      await registry.createPolicy({ source: 'NPPF', title: 'First', category: 'national_policy' });
      expect(
        await appErrorCode(registry.createPolicy({ source: 'NPPF', title: 'Second', category: 'local_plan' })),
      ).toBe('policy_already_exists');
      expect((await registry.getPolicy('NPPF'))?.title).toBe('First');
      expect(await registry.listPolicies()).toHaveLength(1);
    });

    it('checks the slug pattern and the category enum', async () => {
      for (const source of ['nppf', 'NPPF-2', '_NPPF', 'NPPF__X', 'A:B', '']) {
        expect(await appErrorCode(registry.createPolicy({ source, title: 't', category: 'local_plan' }))).toBe(
          'invalid_arguments',
        );
      }
      const bad = { source: 'OK', title: 't', category: 'planet_policy' } as unknown as Parameters<
        PolicyRegistry['createPolicy']
      >[0];
      expect(await appErrorCode(registry.createPolicy(bad))).toBe('invalid_arguments');
      expect(await registry.listPolicies()).toEqual([]);
    });

    it('keeps what it stored when opened again', async () => {
      await registry.createPolicy({ source: 'NPPF', title: 'NPPF', category: 'national_policy' });
      await registry.createRevision(rev('NPPF', 'rev_NPPF_2023_09', '2023-09-05', { status: 'active' }));
      await registry.close();
      opened = opened.filter((r) => r !== registry);
      const again = await open();
      expect((await again.listPolicies()).map((p) => p.source)).toEqual(['NPPF']);
      expect(await ranges('NPPF', again)).toEqual(['rev_NPPF_2023_09 2023-09-05..open active']);
    });
  });

  describe('revisions', () => {
    beforeEach(async () => {
      await registry.createPolicy({ source: 'NPPF', title: 'NPPF', category: 'national_policy' });
    });

    it('creates a revision as processing, open-ended, with no chunks yet', async () => {
      const { revision, superseded } = await registry.createRevision(
        rev('NPPF', 'rev_NPPF_2023_09', '2023-09-05', {
          version_label: 'September 2023',
          file_path: '/data/nppf.pdf',
          file_size_bytes: 1234,
          notes: 'seed',
        }),
      );
      expect(superseded).toBeNull();
      expect(revision).toMatchObject({
        revision_id: 'rev_NPPF_2023_09',
        source: 'NPPF',
        version_label: 'September 2023',
        effective_from: '2023-09-05',
        effective_to: null,
        status: 'processing',
        file_path: '/data/nppf.pdf',
        file_size_bytes: 1234,
        page_count: null,
        chunk_count: 0,
        notes: 'seed',
        ingested_at: null,
        error: null,
      });
      expect(await registry.getRevision('NPPF', 'rev_NPPF_2023_09')).toEqual(revision);
      expect(await registry.getRevision('NPPF', 'rev_missing')).toBeNull();
    });

    it('auto-supersedes the open-ended revision: effective_to = new effective_from - 1 day, status superseded', async () => {
      await registry.createRevision(rev('NPPF', 'rev_NPPF_2023_09', '2023-09-05', { status: 'active' }));
      const { revision, superseded } = await registry.createRevision(
        rev('NPPF', 'rev_NPPF_2024_12', '2024-12-12', { status: 'active' }),
      );
      expect(superseded).toMatchObject({
        revision_id: 'rev_NPPF_2023_09',
        effective_to: '2024-12-11',
        status: 'superseded',
      });
      expect(revision.effective_to).toBeNull();
      expect(await ranges('NPPF')).toEqual([
        'rev_NPPF_2024_12 2024-12-12..open active',
        'rev_NPPF_2023_09 2023-09-05..2024-12-11 superseded',
      ]);
      // Across a month and a leap day.
      await registry.createRevision(rev('NPPF', 'rev_NPPF_2028_03', '2028-03-01'));
      expect((await registry.getRevision('NPPF', 'rev_NPPF_2024_12'))?.effective_to).toBe('2028-02-29');
    });

    it('closes an open-ended revision that is still processing without calling it superseded', async () => {
      await registry.createRevision(rev('NPPF', 'rev_a', '2023-01-01'));
      const { superseded } = await registry.createRevision(rev('NPPF', 'rev_b', '2024-01-01'));
      expect(superseded).toMatchObject({ revision_id: 'rev_a', effective_to: '2023-12-31', status: 'processing' });
    });

    it('inserts an older revision before or between existing ones, ending the day before the next starts', async () => {
      await registry.createRevision(rev('NPPF', 'rev_2020', '2020-07-27', { status: 'active' }));
      const before = await registry.createRevision(rev('NPPF', 'rev_2012', '2012-03-27', { status: 'superseded' }));
      expect(before.revision.effective_to).toBe('2020-07-26');
      expect(before.superseded).toBeNull();
      await registry.createRevision(rev('NPPF', 'rev_2024', '2024-12-12', { status: 'active' }));
      // Between: 2020's revision now ends 2024-12-11, so an explicit end before that start leaves a gap.
      const explicit = await registry.createRevision(
        rev('NPPF', 'rev_2010', '2010-01-01', { effective_to: '2010-12-31' }),
      );
      expect(explicit.revision.effective_to).toBe('2010-12-31');
      expect(await ranges('NPPF')).toEqual([
        'rev_2024 2024-12-12..open active',
        'rev_2020 2020-07-27..2024-12-11 superseded',
        'rev_2012 2012-03-27..2020-07-26 superseded',
        'rev_2010 2010-01-01..2010-12-31 processing',
      ]);
      await registry.createRevision(rev('NPPF', 'rev_2011', '2011-01-01'));
      expect((await registry.getRevision('NPPF', 'rev_2011'))?.effective_to).toBe('2012-03-26');
    });

    it('refuses true overlaps with revision_overlap and changes nothing', async () => {
      await registry.createRevision(
        rev('NPPF', 'rev_2018', '2018-01-01', { effective_to: '2019-12-31', status: 'superseded' }),
      );
      await registry.createRevision(rev('NPPF', 'rev_2022', '2022-01-01', { status: 'active' }));
      const before = await ranges('NPPF');
      const overlapping: CreateRevisionInput[] = [
        rev('NPPF', 'x1', '2019-06-01'), // inside a bounded revision
        rev('NPPF', 'x2', '2017-01-01', { effective_to: '2018-01-01' }), // ends on a bounded revision's first day
        rev('NPPF', 'x3', '2022-01-01'), // the same effective_from as an existing revision
        rev('NPPF', 'x4', '2020-01-01', { effective_to: '2022-06-30' }), // runs into the open-ended one
        rev('NPPF', 'x5', '2016-01-01', { effective_to: '2030-01-01' }), // spans everything
        rev('NPPF', 'x6', '2019-12-31'), // starts on a bounded revision's last day
      ];
      for (const input of overlapping) {
        expect([input.revision_id, await appErrorCode(registry.createRevision(input))]).toEqual([
          input.revision_id,
          'revision_overlap',
        ]);
      }
      expect(await ranges('NPPF')).toEqual(before);
      // The gap itself is free.
      const gap = await registry.createRevision(rev('NPPF', 'rev_gap', '2020-01-01'));
      expect(gap.revision.effective_to).toBe('2021-12-31');
    });

    it('answers the typed errors: unknown policy, duplicate id, bad dates, bad status', async () => {
      expect(await appErrorCode(registry.createRevision(rev('NOPE', 'r', '2020-01-01')))).toBe('policy_not_found');
      expect(await appErrorCode(registry.listRevisions('NOPE'))).toBe('policy_not_found');
      await registry.createRevision(rev('NPPF', 'r1', '2020-01-01'));
      expect(await appErrorCode(registry.createRevision(rev('NPPF', 'r1', '2025-01-01')))).toBe(
        'revision_already_exists',
      );
      for (const effective_from of ['2023-02-29', '2023-13-01', '23-01-01', 'yesterday', '']) {
        expect(await appErrorCode(registry.createRevision(rev('NPPF', 'r2', effective_from)))).toBe('invalid_date');
      }
      expect(
        await appErrorCode(registry.createRevision(rev('NPPF', 'r2', '2024-01-10', { effective_to: '2024-01-09' }))),
      ).toBe('invalid_date');
      expect(
        await appErrorCode(registry.createRevision(rev('NPPF', 'r2', '2024-01-10', { status: 'done' as never }))),
      ).toBe('invalid_arguments');
      expect(await registry.listRevisions('NPPF')).toHaveLength(1);
    });

    it('updates lifecycle and ingest metadata, and clears a field with null', async () => {
      await registry.createRevision(rev('NPPF', 'r1', '2020-01-01'));
      const failed = await registry.updateRevision('NPPF', 'r1', { status: 'failed', error: 'no text extracted' });
      expect(failed).toMatchObject({ status: 'failed', error: 'no text extracted', effective_from: '2020-01-01' });
      const done = await registry.updateRevision('NPPF', 'r1', {
        status: 'active',
        error: null,
        chunk_count: 73,
        page_count: 76,
        ingested_at: '2025-01-02T03:04:05.000Z',
      });
      expect(done).toMatchObject({
        status: 'active',
        error: null,
        chunk_count: 73,
        page_count: 76,
        ingested_at: '2025-01-02T03:04:05.000Z',
        version_label: 'r1',
      });
      expect(await registry.getRevision('NPPF', 'r1')).toEqual(done);
      expect(await appErrorCode(registry.updateRevision('NPPF', 'missing', { status: 'active' }))).toBe(
        'revision_not_found',
      );
      expect(await appErrorCode(registry.updateRevision('NPPF', 'r1', { effective_from: '2021-01-01' } as never))).toBe(
        'invalid_arguments',
      );
      expect(await appErrorCode(registry.updateRevision('NPPF', 'r1', { chunk_count: -1 }))).toBe('invalid_arguments');
      expect(await registry.getRevision('NPPF', 'r1')).toEqual(done);
    });

    it('deletes the sole active revision only with force', async () => {
      await registry.createRevision(rev('NPPF', 'r2023', '2023-09-05', { status: 'active' }));
      await registry.createRevision(rev('NPPF', 'r2024', '2024-12-12', { status: 'active' }));
      expect(await appErrorCode(registry.deleteRevision('NPPF', 'r2024'))).toBe('cannot_delete_sole_revision');
      expect(await registry.listRevisions('NPPF')).toHaveLength(2);
      const gone = await registry.deleteRevision('NPPF', 'r2023');
      expect(gone.revision_id).toBe('r2023');
      expect(await registry.getRevision('NPPF', 'r2023')).toBeNull();
      expect((await registry.deleteRevision('NPPF', 'r2024', { force: true })).status).toBe('active');
      expect(await registry.listRevisions('NPPF')).toEqual([]);
      expect(await appErrorCode(registry.deleteRevision('NPPF', 'r2024', { force: true }))).toBe('revision_not_found');
      // With the entries gone, their dates are free again.
      await registry.createRevision(rev('NPPF', 'r2023', '2023-09-05'));
    });

    it('finds the effective revision for a date: both bounds inclusive, processing and failed skipped', async () => {
      await registry.createRevision(rev('NPPF', 'r2023', '2023-09-05', { status: 'active' }));
      await registry.createRevision(rev('NPPF', 'r2024', '2024-12-12', { status: 'active' }));
      await registry.createRevision(rev('NPPF', 'r2026', '2026-01-01'));
      const at = async (d: string): Promise<string | null> =>
        (await registry.getEffectiveRevision('NPPF', d))?.revision_id ?? null;
      expect(await at('2023-09-04')).toBeNull();
      expect(await at('2023-09-05')).toBe('r2023');
      expect(await at('2024-12-11')).toBe('r2023');
      expect(await at('2024-12-12')).toBe('r2024');
      expect(await at('2025-12-31')).toBe('r2024');
      expect(await at('2026-01-01')).toBeNull(); // processing
      await registry.updateRevision('NPPF', 'r2026', { status: 'failed' });
      expect(await at('2030-01-01')).toBeNull();
      await registry.updateRevision('NPPF', 'r2026', { status: 'active' });
      expect(await at('2030-01-01')).toBe('r2026');
      expect(await appErrorCode(registry.getEffectiveRevision('NPPF', '2024-02-30'))).toBe('invalid_date');
    });

    describe('policy-kb-api:FR-004 superseded status', () => {
      it('an ingest finishing after a later revision closed this one stores superseded, not active', async () => {
        // Both registered (processing) before either is ingested: the first is closed while still processing.
        await registry.createRevision(rev('NPPF', 'rev_NPPF_2024_12', '2024-12-12'));
        const { superseded } = await registry.createRevision(rev('NPPF', 'rev_NPPF_2026_03', '2026-03-01'));
        expect(superseded).toMatchObject({ effective_to: '2026-02-28', status: 'processing' });
        // Its ingest ends (the later one still processing): the registry settles `active` into `superseded`.
        const done = await registry.updateRevision('NPPF', 'rev_NPPF_2024_12', { status: 'active', chunk_count: 5 });
        expect(done).toMatchObject({ status: 'superseded', effective_to: '2026-02-28', chunk_count: 5 });
        await registry.updateRevision('NPPF', 'rev_NPPF_2026_03', { status: 'active' });
        expect(await ranges('NPPF')).toEqual([
          'rev_NPPF_2026_03 2026-03-01..open active',
          'rev_NPPF_2024_12 2024-12-12..2026-02-28 superseded',
        ]);
        // A reindex (processing, then active again) does not bring it back either.
        await registry.updateRevision('NPPF', 'rev_NPPF_2024_12', { status: 'processing' });
        expect((await registry.updateRevision('NPPF', 'rev_NPPF_2024_12', { status: 'active' })).status).toBe(
          'superseded',
        );
        // The revision in force keeps `active`; `failed` stays what it is.
        expect((await registry.updateRevision('NPPF', 'rev_NPPF_2026_03', { status: 'active' })).status).toBe('active');
        expect((await registry.updateRevision('NPPF', 'rev_NPPF_2024_12', { status: 'failed' })).status).toBe('failed');
      });

      it('a historical insertion between two revisions, and a bounded revision a later one follows, are superseded', async () => {
        await registry.createRevision(
          rev('NPPF', 'rev_2018', '2018-01-01', { effective_to: '2019-12-31', status: 'active' }),
        );
        expect((await registry.getRevision('NPPF', 'rev_2018'))?.status).toBe('active'); // nothing follows it yet
        await registry.createRevision(rev('NPPF', 'rev_2024', '2024-01-01', { status: 'active' }));
        const between = await registry.createRevision(rev('NPPF', 'rev_2021', '2021-01-01', { status: 'active' }));
        expect(between.revision).toMatchObject({ effective_to: '2023-12-31', status: 'superseded' });
        expect(between.superseded).toBeNull();
        expect(await ranges('NPPF')).toEqual([
          'rev_2024 2024-01-01..open active',
          'rev_2021 2021-01-01..2023-12-31 superseded',
          'rev_2018 2018-01-01..2019-12-31 superseded',
        ]);
        expect(await registry.getEffectiveRevision('NPPF', '2022-06-01')).toMatchObject({ revision_id: 'rev_2021' });
      });

      it('deleting the later revision changes nothing else: the earlier one stays superseded with its effective_to', async () => {
        await registry.createRevision(rev('NPPF', 'rev_2024', '2024-12-12', { status: 'active' }));
        await registry.createRevision(rev('NPPF', 'rev_2026', '2026-03-01', { status: 'active' }));
        // FR-008: the sole active revision is deleted only with force; no reopening is specified, none is done.
        expect(await appErrorCode(registry.deleteRevision('NPPF', 'rev_2026'))).toBe('cannot_delete_sole_revision');
        await registry.deleteRevision('NPPF', 'rev_2026', { force: true });
        expect(await ranges('NPPF')).toEqual(['rev_2024 2024-12-12..2026-02-28 superseded']);
        // Its dates are free again for a new revision, which leaves the earlier one as it is.
        await registry.createRevision(rev('NPPF', 'rev_2026_b', '2026-03-01', { status: 'active' }));
        expect(await ranges('NPPF')).toEqual([
          'rev_2026_b 2026-03-01..open active',
          'rev_2024 2024-12-12..2026-02-28 superseded',
        ]);
      });
    });

    it('keeps the timeline consistent under concurrent creations from two registries', async () => {
      const other = await open();
      const via = (i: number): PolicyRegistry => (i % 2 === 0 ? registry : other);
      // The same start from everywhere at once: exactly one wins, the rest overlap it.
      const same = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => via(i).createRevision(rev('NPPF', `same_${i}`, '2030-01-01'))),
      );
      expect(same.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
      for (const s of same) if (s.status === 'rejected') expect((s.reason as AppError).code).toBe('revision_overlap');
      // Open-ended revisions of many years in any order: whichever succeed, no two share a day and only the last is open.
      const years = [2014, 2011, 2019, 2012, 2017, 2010, 2020, 2015, 2013, 2018, 2016, 2021];
      const results = await Promise.allSettled(
        years.map((y, i) => via(i).createRevision(rev('NPPF', `rev_${y}`, `${y}-04-01`, { status: 'active' }))),
      );
      for (const s of results)
        if (s.status === 'rejected') expect((s.reason as AppError).code).toBe('revision_overlap');
      const all = await registry.listRevisions('NPPF');
      expect(all).toHaveLength(1 + results.filter((s) => s.status === 'fulfilled').length);
      expect(all.filter((r) => r.effective_to === null).map((r) => r.revision_id)).toEqual([all[0]?.revision_id]);
      for (const [i, a] of all.entries()) {
        for (const b of all.slice(i + 1))
          expect(b.effective_to !== null && b.effective_to < a.effective_from).toBe(true);
      }
    });
  });

  runResolverContract(() => registry);
};
