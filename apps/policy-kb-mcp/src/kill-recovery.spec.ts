// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import { policyIngestQueue } from '@lectern/contracts';
import { createPlatform } from '@lectern/platform';
import { checkPolicyConsistency, liveIngestRevisions, policyKbReader, policyKbSettings } from '@lectern/policy-kb';
import { fixtureFile, killAtLine, makePolicyPdf, silentLogger, killScenario, testModelEnv } from '@lectern/testing';
import { loadConfig } from './config.js';

const ENTRY = 'apps/policy-kb-mcp/src/main.ts';
// Six chapters of five paragraphs: the kill lands at the job's first stage line (the revision is `processing`).
const PDF = fixtureFile('kill-recovery-policy.pdf', makePolicyPdf('kill recovery', 6, 5));

interface Revision {
  revision_id: string;
  status: string;
  chunk_count: number;
  page_count: number | null;
  error: string | null;
}

/**
 * Issue 24: `kill -9` of policy-kb-mcp during a revision ingest (admin upload -> `policy-ingest` queue), in embedded
 * mode (in-process queue, SQLite registry) and in distributed mode (BullMQ and the policy registry on a real Redis, a
 * converter worker). After a restart nothing is left `processing`: the revision reaches `active` with the chunk count
 * of a clean ingest of the same file, and the consistency check (`lectern policy check`'s) calls the store consistent.
 */
describe.each([
  ['embedded', false],
  ['distributed', true],
] as const)('policy revision ingest killed mid-way (%s mode)', (_mode, distributed) => {
  const scenario = killScenario({
    prefix: 'lectern-policy-kill-',
    distributed,
    env: (dataDir) => ({ ...testModelEnv(), DATA_DIR: dataDir, DOCUMENT_ROOTS: dataDir, LOG_LEVEL: 'info' }),
  });
  const { start } = scenario;

  const api = async <T>(base: string, path: string, init?: RequestInit): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${base}${path}`, init);
    return { status: res.status, body: (await res.json()) as T };
  };
  const createPolicy = (base: string, source: string) =>
    api(base, '/api/policies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source, title: source, description: 'kill test', category: 'local_plan' }),
    });
  const upload = (base: string, source: string) => {
    const form = new FormData();
    form.append('version_label', '2024');
    form.append('effective_from', '2024-01-01');
    form.append('file', new Blob([readFileSync(PDF)]), 'plan.pdf');
    return api<{ revision: Revision }>(base, `/api/policies/${source}/revisions`, { method: 'POST', body: form });
  };
  const settled = async (base: string, source: string, revisionId: string): Promise<Revision> => {
    for (let i = 0; i < 600; i += 1) {
      const { body } = await api<Revision>(base, `/api/policies/${source}/revisions/${revisionId}`);
      if (body.status !== 'processing') return body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${source} ${revisionId} stayed processing`);
  };

  it('leaves nothing processing after a restart; the revision converges to a clean ingest; the check is consistent', async () => {
    if (distributed) await start('apps/converter/src/main.ts', 'CONVERTER_PORT');
    const first = await start(ENTRY, 'POLICY_KB_PORT');
    expect((await createPolicy(first.baseUrl, 'KILLED_PLAN')).status).toBe(201);
    const uploaded = await upload(first.baseUrl, 'KILLED_PLAN');
    expect(uploaded.status).toBe(202);
    const revisionId = uploaded.body.revision.revision_id;
    // The job's first stage after it took the revision: converting (the revision is `processing`, no chunks yet).
    const line = await killAtLine(first, /policy ingest: (converting|embedded)/);
    expect(line).toContain('KILLED_PLAN');
    const config = loadConfig(scenario.env);
    const reader = createPlatform({ dataDir: scenario.dataDir, log: silentLogger(), redisUrl: config.REDIS_URL });
    try {
      // the state issue 24 measured: `processing`, no chunks, no process working on it
      expect(await reader.policyRegistry().getRevision('KILLED_PLAN', revisionId)).toMatchObject({
        status: 'processing',
        chunk_count: 0,
      });
    } finally {
      await reader.close();
    }

    // Restarted: embedded, recovery at start re-queues the upload; distributed, the job is still BullMQ's (active
    // with an expired lock): the stall handling gives it to the restarted worker. Either way it finishes.
    const second = await start(ENTRY, 'POLICY_KB_PORT');
    const recovered = await settled(second.baseUrl, 'KILLED_PLAN', revisionId);

    // A clean ingest of the same file, for comparison.
    expect((await createPolicy(second.baseUrl, 'CLEAN_PLAN')).status).toBe(201);
    const clean = await upload(second.baseUrl, 'CLEAN_PLAN');
    const reference = await settled(second.baseUrl, 'CLEAN_PLAN', clean.body.revision.revision_id);
    expect(reference).toMatchObject({ status: 'active', error: null });
    expect(reference.chunk_count).toBeGreaterThan(6);
    expect(recovered).toMatchObject({
      status: 'active',
      error: null,
      chunk_count: reference.chunk_count,
      page_count: reference.page_count,
    });
    await second.stop();

    const platform = createPlatform({ dataDir: scenario.dataDir, log: silentLogger(), redisUrl: config.REDIS_URL });
    try {
      const live = distributed ? await liveIngestRevisions(platform.queue(policyIngestQueue)) : undefined;
      const report = await checkPolicyConsistency(policyKbReader(platform, policyKbSettings(config)), {
        ...(live ? { live } : {}),
      });
      expect(report).toMatchObject({
        revisions: 2,
        chunks: 2 * reference.chunk_count,
        orphan_chunks: 0,
        count_mismatches: [],
        stuck_revisions: [],
        consistent: true,
      });
    } finally {
      await platform.close();
    }
  }, 120_000);
});
