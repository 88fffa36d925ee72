// SPDX-License-Identifier: AGPL-3.0-or-later
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { policyCollection } from '@lectern/documents';
import { ingestDocument } from '@lectern/document-store';
import { createPlatform } from '@lectern/platform';
import { removePolicyRevision } from '@lectern/policy-kb';
import { makePolicyPdf, numberedPdfFile, repoRoot, silentLogger, testModelEnv } from '@lectern/testing';
import { openDocumentStore } from './cli.testkit.js';

/*
 * `lectern policy seed|check` and `lectern docstore check --repair` through the real binary
 * (apps/cli/bin/lectern.cjs, a child process), on a temporary DATA_DIR with generated PDFs.
 */
const bin = join(repoRoot(), 'apps', 'cli', 'bin', 'lectern.cjs');
const run = (argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((done) => {
    execFile(
      process.execPath,
      [bin, ...argv],
      { env: { ...process.env, ...env }, timeout: 300_000 },
      (error, stdout, stderr) =>
        done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
const json = (s: string): Record<string, unknown> => JSON.parse(s) as Record<string, unknown>;

describe('lectern policy (real binary)', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let seedDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lectern-cli-policy-'));
    seedDir = join(dataDir, 'seed');
    mkdirSync(join(seedDir, 'nppf'), { recursive: true });
    writeFileSync(join(seedDir, 'nppf', 'NPPF_December_2024.pdf'), makePolicyPdf('framework'));
    writeFileSync(join(seedDir, 'LTN-1-20 cycle design.pdf'), makePolicyPdf('cycling'));
    writeFileSync(join(seedDir, 'unrelated.pdf'), makePolicyPdf('unrelated'));
    env = { ...testModelEnv(), DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('seeds the six policies and ingests the PDFs present; a second run changes nothing', async () => {
    const first = await run(['policy', 'seed', '--dir', seedDir, '--json'], env);
    expect(first).toMatchObject({ code: 0 });
    const report = json(first.stdout);
    expect((report['policies_created'] as string[]).sort()).toEqual([
      'BICESTER_LCWIP',
      'CHERWELL_LOCAL_PLAN',
      'LTN_1_20',
      'MANUAL_FOR_STREETS',
      'NPPF',
      'OCC_LTCP',
    ]);
    const outcomes = Object.fromEntries(
      (report['revisions'] as { revision_id: string; outcome: string }[]).map((r) => [r.revision_id, r.outcome]),
    );
    expect(outcomes).toEqual({
      rev_LTN_1_20_2020_07: 'ingested',
      rev_NPPF_2023_09: 'no_file',
      rev_NPPF_2024_12: 'ingested',
      rev_MANUAL_FOR_STREETS_2007_03: 'no_file',
      rev_CHERWELL_LOCAL_PLAN_2015_07: 'no_file',
      rev_OCC_LTCP_2022_07: 'no_file',
      rev_BICESTER_LCWIP_2020_11: 'no_file',
    });
    expect(first.stderr).toContain('ingesting NPPF rev_NPPF_2024_12');
    const second = await run(['policy', 'seed', '--dir', seedDir], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('0 policies registered');
    expect(second.stdout).toMatch(/NPPF rev_NPPF_2024_12: already_ingested \(\d+ chunks\)/);
  }, 300_000);

  it('check is clean after seeding; it finds orphans and a wrong chunk_count, and --repair really repairs', async () => {
    const clean = await run(['policy', 'check', '--json'], env);
    expect(clean.code).toBe(0);
    expect(json(clean.stdout)).toMatchObject({ consistent: true, policies: 6, revisions: 2, orphan_chunks: 0 });

    // Break it: chunks of a revision the registry does not know, and a revision claiming more chunks than stored.
    const platform = createPlatform({ dataDir, log: silentLogger() });
    const store = platform.vectorStore();
    const collection = policyCollection('policy_docs');
    const [point] = (
      await store.scroll(collection, { filter: { revision_id: 'rev_NPPF_2024_12' }, limit: 1, withVector: true })
    ).points;
    const info = await store.getCollection(collection);
    await store.upsert(
      collection,
      [0, 1].map((i) => ({
        id: `GHOST__rev_gone__Para_1__00${i}`,
        vector: point!.vector!,
        text: 'ghost',
        payload: { ...point!.payload, revision_id: 'rev_gone' },
      })),
      {
        fingerprint: info!.fingerprint,
      },
    );
    const registry = platform.policyRegistry();
    const real = (await registry.getRevision('LTN_1_20', 'rev_LTN_1_20_2020_07'))!.chunk_count;
    await registry.updateRevision('LTN_1_20', 'rev_LTN_1_20_2020_07', { chunk_count: real + 5 });
    await platform.close();

    const found = await run(['policy', 'check'], env);
    expect(found.code).toBe(1);
    expect(found.stdout).toContain('2 orphan chunks, 1 count mismatches');
    expect(found.stdout).toContain('orphan: NPPF rev_gone (2 chunks)');
    expect(found.stdout).toContain(`mismatch: LTN_1_20 rev_LTN_1_20_2020_07 registered ${real + 5}, stored ${real}`);
    expect(found.stderr).toMatch(/inconsistent.*--repair/);

    const repaired = await run(['policy', 'check', '--repair', '--json'], env);
    expect(repaired.code).toBe(0);
    expect(json(repaired.stdout)).toMatchObject({
      orphan_chunks: 2,
      removed_chunks: 2,
      fixed_counts: 1,
      repaired: true,
      consistent: true,
    });
    const after = await run(['policy', 'check', '--json'], env);
    expect(after.code).toBe(0);
    expect(json(after.stdout)).toMatchObject({ orphan_chunks: 0, count_mismatches: [], consistent: true });
  }, 300_000);

  it('reports a revision stuck in processing as inconsistent, and --repair leaves it to the service start', async () => {
    // What a policy-kb-mcp killed mid-ingest leaves (embedded: no job survives the process).
    const platform = createPlatform({ dataDir, log: silentLogger() });
    const registry = platform.policyRegistry();
    await registry.updateRevision('NPPF', 'rev_NPPF_2024_12', { status: 'processing' });
    await platform.close();

    const found = await run(['policy', 'check'], env);
    expect(found.code).toBe(1);
    expect(found.stdout).toContain('1 revisions stuck in processing');
    expect(found.stdout).toMatch(/stuck: NPPF rev_NPPF_2024_12 processing with no ingest job \(\d+ chunks\)/);
    expect(found.stdout).not.toContain('mismatch:'); // an ingest in progress has no count to compare yet
    expect(found.stderr).toContain('re-queued or failed by policy-kb-mcp at its next start');
    const repaired = await run(['policy', 'check', '--repair', '--json'], env);
    expect(repaired.code).toBe(1);
    expect(json(repaired.stdout)).toMatchObject({
      stuck_revisions: [{ source: 'NPPF', revision_id: 'rev_NPPF_2024_12' }],
      fixed_counts: 0,
      consistent: false,
    });

    const again = createPlatform({ dataDir, log: silentLogger() });
    await again.policyRegistry().updateRevision('NPPF', 'rev_NPPF_2024_12', { status: 'active' });
    await again.close();
    const after = await run(['policy', 'check', '--json'], env);
    expect(after.code).toBe(0);
    expect(json(after.stdout)).toMatchObject({ stuck_revisions: [], consistent: true });
  }, 300_000);

  it('policy-kb-api:FR-006 check reports a revision whose chunks remove_policy_revision removed; --repair leaves it', async () => {
    const platform = createPlatform({ dataDir, log: silentLogger() });
    const deps = {
      registry: platform.policyRegistry(),
      store: platform.vectorStore(),
      collection: policyCollection('policy_docs'),
    };
    const removed = await removePolicyRevision(deps, { source: 'LTN_1_20', revision_id: 'rev_LTN_1_20_2020_07' });
    const registered = (await deps.registry.getRevision('LTN_1_20', 'rev_LTN_1_20_2020_07'))!.chunk_count;
    expect(registered).toBe(removed.chunks_removed);
    await platform.close();

    const found = await run(['policy', 'check'], env);
    expect(found.code).toBe(1);
    expect(found.stdout).toContain(
      `removed: LTN_1_20 rev_LTN_1_20_2020_07 registered ${registered}, stored 0 (chunks removed by remove_policy_revision; re-ingest to restore)`,
    );
    const repaired = await run(['policy', 'check', '--repair', '--json'], env);
    expect(repaired.code).toBe(1);
    expect(json(repaired.stdout)).toMatchObject({
      consistent: false,
      fixed_counts: 0,
      count_mismatches: [],
      removed_revisions: [{ source: 'LTN_1_20', revision_id: 'rev_LTN_1_20_2020_07', registered }],
    });
  }, 300_000);
});

describe('lectern docstore check --repair (real binary)', () => {
  let dataDir: string;
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('removes planted orphan chunks for real: the re-check is clean and only the orphans are gone', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lectern-cli-docstore-bin-'));
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const { platform, deps } = openDocumentStore(dataDir);
    expect(
      (await ingestDocument(deps, { file_path: numberedPdfFile(3, 'bin-check.pdf'), application_ref: 'BIN/1' })).status,
    ).toBe('success');
    const info = await deps.store.getCollection('application_docs');
    const [point] = (await deps.store.scroll('application_docs', { limit: 1, withVector: true })).points;
    await deps.store.upsert(
      'application_docs',
      [0, 1, 2].map((i) => ({
        id: `GHOST_abcdef_00${i}_000`,
        vector: point!.vector!,
        text: `ghost ${i}`,
        payload: { document_id: 'GHOST_abcdef', chunk_index: i },
      })),
      { fingerprint: info!.fingerprint },
    );
    const before = await deps.store.count('application_docs');
    await platform.close();

    expect((await run(['docstore', 'check'], env)).code).toBe(1);
    const repaired = await run(['docstore', 'check', '--repair', '--json'], env);
    expect(repaired.code).toBe(0);
    expect(json(repaired.stdout)).toMatchObject({ orphan_chunks: 3, removed_chunks: 3, consistent: true });
    const after = await run(['docstore', 'check', '--json'], env);
    expect(after.code).toBe(0);
    expect(json(after.stdout)).toMatchObject({ orphan_chunks: 0, consistent: true });
    const reopened = createPlatform({ dataDir, log: silentLogger() });
    expect(await reopened.vectorStore().count('application_docs')).toBe(before - 3);
    await reopened.close();
  }, 300_000);
});
