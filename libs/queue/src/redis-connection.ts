// SPDX-License-Identifier: AGPL-3.0-or-later
import { createRequire } from 'node:module';
import { AppError, CommonErrorCodes } from '@lectern/contracts';
import type * as IoRedis from 'ioredis';
import type { Redis } from 'ioredis';

export type RedisConnection = Redis;

/** ioredis, loaded on first use (as BullMQ in bullmq.adapter.ts): only distributed mode connects to Redis. */
let ioredisModule: typeof IoRedis | undefined;
const ioredis = (): typeof IoRedis => (ioredisModule ??= createRequire(import.meta.url)('ioredis') as typeof IoRedis);

/**
 * One Redis connection for a service's queues (BullMQ duplicates it for its blocking reads).
 * `maxRetriesPerRequest: null` is what BullMQ workers require: commands wait for a reconnect
 * instead of failing a job because Redis blinked.
 */
export const connectRedis = (url: string): RedisConnection =>
  new (ioredis().Redis)(url, { maxRetriesPerRequest: null });

/** Close after every queue using it is closed (the last step of the shutdown order). */
export const closeRedis = async (connection: RedisConnection): Promise<void> => {
  if (connection.status === 'end') return;
  await connection.quit().catch(() => connection.disconnect());
};

/** `dependency_unavailable` (503): Redis is down; nothing was done, the caller may try again. */
export const redisUnavailable = (what: string): AppError =>
  new AppError(CommonErrorCodes.dependencyUnavailable, `Redis is unavailable (${what}); try again shortly`, {
    httpStatus: 503,
  });

/** Connection states in which Redis is known to be unreachable (lost and retrying, or closed). */
const DOWN = new Set(['reconnecting', 'close', 'end']);

/** How long a producer's Redis commands may take before the call answers `dependency_unavailable`. */
export const REDIS_PRODUCER_TIMEOUT_MS = 5_000;

/**
 * Run a producer's Redis commands failing fast (issue 30: an ingest hung 30 s while Redis was down). The shared
 * connection waits for a reconnect on purpose (`maxRetriesPerRequest: null`, which BullMQ's workers need), so a
 * request made on behalf of a client checks first: while the connection is known to be down it answers at once;
 * otherwise the commands are bounded by `timeoutMs` (a connection still being set up, or Redis dying mid-call).
 * On that timeout the commands are not cancelled (ioredis cannot): they may still land after a reconnect, which
 * the queues' content-derived job ids make harmless (the retried call finds the job).
 */
export const withRedis = async <T>(
  connection: RedisConnection,
  what: string,
  op: () => Promise<T>,
  timeoutMs = REDIS_PRODUCER_TIMEOUT_MS,
): Promise<T> => {
  if (DOWN.has(connection.status)) throw redisUnavailable(what);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(redisUnavailable(what)), timeoutMs);
  });
  const work = op();
  work.catch(() => {}); // answered by the deadline: a later failure is nobody's
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
};

/** Resolves when Redis answers a PING (readiness); fails at once while the connection is down. */
export const pingRedis = async (connection: RedisConnection, timeoutMs = 1_000): Promise<void> => {
  await withRedis(connection, 'ping', () => connection.ping(), timeoutMs);
};
