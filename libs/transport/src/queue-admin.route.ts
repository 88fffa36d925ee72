// SPDX-License-Identifier: AGPL-3.0-or-later
import { LecternScopes, requireScope } from '@lectern/auth';
import {
  AppError,
  CommonErrorCodes,
  FailedJobsPageSchema,
  FailedJobsQuerySchema,
  QUEUE_ADMIN_LIMITS,
  QueueAdminErrorCodes,
  QueueJobParamsSchema,
  QueueListResponseSchema,
  QueueParamsSchema,
  RetryJobBodySchema,
  RetryJobResponseSchema,
  type FailedJob,
  type FailedJobsPage,
  type QueueDepth,
  type QueueListResponse,
  type RetryJobResponse,
} from '@lectern/contracts';
import type { JobQueue } from '@lectern/queue';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { errorResponse, jsonSchemaOf } from './openapi.js';
import { describeZodError } from './run-tool.js';

/** What the admin routes read of a queue (both adapters, `libs/queue`). */
export type AdminQueue = Pick<
  JobQueue<unknown, unknown>,
  'name' | 'listFailed' | 'listUnfinished' | 'getJob' | 'retry'
>;

export interface QueueAdminRoutesOptions {
  /** The service's name, as `GET /admin/queues` reports it. */
  service: string;
  /** `embedded` (in-process queues) or `distributed` (BullMQ on Redis). */
  mode: 'embedded' | 'distributed';
  /** The queues this service owns (a queue built once per name by the platform; duplicates by name are dropped). */
  queues: readonly AdminQueue[];
}

export const QUEUE_ADMIN_PREFIX = '/admin/queues';

const parse = <S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> => {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new AppError(CommonErrorCodes.invalidArguments, `Invalid ${what}: ${describeZodError(parsed.error)}`);
  return parsed.data;
};

/** The short, client-safe failure reason: the job's error code and its message (already client-safe), bounded. */
const reason = (message: string): string =>
  message.length > QUEUE_ADMIN_LIMITS.maxMessageChars
    ? `${message.slice(0, QUEUE_ADMIN_LIMITS.maxMessageChars - 1)}…`
    : message;

/** Every route here needs `lectern:admin` in OAuth mode (the key in key mode: createHttpApp's guard already ran). */
const adminOnly = async (request: FastifyRequest, reply: FastifyReply) => {
  requireScope(request, reply, LecternScopes.admin);
};

/**
 * The admin queue API (issue 29; the REST twin of `lectern queue failed|retry`, which reads Redis directly):
 * - `GET /admin/queues`: each queue's depth (unfinished, queued, running, failed);
 * - `GET /admin/queues/:queue/failed?limit&offset`: its failed jobs, newest failure first, with the error code and a
 *   short client-safe message (no payload: it names files and paths);
 * - `POST /admin/queues/:queue/jobs/:id/retry`: run a failed job again from its first attempt (202), 404
 *   `queue_not_found` / `job_not_found`, 409 `job_not_failed` for a job that is queued, running or succeeded.
 * Kept in its own file so an app adds it with one call (`registerQueueAdminRoutes(app, …)`) before it listens.
 */
