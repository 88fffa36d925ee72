// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { FailedJobSchema } from '../queues/job.schema.js';

/**
 * The admin queue API every service that owns a queue serves (issue 29, the console's System page; the REST twin of
 * `lectern queue failed|retry`): `GET /admin/queues` (depths), `GET /admin/queues/:queue/failed` (failed jobs, newest
 * failure first, paginated) and `POST /admin/queues/:queue/jobs/:id/retry`. `lectern:admin` in OAuth mode, the key
 * in key mode. Failed jobs carry only their error code and client-safe message (bounded), never the payload.
 */
export const QUEUE_ADMIN_LIMITS = {
  /** Jobs per page of `failed`. */
  maxLimit: 200,
  defaultLimit: 50,
  /** A failed job's message is cut to this many characters. */
  maxMessageChars: 300,
  /** Unfinished jobs counted into `queued`/`running` (the `unfinished` total is exact). */
  maxCounted: 1000,
} as const;

const QueueNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9-]*$/, 'a queue name is lower-case letters, digits and dashes');
const JobIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._-]+$/, 'a job id is letters, digits, ".", "_" and "-"');

export const QueueParamsSchema = z.object({ queue: QueueNameSchema });
export const QueueJobParamsSchema = z.object({ queue: QueueNameSchema, id: JobIdSchema });

const count = (name: string, max: number) =>
  z.coerce
    .number({ error: `${name} must be an integer` })
    .int(`${name} must be an integer`)
    .min(0, `${name} must be at least 0`)
    .max(max, `${name} must be at most ${max}`);

export const FailedJobsQuerySchema = z
  .object({
    limit: count('limit', QUEUE_ADMIN_LIMITS.maxLimit)
      .min(1, 'limit must be at least 1')
      .default(QUEUE_ADMIN_LIMITS.defaultLimit),
    offset: count('offset', 1_000_000).default(0),
  })
  .strict();
export type FailedJobsQuery = z.infer<typeof FailedJobsQuerySchema>;

/** A retry takes no options: an empty JSON object (or no body). */
export const RetryJobBodySchema = z.object({}).strict();

export const QueueDepthSchema = z.object({
  queue: z.string(),
  /** Jobs not finished yet (queued, waiting for a retry, running): exact. */
  unfinished: z.number().int().nonnegative(),
  /** Of those, queued and running, counted over at most `QUEUE_ADMIN_LIMITS.maxCounted` of them. */
  queued: z.number().int().nonnegative(),
  running: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
});
export type QueueDepth = z.infer<typeof QueueDepthSchema>;

export const QueueListResponseSchema = z.object({
  service: z.string(),
  /** `embedded`: the queues live in this process; `distributed`: in Redis, shared with the other replicas. */
  mode: z.enum(['embedded', 'distributed']),
  queues: z.array(QueueDepthSchema),
});
export type QueueListResponse = z.infer<typeof QueueListResponseSchema>;

export const FailedJobsPageSchema = z.object({
  queue: z.string(),
  total: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  jobs: z.array(FailedJobSchema),
});
export type FailedJobsPage = z.infer<typeof FailedJobsPageSchema>;

export const RetryJobResponseSchema = z.object({
  queue: z.string(),
  id: z.string(),
  status: z.literal('queued'),
});
export type RetryJobResponse = z.infer<typeof RetryJobResponseSchema>;

/** Error codes of the admin queue API. */
export const QueueAdminErrorCodes = {
  queueNotFound: 'queue_not_found',
  jobNotFound: 'job_not_found',
  jobNotFailed: 'job_not_failed',
} as const;
