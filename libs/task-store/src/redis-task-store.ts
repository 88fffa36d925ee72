// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  ExtractionTaskErrorSchema,
  ExtractionTaskProgressSchema,
  ExtractionTaskStatusEnum,
  ExtractorKindSchema,
  type ExtractionTaskError,
  type ExtractionTaskProgress,
  type ExtractionTaskState,
} from '@lectern/contracts';
import { Redis } from 'ioredis';
import type { NewTask, RecoveredTasks, TaskPage, TaskRecord, TaskStore } from './task-store.port.js';

export interface RedisTaskStoreOptions {
  url: string;
  /** Prepended to every key (default `lectern:tasks:`; tests give each run its own). */
  keyPrefix?: string | undefined;
}

/**
 * A guarded status change of task hash KEYS[1]: applies when its status is one of ARGV[2] (space separated), or
 * when it is `running` under job ARGV[5] (a re-delivered job re-claims its task); then status ARGV[3], attempts
 * + ARGV[4], the field/value pairs from ARGV[6] on (an empty value deletes the field: null), and the per-status
 * sets (`<prefix ARGV[1]>status:<status>`) follow. 1 when applied, 0 otherwise.
 */
const TRANSITION = `
local cur = redis.call('HGET', KEYS[1], 'status')
if not cur then return 0 end
local ok = false
for s in string.gmatch(ARGV[2], '%S+') do if s == cur then ok = true end end
if not ok and ARGV[5] ~= '' and cur == 'running' and redis.call('HGET', KEYS[1], 'job_id') == ARGV[5] then ok = true end
if not ok then return 0 end
if ARGV[3] ~= cur then
  local id = redis.call('HGET', KEYS[1], 'task_id')
  redis.call('ZREM', ARGV[1] .. 'status:' .. cur, id)
  redis.call('ZADD', ARGV[1] .. 'status:' .. ARGV[3], 0, id)
  redis.call('HSET', KEYS[1], 'status', ARGV[3])
end
if ARGV[4] ~= '0' then redis.call('HINCRBY', KEYS[1], 'attempts', tonumber(ARGV[4])) end
for i = 6, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', KEYS[1], ARGV[i]) else redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
return 1
`;

/** Deletes task hash KEYS[1] and its index entries; 1 when there was one. */
const DELETE = `
local cur = redis.call('HGET', KEYS[1], 'status')
if not cur then return 0 end
local id = redis.call('HGET', KEYS[1], 'task_id')
redis.call('DEL', KEYS[1])
redis.call('ZREM', ARGV[1] .. 'all', id)
redis.call('ZREM', ARGV[1] .. 'status:' .. cur, id)
return 1
`;

type Scripts = Redis & {
  taskTransition(task: string, ...args: string[]): Promise<number>;
  taskDelete(task: string, prefix: string): Promise<number>;
};

const now = () => new Date().toISOString();
const json = (value: unknown): string => JSON.stringify(value);

const toRecord = (h: Record<string, string>): TaskRecord | undefined => {
  if (!h['task_id'] || !h['status']) return undefined;
  return {
    task_id: h['task_id'],
    status: ExtractionTaskStatusEnum.parse(h['status']),
    original_filename: h['original_filename'] ?? '',
    upload_path: h['upload_path'] ?? '',
    schema: JSON.parse(h['schema_json'] ?? '{}') as Record<string, unknown>,
    extractor: ExtractorKindSchema.parse(h['extractor']),
    attempts: Number(h['attempts'] ?? 0),
    progress: ExtractionTaskProgressSchema.parse(JSON.parse(h['progress_json'] ?? '{"stage":"queued"}')),
    created_at: h['created_at'] ?? '',
    updated_at: h['updated_at'] ?? '',
    started_at: h['started_at'] ?? null,
    finished_at: h['finished_at'] ?? null,
    result: h['result_json'] ? (JSON.parse(h['result_json']) as Record<string, unknown>) : null,
    error: h['error_json'] ? ExtractionTaskErrorSchema.parse(JSON.parse(h['error_json'])) : null,
  };
};

/**
 * Spec 003's task table in Redis, for any number of extraction-api replicas: a hash per task
 * (`<prefix>task:<id>`, the SQLite adapter's columns as fields, a null one absent), the ids in `<prefix>all` and
 * in `<prefix>status:<status>` (sorted sets with score 0, so ordered by the ULID itself: newest first is a reverse
 * lexical range). Every status change is one Lua script guarded by the current status, so a task is claimed once
 * across replicas. Commands wait for a reconnect while Redis restarts (ioredis' default retries), and with
 * Redis' append-only file nothing acknowledged is lost.
 */
export class RedisTaskStore implements TaskStore {
  readonly shared = true;
  private readonly redis: Scripts;
  private readonly prefix: string;

