// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, defineQueue, FailedJobsPageSchema, QueueListResponseSchema } from '@lectern/contracts';
import {
  closeRedis,
  connectRedis,
  createBullmqQueue,
  createInProcessQueue,
  type JobQueue,
  type RedisConnection,
} from '@lectern/queue';
import {
  ALL_LECTERN_SCOPES,
  idpClientCredentials,
  listenOnFreePort,
  openApiErrors,
  silentLogger,
  startOidcIdp,
  startRedis,
  type TestIdp,
  type TestRedis,
} from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createHttpApp } from './http-app.js';
import { registerQueueAdminRoutes } from './queue-admin.route.js';

/*
 * The admin queue API (issue 29) over both queue adapters: in-process, and BullMQ on a real redis-server on
 * loopback. Jobs fail for real in the handler (a permanent AppError, and an unexpected error whose text must not
 * reach the client), are listed with their short reason, and are retried through the API.
 */

const KEY = 'queue-admin-key-0123456789';
const definition = defineQueue({
  name: 'work',
  jobName: 'do',
  payload: z.object({ n: z.number(), secret_path: z.string() }),
  result: z.object({ ok: z.boolean() }),
});
type Q = JobQueue<{ n: number; secret_path: string }, { ok: boolean }>;

/** The handler: fails job 1 permanently (with a long message) and job 2 unexpectedly, until `healed`. */
const state = { healed: false };
const handler = async ({ n, secret_path }: { n: number; secret_path: string }) => {
  if (state.healed) return { ok: true };
  if (n === 1) throw new AppError('corrupt_pdf', `The PDF is damaged. ${'x'.repeat(500)}`, { httpStatus: 422 });
  if (n === 2) throw new Error(`ENOENT: no such file ${secret_path}`);
  return { ok: true };
};

const failedRun = async (queue: Q, n: number) => {
  const handle = await queue.add({ n, secret_path: '/srv/private/x.pdf' }, { jobId: `job-${n}` });
  await handle.result().catch(() => undefined);
};

/** A request over real HTTP (light-my-request's inject does not load under jest's ESM runtime here). */
interface Sent {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
  json(): { error: { code: string } } & Record<string, unknown>;
}
const sender =
  (base: () => string) =>
  async (r: { method?: string; url: string; headers?: Record<string, string>; payload?: unknown }): Promise<Sent> => {
    const res = await fetch(`${base()}${r.url}`, {
      method: r.method ?? 'GET',
      headers: r.headers ?? {},
      ...(r.payload !== undefined ? { body: JSON.stringify(r.payload) } : {}),
    });
    const body = await res.text();
    return {
      statusCode: res.status,
      body,
      headers: Object.fromEntries(res.headers),
      json: () => JSON.parse(body) as never,
    };
  };

let redis: TestRedis;
let connection: RedisConnection;
beforeAll(async () => {
  redis = await startRedis();
  connection = connectRedis(redis.url);
});
afterAll(async () => {
  await closeRedis(connection);
  await redis.stop();
});

const adapters: Array<[string, () => Q]> = [
  ['in-process', () => createInProcessQueue({ definition, attempts: 1, backoffMs: 10 }) as Q],
  [
    'bullmq',
    () => createBullmqQueue({ definition, connection, prefix: `qa-${Date.now()}`, attempts: 1, backoffMs: 10 }) as Q,
  ],
];