export const registerQueueAdminRoutes = (app: FastifyInstance, options: QueueAdminRoutesOptions): void => {
  const byName = new Map<string, AdminQueue>();
  for (const queue of options.queues) if (!byName.has(queue.name)) byName.set(queue.name, queue);
  const queueOf = (name: string): AdminQueue => {
    const queue = byName.get(name);
    if (!queue)
      throw new AppError(
        QueueAdminErrorCodes.queueNotFound,
        `No queue "${name}" in ${options.service}; its queues: ${[...byName.keys()].join(', ') || 'none'}`,
        { httpStatus: 404 },
      );
    return queue;
  };
  const tags = ['admin'];

  app.register(async (scope) => {
    scope.get(
      QUEUE_ADMIN_PREFIX,
      {
        onRequest: adminOnly,
        schema: {
          summary: 'Depth of each queue of this service (lectern:admin)',
          tags,
          response: { 200: jsonSchemaOf(QueueListResponseSchema), 401: errorResponse('No or a wrong credential') },
        },
      },
      async (): Promise<QueueListResponse> => {
        const queues = await Promise.all(
          [...byName.values()].map(async (queue): Promise<QueueDepth> => {
            const [unfinished, failed] = await Promise.all([
              queue.listUnfinished({ limit: QUEUE_ADMIN_LIMITS.maxCounted }),
              queue.listFailed({ limit: 1 }),
            ]);
            const running = unfinished.jobs.filter((j) => j.status === 'running').length;
            return {
              queue: queue.name,
              unfinished: unfinished.total,
              queued: unfinished.jobs.length - running,
              running,
              failed: failed.total,
            };
          }),
        );
        return { service: options.service, mode: options.mode, queues };
      },
    );

    scope.get<{ Params: { queue: string }; Querystring: Record<string, unknown> }>(
      `${QUEUE_ADMIN_PREFIX}/:queue/failed`,
      {
        onRequest: adminOnly,
        schema: {
          summary: 'Failed jobs of a queue, newest failure first (lectern:admin)',
          tags,
          response: {
            200: jsonSchemaOf(FailedJobsPageSchema),
            400: errorResponse('Bad limit or offset'),
            404: errorResponse('No such queue'),
          },
        },
      },
      async (request): Promise<FailedJobsPage> => {
        const { queue: name } = parse(QueueParamsSchema, request.params, 'queue');
        const query = parse(FailedJobsQuerySchema, request.query, 'query');
        const queue = queueOf(name);
        const page = await queue.listFailed({ offset: query.offset, limit: query.limit });
        const jobs: FailedJob[] = page.jobs.map((job) => ({
          queue: queue.name,
          id: job.id,
          attempts: job.attempts,
          created_at: job.createdAt.toISOString(),
          failed_at: job.updatedAt.toISOString(),
          error: job.error
            ? { code: job.error.code, message: reason(job.error.message), http_status: job.error.http_status }
            : { code: CommonErrorCodes.internal, message: 'No error was recorded.', http_status: 500 },
        }));
        return { queue: queue.name, total: page.total, offset: query.offset, limit: query.limit, jobs };
      },
    );

    scope.post<{ Params: { queue: string; id: string } }>(
      `${QUEUE_ADMIN_PREFIX}/:queue/jobs/:id/retry`,
      {
        onRequest: adminOnly,
        schema: {
          summary: 'Run a failed job again from its first attempt (lectern:admin)',
          tags,
          response: {
            202: jsonSchemaOf(RetryJobResponseSchema),
            400: errorResponse('Bad queue name, job id or body'),
            404: errorResponse('No such queue or job'),
            409: errorResponse('The job has not failed'),
          },
        },
      },
      async (request, reply): Promise<RetryJobResponse> => {
        const { queue: name, id } = parse(QueueJobParamsSchema, request.params, 'job');
        parse(RetryJobBodySchema, request.body ?? {}, 'body');
        const queue = queueOf(name);
        const job = await queue.getJob(id);
        if (!job)
          throw new AppError(QueueAdminErrorCodes.jobNotFound, `No job "${id}" in the ${queue.name} queue.`, {
            httpStatus: 404,
          });
        if (job.status !== 'failed' || !(await queue.retry(id)))
          throw new AppError(
            QueueAdminErrorCodes.jobNotFailed,
            `The job "${id}" is ${job.status === 'failed' ? 'no longer failed' : job.status}; only a failed job is retried.`,
            { httpStatus: 409 },
          );
        request.log.info({ event: 'job_retried', queue: queue.name, job_id: id }, 'failed job sent again');
        reply.code(202);
        return { queue: queue.name, id, status: 'queued' };
      },
    );
  });
};
