// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, QUEUE_CATALOG, queueNames, type FailedJob, type QueueDefinition } from '@lectern/contracts';
import { createPlatform, type Platform } from '@lectern/platform';
import { envString, envUrl, parseEnv } from '@lectern/runtime';
import type { Command } from 'commander';
import { pino } from 'pino';
import { z } from 'zod';
import type { CliContext } from '../cli.js';

/** The services' Redis (the same variable they read) and, for tests, their BullMQ key prefix. */
const QueueEnvSchema = z.object({ REDIS_URL: envUrl(), LECTERN_QUEUE_PREFIX: envString() });

const LIMIT_MAX = 1000;
const count =
  (name: string, max: number) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > max)
      throw new AppError('invalid_arguments', `--${name} must be an integer from 0 to ${max}`);
    return n;
  };

const pickQueues = (name: string | undefined): QueueDefinition[] => {
  if (name === undefined) return [...QUEUE_CATALOG];
  const found = QUEUE_CATALOG.find((q) => q.name === name);
  if (!found) throw new AppError('invalid_arguments', `Unknown queue "${name}"; queues: ${queueNames().join(', ')}`);
  return [found];
};

/** The queues live in Redis only in distributed mode; embedded, they are inside each service's process. */
const withQueues = async <T>(ctx: CliContext, run: (platform: Platform) => Promise<T>): Promise<T> => {
  const env = parseEnv(QueueEnvSchema, ctx.io.env);
  if (!env.REDIS_URL) {
    throw new AppError(
      'embedded_mode',
      'REDIS_URL is not set: without Redis (embedded mode) every queue lives inside its service process and ends with it. ' +
        "Set REDIS_URL to the services' Redis.",
    );
  }
  const platform = createPlatform({
    dataDir: ctx.config.DATA_DIR,
    log: pino({ level: 'silent' }),
    redisUrl: env.REDIS_URL,
    redisPrefix: env.LECTERN_QUEUE_PREFIX,
  });
  try {
    return await run(platform);
  } finally {
    await platform.close();
  }
};

/**
 * `lectern queue failed [--queue Q] [--limit N] [--offset N] [--json]`: the failed jobs kept in Redis, newest
 * failure first, with their error; `lectern queue retry <job-id...> | --all [--queue Q]`: run failed jobs again
 * from their first attempt (exit code 1 when an id is not a failed job).
 */
export const registerQueueCommand = (program: Command, context: () => CliContext): void => {
  const queue = program
    .command('queue')
    .description("inspect and retry failed jobs of the services' queues (distributed mode, REDIS_URL)");
  queue
    .command('failed')
    .description('list failed jobs, newest failure first')
    .option('-q, --queue <name>', `one queue (${queueNames().join(', ')}); default: all`)
    .option('-n, --limit <n>', `jobs per queue (1-${LIMIT_MAX})`, count('limit', LIMIT_MAX), 50)
    .option('--offset <n>', 'skip the newest n failures', count('offset', Number.MAX_SAFE_INTEGER), 0)
    .option('--json', 'print one JSON object: {queues: [{queue, total, jobs: [...]}]}')
    .action(async (opts: { queue?: string; limit: number; offset: number; json?: boolean }) => {
      const ctx = context();
      const definitions = pickQueues(opts.queue);
      const pages = await withQueues(ctx, (platform) =>
        Promise.all(
          definitions.map(async (definition) => {
            const page = await platform
              .queue(definition)
              .listFailed({ offset: opts.offset, limit: Math.max(1, opts.limit) });
            const jobs: FailedJob[] = page.jobs.map((job) => ({
              queue: definition.name,
              id: job.id,
              attempts: job.attempts,
              created_at: job.createdAt.toISOString(),
              failed_at: job.updatedAt.toISOString(),
              error: job.error ?? { code: 'internal_error', message: 'no error recorded', http_status: 500 },
            }));
            return { queue: definition.name, total: page.total, jobs };
          }),
        ),
      );
      if (opts.json) {
        ctx.io.stdout(`${JSON.stringify({ queues: pages })}\n`);
        return;
      }
      for (const page of pages) {
        ctx.io.stdout(
          `${page.queue}: ${page.total} failed${page.total > page.jobs.length ? ` (showing ${page.jobs.length})` : ''}\n`,
        );
        for (const job of page.jobs) {
          ctx.io.stdout(
            `  ${job.id}  failed ${job.failed_at} after ${job.attempts} attempt(s)  ${job.error.code}: ${job.error.message}\n`,
          );
        }
      }
    });
  queue
    .command('retry')
    .description('run failed jobs again from their first attempt')
    .argument('[job-ids...]', 'ids as `queue failed` prints them')
    .option('-q, --queue <name>', `one queue (${queueNames().join(', ')}); default: all`)
    .option('--all', 'every failed job (of --queue, else of every queue)')
    .action(async (ids: string[], opts: { queue?: string; all?: boolean }) => {
      const ctx = context();
      if (opts.all === Boolean(ids.length)) throw new AppError('invalid_arguments', 'give job ids or --all (not both)');
      const definitions = pickQueues(opts.queue);
      const missing = await withQueues(ctx, async (platform) => {
        const left = new Set(ids);
        for (const definition of definitions) {
          const q = platform.queue(definition);
          const targets = opts.all ? await allFailedIds(q) : [...left];
          for (const id of targets) {
            if (await q.retry(id)) {
              left.delete(id);
              ctx.io.stdout(`retried ${definition.name}/${id}\n`);
            }
          }
        }
        return opts.all ? [] : [...left];
      });
      if (missing.length > 0) throw new AppError('job_not_failed', `not a failed job: ${missing.join(', ')}`);
    });
};

const allFailedIds = async (q: ReturnType<Platform['queue']>): Promise<string[]> => {
  const ids: string[] = [];
  for (let offset = 0; ; offset += LIMIT_MAX) {
    const page = await q.listFailed({ offset, limit: LIMIT_MAX });
    ids.push(...page.jobs.map((j) => j.id));
    if (page.jobs.length < LIMIT_MAX) return ids;
  }
};