describe.each(adapters)('admin queue API over the %s adapter', (adapter, makeQueue) => {
  let app: FastifyInstance;
  let queue: Q;
  let baseUrl = '';
  const send = sender(() => baseUrl);
  const auth = { authorization: `Bearer ${KEY}` };
  beforeAll(async () => {
    state.healed = false;
    queue = makeQueue();
    queue.process(handler);
    app = createHttpApp({ service: 'svc', logger: silentLogger(), apiKey: KEY });
    registerQueueAdminRoutes(app, {
      service: 'svc',
      mode: adapter === 'bullmq' ? 'distributed' : 'embedded',
      queues: [queue, queue],
    });
    baseUrl = await listenOnFreePort(app);
    await failedRun(queue, 1);
    await failedRun(queue, 2);
    await (await queue.add({ n: 3, secret_path: '' }, { jobId: 'job-3' })).result();
  });
  afterAll(async () => {
    await app.close();
    await queue.close();
  });

  it('lists depths and the failed jobs, newest first, with a short reason and no internal text', async () => {
    const depths = await send({ url: '/admin/queues', headers: auth });
    expect(depths.statusCode).toBe(200);
    expect(QueueListResponseSchema.parse(depths.json())).toEqual({
      service: 'svc',
      mode: adapter === 'bullmq' ? 'distributed' : 'embedded',
      queues: [{ queue: 'work', unfinished: 0, queued: 0, running: 0, failed: 2 }],
    });
    const res = await send({ url: '/admin/queues/work/failed', headers: auth });
    expect(res.statusCode).toBe(200);
    const page = FailedJobsPageSchema.parse(res.json());
    expect(page).toMatchObject({ queue: 'work', total: 2, offset: 0, limit: 50 });
    expect(page.jobs.map((j) => [j.id, j.error.code, j.error.http_status])).toEqual([
      ['job-2', 'internal_error', 500],
      ['job-1', 'corrupt_pdf', 422],
    ]);
    expect(page.jobs[1]!.error.message.length).toBeLessThanOrEqual(300);
    expect(page.jobs[1]!.error.message).toMatch(/^The PDF is damaged\./);
    // neither the unexpected error's text nor the payload reaches the client
    expect(res.body).not.toMatch(/ENOENT|secret_path|\/srv\/private/);
    const second = FailedJobsPageSchema.parse(
      (await send({ url: '/admin/queues/work/failed?limit=1&offset=1', headers: auth })).json(),
    );
    expect(second.jobs.map((j) => j.id)).toEqual(['job-1']);
  });

  it('bounds and checks its input: typed 400s and 404s, and the key', async () => {
    const cases: Array<[string, string, number, string]> = [
      ['GET', '/admin/queues/work/failed?limit=201', 400, 'invalid_arguments'],
      ['GET', '/admin/queues/work/failed?limit=0', 400, 'invalid_arguments'],
      ['GET', '/admin/queues/work/failed?offset=-1', 400, 'invalid_arguments'],
      ['GET', '/admin/queues/work/failed?sort=x', 400, 'invalid_arguments'],
      ['GET', '/admin/queues/nope/failed', 404, 'queue_not_found'],
      ['GET', '/admin/queues/NOPE!/failed', 400, 'invalid_arguments'],
      ['POST', '/admin/queues/work/jobs/job-404/retry', 404, 'job_not_found'],
      ['POST', '/admin/queues/work/jobs/job-3/retry', 409, 'job_not_failed'],
      ['POST', '/admin/queues/work/jobs/job%20one/retry', 400, 'invalid_arguments'],
      // longer than any id (fastify's 100-character parameter bound): no route
      ['POST', `/admin/queues/work/jobs/${'a'.repeat(101)}/retry`, 404, 'not_found'],
    ];
    for (const [method, url, status, code] of cases) {
      const res = await send({ method, url, headers: auth });
      expect([url, res.statusCode, res.json().error.code]).toEqual([url, status, code]);
    }
    const body = await send({
      method: 'POST',
      url: '/admin/queues/work/jobs/job-1/retry',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: { force: true },
    });
    expect([body.statusCode, body.json().error.code]).toEqual([400, 'invalid_arguments']);
    const anonymous = await send({ url: '/admin/queues' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('is described in the OpenAPI document (valid), with its error answers', async () => {
    const doc = (await send({ url: '/openapi.json' })).json() as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(await openApiErrors(doc)).toEqual([]);
    expect(Object.keys(doc.paths['/admin/queues/{queue}/jobs/{id}/retry']!.post!.responses).sort()).toEqual([
      '202',
      '400',
      '404',
      '409',
    ]);
    expect(doc.paths['/admin/queues']!.get).toBeDefined();
    expect(doc.paths['/admin/queues/{queue}/failed']!.get).toBeDefined();
  });

  it('retries a failed job from its first attempt: it runs again and leaves the failed list', async () => {
    state.healed = true;
    const res = await send({
      method: 'POST',
      url: '/admin/queues/work/jobs/job-1/retry',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: {},
    });
    expect([res.statusCode, res.json()]).toEqual([202, { queue: 'work', id: 'job-1', status: 'queued' }]);
    for (let i = 0; i < 200 && (await queue.getJob('job-1'))?.status !== 'succeeded'; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect((await queue.getJob('job-1'))?.status).toBe('succeeded');
    const page = FailedJobsPageSchema.parse((await send({ url: '/admin/queues/work/failed', headers: auth })).json());
    expect(page.jobs.map((j) => j.id)).toEqual(['job-2']);
    // a second retry of a job no longer failed is refused
    const again = await send({ method: 'POST', url: '/admin/queues/work/jobs/job-1/retry', headers: auth });
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'job_not_failed']);
  });
});

describe('admin queue API in OAuth mode', () => {
  let idp: TestIdp;
  let app: FastifyInstance;
  let queue: Q;
  let resource: string;
  let baseUrl = '';
  const send = sender(() => baseUrl);
  beforeAll(async () => {
    idp = await startOidcIdp({
      clients: () => [
        { client_id: 'writer', scope: 'lectern:read lectern:write', confidential: true },
        { client_id: 'admin', scope: ALL_LECTERN_SCOPES, confidential: true },
      ],
    });
    resource = 'http://lectern.test/svc';
    queue = createInProcessQueue({ definition, attempts: 1 }) as Q;
    queue.process(async () => {
      throw new AppError('corrupt_pdf', 'The PDF is damaged.', { httpStatus: 422 });
    });
    app = createHttpApp({
      service: 'svc',
      logger: silentLogger(),
      apiKey: undefined,
      oauth: { issuer: idp.issuer, resource, clockSkewSeconds: 5 },
    });
    registerQueueAdminRoutes(app, { service: 'svc', mode: 'embedded', queues: [queue] });
    baseUrl = await listenOnFreePort(app);
    await failedRun(queue, 1);
  });
  afterAll(async () => {
    await app.close();
    await queue.close();
    await idp.close();
  });

  it('needs lectern:admin: a write token gets 403 insufficient_scope, an admin token lists and retries', async () => {
    const writer = await idpClientCredentials(idp, 'writer', 'lectern:read lectern:write', resource);
    const admin = await idpClientCredentials(idp, 'admin', ALL_LECTERN_SCOPES, resource);
    for (const [method, url] of [
      ['GET', '/admin/queues'],
      ['GET', '/admin/queues/work/failed'],
      ['POST', '/admin/queues/work/jobs/job-1/retry'],
    ] as const) {
      const res = await send({ method, url, headers: { authorization: `Bearer ${writer}` } });
      expect([url, res.statusCode, res.json().error.code]).toEqual([url, 403, 'insufficient_scope']);
      expect(res.headers['www-authenticate']).toMatch(/scope="lectern:admin"/);
    }
    const list = await send({ url: '/admin/queues/work/failed', headers: { authorization: `Bearer ${admin}` } });
    expect(FailedJobsPageSchema.parse(list.json()).jobs.map((j) => j.id)).toEqual(['job-1']);
    const retry = await send({
      method: 'POST',
      url: '/admin/queues/work/jobs/job-1/retry',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(retry.statusCode).toBe(202);
  });
});
