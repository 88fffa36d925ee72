// SPDX-License-Identifier: AGPL-3.0-or-later
import { policyIngestQueue } from '@lectern/contracts';
import { startRedis, type TestRedis } from '@lectern/testing';
import { startPolicyKb, type RunningPolicyKb } from './policy-kb.testkit.js';

/*
 * The Redis registry (spec 001's keys) behind a running policy-kb-mcp: when redis-server stops mid-run the tools
 * that read the registry answer `registry_unavailable` (never a crash or a hang), and once it is back on the
 * same port the same server answers again without a restart.
 */
let redis: TestRedis;
let kb: RunningPolicyKb;

beforeAll(async () => {
  redis = await startRedis();
  kb = await startPolicyKb({ REDIS_URL: redis.url }, 'sse', {
    redisPrefix: `outage-${process.pid}`,
    redisKeyPrefix: `outage-${process.pid}:`,
    // The outage is the registry's: no BullMQ worker blocking on the Redis that is stopped and restarted here.
    enqueueOnly: true,
  });
}, 60_000);
afterAll(async () => {
  await kb?.stop();
  await redis?.stop();
}, 120_000);

it('answers registry_unavailable while Redis is down, then recovers', async () => {
  await kb.deps.registry.createPolicy({
    source: 'NPPF',
    title: 'National Planning Policy Framework',
    category: 'national_policy',
  });
  expect((await kb.call('list_policy_documents', {})).body).toMatchObject({ status: 'success', policy_count: 1 });

  await redis.stop();
  for (const [name, args] of [
    ['list_policy_documents', {}],
    ['list_policy_revisions', { source: 'NPPF' }],
    ['search_policy', { query: 'green belt', effective_date: '2025-01-01' }],
  ] as const) {
    const r = await kb.call(name, args);
    expect({ name, isError: r.isError, body: r.body }).toMatchObject({
      name,
      isError: true,
      body: { status: 'error', error_type: 'registry_unavailable' },
    });
    expect(String(r.body['message'])).not.toMatch(/ECONNREFUSED|at .*\.ts/);
  }

  redis = await startRedis({ port: redis.port });
  // The restarted server has no data (no persistence): recovery is the same server answering again.
  let listed: Record<string, unknown> = {};
  for (let attempt = 0; attempt < 50; attempt++) {
    listed = (await kb.call('list_policy_documents', {})).body;
    if (listed['status'] === 'success') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(listed).toEqual({ status: 'success', policy_count: 0, policies: [] });
  await kb.deps.registry.createPolicy({
    source: 'NPPF',
    title: 'National Planning Policy Framework',
    category: 'national_policy',
  });
  expect((await kb.call('list_policy_revisions', { source: 'NPPF' })).body).toEqual({
    status: 'success',
    source: 'NPPF',
    revision_count: 0,
    revisions: [],
  });
  // The BullMQ queues on the same Redis are back too (and so close promptly afterwards).
  const queue = kb.platform.queue(policyIngestQueue);
  let answered = false;
  for (let attempt = 0; attempt < 100 && !answered; attempt++) {
    answered = await queue.getJob('policy-ingest-none').then(
      (job) => job === undefined,
      () => false,
    );
    if (!answered) await new Promise((r) => setTimeout(r, 200));
  }
  expect(answered).toBe(true);
}, 120_000);
