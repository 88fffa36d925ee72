// SPDX-License-Identifier: AGPL-3.0-or-later
export type {
  AddJobOptions,
  JobContext,
  JobHandle,
  JobHandler,
  JobQueue,
  JobSnapshot,
  JobWorker,
  ProcessOptions,
  QueueLogger,
  RetryOptions,
} from './job-queue.port.js';
export { createInProcessQueue } from './in-process.adapter.js';
export type { InProcessQueueOptions } from './in-process.adapter.js';
export { createBullmqQueue } from './bullmq.adapter.js';
export type { BullmqQueueOptions } from './bullmq.adapter.js';
export { connectRedis, closeRedis, pingRedis, redisUnavailable, withRedis } from './redis-connection.js';
export type { RedisConnection } from './redis-connection.js';
export { isPermanentError, JOB_STALLED, markPermanent, toJobError } from './job-error.js';
