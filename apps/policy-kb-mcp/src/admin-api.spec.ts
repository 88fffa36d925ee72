// SPDX-License-Identifier: AGPL-3.0-or-later
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { policyUploadsDir } from '@lectern/policy-kb';
import { makePolicyPdf, startRedis, testModelEnv, type TestRedis } from '@lectern/testing';
import { startPolicyKb, type RunningPolicyKb } from './policy-kb.testkit.js';

/*
 * The admin REST API under /api, on the MCP server's port and token: an upload goes to DATA_DIR, a
 * `policy-ingest` job ingests it, and the revision's status follows the job to `active` (or `failed`) — with
 * in-process queues (no Redis) and with BullMQ on a real redis-server.
 */
const TOKEN = 'policy-admin-token';

const modes = [['in-process'], ['bullmq (redis)']] as const;

describe.each(modes)('admin API, %s', (mode) => {
  let redis: TestRedis | undefined;
  let kb: RunningPolicyKb;
  const api = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${kb.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, ...(init.headers ?? {}) } });
  const json = async (r: Response): Promise<Record<string, unknown>> => (await r.json()) as Record<string, unknown>;
  const upload = (
    source: string,
    fields: Record<string, string>,
    bytes: Uint8Array,
    name = 'policy.pdf',
  ): Promise<Response> => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([bytes]), name);
    return api(`/api/policies/${source}/revisions`, { method: 'POST', body: form });
  };
  /** The revision once its job has settled (status no longer `processing`). */
  const settled = async (source: string, revisionId: string): Promise<Record<string, unknown>> => {
    for (let i = 0; i < 300; i++) {
      const r = await json(await api(`/api/policies/${source}/revisions/${revisionId}`));
      if (r['status'] !== 'processing') return r;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${revisionId} still processing`);
  };

  beforeAll(async () => {
    if (mode !== 'in-process') redis = await startRedis();
    kb = await startPolicyKb(
      { ...testModelEnv(), MCP_API_KEY: TOKEN, ...(redis ? { REDIS_URL: redis.url } : {}) },
      'streamable-http',
      {
        redisPrefix: `admin-${process.pid}`,
        redisKeyPrefix: `admin-${process.pid}:`,
        convertHere: true,
      },
    );
  }, 60_000);
  afterAll(async () => {
    await kb?.stop();
    await redis?.stop();
  });

  it('registers a policy, refuses a duplicate and a bad slug', async () => {
    const body = JSON.stringify({
      source: 'LOCAL_PLAN',
      title: 'Local Plan 2011-2031',
      description: 'test',
      category: 'local_plan',
    });
    const created = await api('/api/policies', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status).toBe(201);
    expect(await json(created)).toMatchObject({
      source: 'LOCAL_PLAN',
      title: 'Local Plan 2011-2031',
      category: 'local_plan',
    });
    const again = await api('/api/policies', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ error: { code: 'policy_already_exists' } });
    const bad = await api('/api/policies', {
      method: 'POST',
      body: JSON.stringify({ source: 'bad slug', title: 'x', category: 'local_plan' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(await json(await api('/api/policies'))).toMatchObject({ policies: [{ source: 'LOCAL_PLAN' }] });
  });

  it('takes an upload to active through the queue; a later revision supersedes it', async () => {
    const accepted = await upload(
      'LOCAL_PLAN',
      { version_label: 'December 2024', effective_from: '2024-12-12' },
      makePolicyPdf('adopted'),
    );
    expect(accepted.status).toBe(202);
    const body = await json(accepted);
    expect(body).toMatchObject({
      revision: { revision_id: 'rev_LOCAL_PLAN_2024_12', status: 'processing', effective_to: null },
    });
    expect(String(body['job_id'])).toMatch(/^policy-ingest-/);
    const done = await settled('LOCAL_PLAN', 'rev_LOCAL_PLAN_2024_12');
    expect(done).toMatchObject({ status: 'active', page_count: 3, error: null });
    expect(done['chunk_count']).toBe(
      await kb.deps.store.count(kb.deps.collection, { revision_id: 'rev_LOCAL_PLAN_2024_12' }),
    );
    expect(done['chunk_count']).toBeGreaterThan(0);

    const next = await upload(
      'LOCAL_PLAN',
      { revision_id: 'rev_next', version_label: 'Review 2026', effective_from: '2026-01-01' },
      makePolicyPdf('reviewed'),
    );
    expect(next.status).toBe(202);
    expect(await settled('LOCAL_PLAN', 'rev_next')).toMatchObject({ status: 'active' });
    const detail = await json(await api('/api/policies/LOCAL_PLAN'));
    expect(detail).toMatchObject({
      source: 'LOCAL_PLAN',
      revisions: [
        { revision_id: 'rev_next', status: 'active' },
        { revision_id: 'rev_LOCAL_PLAN_2024_12', status: 'superseded', effective_to: '2025-12-31' },
      ],
    });
    const search = await kb.call('search_policy', { query: 'reviewed proposals', effective_date: '2026-02-01' });
    expect(new Set((search.body['results'] as { revision_id: string }[]).map((r) => r.revision_id))).toEqual(
      new Set(['rev_next']),
    );
  });

  it('refuses bad dates and overlaps with nothing stored, and marks an unreadable upload failed', async () => {
    const before = readdirSync(join(policyUploadsDir(kb.dataDir), 'LOCAL_PLAN')).length;
    const badDate = await upload(
      'LOCAL_PLAN',
      { version_label: 'x', effective_from: '2025-02-30' },
      makePolicyPdf('bad'),
    );
    expect(badDate.status).toBe(400);
    expect(await json(badDate)).toMatchObject({ error: { code: 'invalid_date' } });
    const overlap = await upload(
      'LOCAL_PLAN',
      { revision_id: 'rev_overlap', version_label: 'x', effective_from: '2025-01-01', effective_to: '2025-02-01' },
      makePolicyPdf('bad'),
    );
    expect(overlap.status).toBe(409);
    expect(await json(overlap)).toMatchObject({ error: { code: 'revision_overlap' } });
    expect(readdirSync(join(policyUploadsDir(kb.dataDir), 'LOCAL_PLAN'))).toHaveLength(before);
    expect((await api('/api/policies/NOPE/revisions', { method: 'POST', body: new FormData() })).status).toBe(404);

    const junk = await upload(
      'LOCAL_PLAN',
      { revision_id: 'rev_junk', version_label: 'junk', effective_from: '2020-01-01', effective_to: '2020-12-31' },
      Buffer.from('%PDF-1.4\nnot a pdf'),
    );
    expect(junk.status).toBe(202);
    const failed = await settled('LOCAL_PLAN', 'rev_junk');
    expect(failed).toMatchObject({ status: 'failed', chunk_count: 0 });
    expect(String(failed['error']).length).toBeGreaterThan(0);
  });

  it('deletes a revision: chunks first, then the entry; the sole active one only with force', async () => {
    const removed = await api('/api/policies/LOCAL_PLAN/revisions/rev_LOCAL_PLAN_2024_12', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    const body = await json(removed);
    expect(body['chunks_removed']).toBeGreaterThan(0);
    expect(await kb.deps.store.count(kb.deps.collection, { revision_id: 'rev_LOCAL_PLAN_2024_12' })).toBe(0);
    expect((await api('/api/policies/LOCAL_PLAN/revisions/rev_LOCAL_PLAN_2024_12')).status).toBe(404);
    const sole = await api('/api/policies/LOCAL_PLAN/revisions/rev_next', { method: 'DELETE' });
    expect(sole.status).toBe(409);
    expect(await json(sole)).toMatchObject({ error: { code: 'cannot_delete_sole_revision' } });
    expect(await kb.deps.store.count(kb.deps.collection, { revision_id: 'rev_next' })).toBeGreaterThan(0);
    expect((await api('/api/policies/LOCAL_PLAN/revisions/rev_next?force=true', { method: 'DELETE' })).status).toBe(
      200,
    );
    expect(await kb.deps.store.count(kb.deps.collection, { revision_id: 'rev_next' })).toBe(0);
  });

  it('an unknown revision is 404 revision_not_found; a revision id outside the pattern is 400, before any read', async () => {
    const unknown = await api('/api/policies/LOCAL_PLAN/revisions/rev_LOCAL_PLAN_1999_01', { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ error: { code: 'revision_not_found' } });
    expect((await api('/api/policies/LOCAL_PLAN/revisions/rev_LOCAL_PLAN_1999_01')).status).toBe(404);
    for (const bad of ['..%2F..%2Fetc', '__', 'rev__x', '.hidden', 'rev%3Ax']) {
      for (const method of ['GET', 'DELETE']) {
        const r = await api(`/api/policies/LOCAL_PLAN/revisions/${bad}`, { method });
        expect([bad, method, r.status]).toEqual([bad, method, 400]);
        const body = await json(r);
        expect(body).toMatchObject({ error: { code: 'invalid_arguments' } });
        expect(JSON.stringify(body)).toMatch(/revision_id/);
      }
    }
  });

  it('guards /api with the token and serves its OpenAPI document at /api/docs without one', async () => {
    expect((await fetch(`${kb.baseUrl}/api/policies`)).status).toBe(401);
    expect((await fetch(`${kb.baseUrl}/api/docs`)).status).toBe(200);
    const doc = (await (await fetch(`${kb.baseUrl}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/policies',
        '/api/policies/{source}',
        '/api/policies/{source}/revisions',
        '/api/policies/{source}/revisions/{revision_id}',
      ]),
    );
    expect(Object.keys(doc.paths['/api/policies/{source}/revisions/{revision_id}'] ?? {}).sort()).toEqual([
      'delete',
      'get',
    ]);
  });
});
