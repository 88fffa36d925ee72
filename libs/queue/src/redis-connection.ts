import { Redis } from 'ioredis';

export type RedisConnection = Redis;

/**
 * One Redis connection for a service's queues (BullMQ duplicates it for its blocking reads).
 * `maxRetriesPerRequest: null` is what BullMQ workers require: commands wait for a reconnect
 * instead of failing a job because Redis blinked.
 */
export const connectRedis = (url: string): RedisConnection => new Redis(url, { maxRetriesPerRequest: null });

/** Close after every queue using it is closed (the last step of the shutdown order). */
export const closeRedis = async (connection: RedisConnection): Promise<void> => {
  if (connection.status === 'end') return;
  await connection.quit().catch(() => connection.disconnect());
};