  constructor(options: RedisTaskStoreOptions) {
    this.prefix = options.keyPrefix ?? 'lectern:tasks:';
    const redis = new Redis(options.url, { connectionName: 'lectern-task-store' });
    redis.on('error', () => undefined); // reconnects by itself; commands report the failure to their callers
    redis.defineCommand('taskTransition', { numberOfKeys: 1, lua: TRANSITION });
    redis.defineCommand('taskDelete', { numberOfKeys: 1, lua: DELETE });
    this.redis = redis as Scripts;
  }

  private key(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  private transition(
    taskId: string,
    from: ExtractionTaskState[],
    to: ExtractionTaskState,
    fields: Record<string, string | null>,
    options: { attempts?: number; jobId?: string } = {},
  ): Promise<boolean> {
    const pairs = Object.entries(fields).flatMap(([k, v]) => [k, v ?? '']);
    return this.redis
      .taskTransition(
        this.key(taskId),
        this.prefix,
        from.join(' '),
        to,
        String(options.attempts ?? 0),
        options.jobId ?? '',
        ...pairs,
      )
      .then((applied) => applied === 1);
  }

  async create(task: NewTask): Promise<TaskRecord> {
    const at = now();
    await this.redis
      .multi()
      .hset(this.key(task.task_id), {
        task_id: task.task_id,
        status: 'queued',
        original_filename: task.original_filename,
        upload_path: task.upload_path,
        schema_json: json(task.schema),
        extractor: task.extractor,
        attempts: '0',
        progress_json: json({ stage: 'queued' }),
        created_at: at,
        updated_at: at,
      })
      .zadd(`${this.prefix}all`, 0, task.task_id)
      .zadd(`${this.prefix}status:queued`, 0, task.task_id)
      .exec();
    const created = await this.get(task.task_id);
    if (!created) throw new Error(`task ${task.task_id} vanished`);
    return created;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return toRecord(await this.redis.hgetall(this.key(taskId)));
  }

  async list(options: {
    limit: number;
    cursor?: string | undefined;
    status?: ExtractionTaskState | undefined;
  }): Promise<TaskPage> {
    const index = options.status ? `${this.prefix}status:${options.status}` : `${this.prefix}all`;
    const ids = await this.redis.zrevrangebylex(
      index,
      options.cursor ? `(${options.cursor}` : '+',
      '-',
      'LIMIT',
      0,
      options.limit + 1,
    );
    const batch = this.redis.pipeline();
    for (const id of ids.slice(0, options.limit)) batch.hgetall(this.key(id));
    const rows = (await batch.exec()) ?? [];
    const tasks = rows
      .map(([, h]) => toRecord((h ?? {}) as Record<string, string>))
      .filter((t): t is TaskRecord => t !== undefined);
    const last = tasks.at(-1);
    return ids.length > options.limit && last ? { tasks, next_cursor: last.task_id } : { tasks };
  }

  async queuedIds(): Promise<string[]> {
    return this.redis.zrange(`${this.prefix}status:queued`, 0, -1);
  }

  async claim(taskId: string, progress: ExtractionTaskProgress, jobId?: string): Promise<TaskRecord | undefined> {
    const at = now();
    const claimed = await this.transition(
      taskId,
      ['queued'],
      'running',
      { started_at: at, updated_at: at, progress_json: json(progress), job_id: jobId ?? null },
      { attempts: 1, ...(jobId ? { jobId } : {}) },
    );
    return claimed ? this.get(taskId) : undefined;
  }

  async setProgress(taskId: string, progress: ExtractionTaskProgress): Promise<void> {
    await this.transition(taskId, ['running'], 'running', { progress_json: json(progress), updated_at: now() });
  }

  async succeed(taskId: string, result: Record<string, unknown>): Promise<boolean> {
    const at = now();
    return this.transition(taskId, ['running'], 'succeeded', {
      result_json: json(result),
      error_json: null,
      finished_at: at,
      updated_at: at,
      progress_json: json({ stage: 'done' }),
    });
  }

  async fail(taskId: string, error: ExtractionTaskError): Promise<boolean> {
    const at = now();
    return this.transition(taskId, ['queued', 'running'], 'failed', {
      error_json: json(ExtractionTaskErrorSchema.parse(error)),
      finished_at: at,
      updated_at: at,
      progress_json: json({ stage: 'done' }),
    });
  }

  async requeue(taskId: string, message?: string): Promise<boolean> {
    return this.transition(taskId, ['running'], 'queued', {
      updated_at: now(),
      progress_json: json({ stage: 'queued', ...(message ? { message } : {}) }),
    });
  }

  async delete(taskId: string): Promise<boolean> {
    return (await this.redis.taskDelete(this.key(taskId), this.prefix)) === 1;
  }

  /** Shared by every replica: a running task may be another's; the queue re-delivers a dead worker's job. */
  async recoverInterrupted(): Promise<RecoveredTasks> {
    return { requeued: [], failed: [] };
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
