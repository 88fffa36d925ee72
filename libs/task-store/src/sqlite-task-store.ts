// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database, { type Database as Db } from 'better-sqlite3';
import {
  ExtractionTaskErrorSchema,
  ExtractionTaskProgressSchema,
  ExtractorKindSchema,
  ExtractionTaskStatusEnum,
  type ExtractionTaskError,
  type ExtractionTaskProgress,
  type ExtractionTaskState,
} from '@lectern/contracts';
import {
  interruptedError,
  interruptedMessage,
  type NewTask,
  type RecoveredTasks,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
} from './task-store.port.js';

export interface SqliteTaskStoreOptions {
  /** The database file (`DB_PATH`, default `<DATA_DIR>/tasks.db`), created with its directory if missing. */
  path: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tasks (
  task_id TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  original_filename TEXT NOT NULL,
  schema_json TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  result_json TEXT,
  error_json TEXT,
  upload_path TEXT NOT NULL,
  extractor TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  progress_json TEXT NOT NULL,
  job_id TEXT
);
CREATE INDEX IF NOT EXISTS tasks_by_status ON tasks(status, task_id);
`;

interface Row {
  task_id: string;
  status: string;
  original_filename: string;
  schema_json: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  result_json: string | null;
  error_json: string | null;
  upload_path: string;
  extractor: string;
  attempts: number;
  progress_json: string;
}

const toRecord = (row: Row): TaskRecord => ({
  task_id: row.task_id,
  status: ExtractionTaskStatusEnum.parse(row.status),
  original_filename: row.original_filename,
  upload_path: row.upload_path,
  schema: JSON.parse(row.schema_json) as Record<string, unknown>,
  extractor: ExtractorKindSchema.parse(row.extractor),
  attempts: row.attempts,
  progress: ExtractionTaskProgressSchema.parse(JSON.parse(row.progress_json)),
  created_at: row.created_at,
  updated_at: row.updated_at,
  started_at: row.started_at,
  finished_at: row.finished_at,
  result: row.result_json === null ? null : (JSON.parse(row.result_json) as Record<string, unknown>),
  error: row.error_json === null ? null : ExtractionTaskErrorSchema.parse(JSON.parse(row.error_json)),
});

const now = () => new Date().toISOString();

/**
 * Spec 003's task table in one SQLite file (WAL). Every method commits before it returns (better-sqlite3 is
 * synchronous), so a state change is on disk before the API acknowledges it; transitions are guarded by the
 * current status in the same statement, so a task is claimed by one worker only. One process owns the file.
 */
export class SqliteTaskStore implements TaskStore {
  readonly shared = false;
  private readonly db: Db;

  constructor(options: SqliteTaskStoreOptions) {
    mkdirSync(dirname(options.path), { recursive: true });
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    // files written before job ids were kept
    const columns = this.db.prepare('PRAGMA table_info(tasks)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'job_id')) this.db.exec('ALTER TABLE tasks ADD COLUMN job_id TEXT');
  }

  async create(task: NewTask): Promise<TaskRecord> {
    const at = now();
    this.db
      .prepare(
        `INSERT INTO tasks (task_id, status, original_filename, schema_json, created_at, updated_at, upload_path, extractor, attempts, progress_json)
         VALUES (?, 'queued', ?, ?, ?, ?, ?, ?, 0, ?)`,
      )
      .run(
        task.task_id,
        task.original_filename,
        JSON.stringify(task.schema),
        at,
        at,
        task.upload_path,
        task.extractor,
        JSON.stringify({ stage: 'queued' }),
      );
    return this.require(task.task_id);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return this.getSync(taskId);
  }

  private getSync(taskId: string): TaskRecord | undefined {
    const row = this.db.prepare('SELECT * FROM tasks WHERE task_id = ?').get(taskId) as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** Newest first (task ids are ULIDs: they sort by creation time), `limit` per page. */
  async list(options: {
    limit: number;
    cursor?: string | undefined;
    status?: ExtractionTaskState | undefined;
  }): Promise<TaskPage> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (options.cursor) {
      where.push('task_id < ?');
      params.push(options.cursor);
    }
    if (options.status) {
      where.push('status = ?');
      params.push(options.status);
    }
    const rows = this.db
      .prepare(
        `SELECT * FROM tasks ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY task_id DESC LIMIT ?`,
      )
      .all(...params, options.limit + 1) as Row[];
    const tasks = rows.slice(0, options.limit).map(toRecord);
    const last = tasks.at(-1);
    return rows.length > options.limit && last ? { tasks, next_cursor: last.task_id } : { tasks };
  }

  /** Queued task ids, oldest first (the order workers take them). */
  async queuedIds(): Promise<string[]> {
    return (
      this.db.prepare("SELECT task_id FROM tasks WHERE status = 'queued' ORDER BY task_id").all() as {
        task_id: string;
      }[]
    ).map((r) => r.task_id);
  }

  async claim(taskId: string, progress: ExtractionTaskProgress, jobId?: string): Promise<TaskRecord | undefined> {
    const at = now();
    const changed = this.db
      .prepare(
        "UPDATE tasks SET status = 'running', attempts = attempts + 1, started_at = ?, updated_at = ?, progress_json = ?, job_id = ? WHERE task_id = ? AND (status = 'queued' OR (status = 'running' AND job_id IS NOT NULL AND job_id = ?))",
      )
      .run(at, at, JSON.stringify(progress), jobId ?? null, taskId, jobId ?? null).changes;
    return changed === 1 ? this.getSync(taskId) : undefined;
  }

  async setProgress(taskId: string, progress: ExtractionTaskProgress): Promise<void> {
    this.db
      .prepare("UPDATE tasks SET progress_json = ?, updated_at = ? WHERE task_id = ? AND status = 'running'")
      .run(JSON.stringify(progress), now(), taskId);
  }

  /** running → succeeded with its result; false when the task is no longer running (deleted meanwhile). */
  async succeed(taskId: string, result: Record<string, unknown>): Promise<boolean> {
    const at = now();
    return (
      this.db
        .prepare(
          "UPDATE tasks SET status = 'succeeded', result_json = ?, error_json = NULL, finished_at = ?, updated_at = ?, progress_json = ? WHERE task_id = ? AND status = 'running'",
        )
        .run(JSON.stringify(result), at, at, JSON.stringify({ stage: 'done' }), taskId).changes === 1
    );
  }

  async fail(taskId: string, error: ExtractionTaskError): Promise<boolean> {
    return this.failSync(taskId, error);
  }

  private failSync(taskId: string, error: ExtractionTaskError): boolean {
    const at = now();
    return (
      this.db
        .prepare(
          "UPDATE tasks SET status = 'failed', error_json = ?, finished_at = ?, updated_at = ?, progress_json = ? WHERE task_id = ? AND status IN ('queued', 'running')",
        )
        .run(JSON.stringify(ExtractionTaskErrorSchema.parse(error)), at, at, JSON.stringify({ stage: 'done' }), taskId)
        .changes === 1
    );
  }

  async requeue(taskId: string, message?: string): Promise<boolean> {
    return this.requeueSync(taskId, message);
  }

  private requeueSync(taskId: string, message?: string): boolean {
    return (
      this.db
        .prepare(
          "UPDATE tasks SET status = 'queued', updated_at = ?, progress_json = ? WHERE task_id = ? AND status = 'running'",
        )
        .run(now(), JSON.stringify({ stage: 'queued', ...(message ? { message } : {}) }), taskId).changes === 1
    );
  }

  async delete(taskId: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM tasks WHERE task_id = ?').run(taskId).changes === 1;
  }

  /**
   * At start-up: tasks left `running` by a process that died (this process owns the file, so every one) are queued
   * again while they have attempts left (`attempts <= maxRetries`), else failed with an error saying so. One transaction.
   */
  async recoverInterrupted(maxRetries: number): Promise<RecoveredTasks> {
    const recovered: RecoveredTasks = { requeued: [], failed: [] };
    this.db.transaction(() => {
      const rows = this.db
        .prepare("SELECT task_id, attempts FROM tasks WHERE status = 'running' ORDER BY task_id")
        .all() as { task_id: string; attempts: number }[];
      for (const row of rows) {
        if (row.attempts <= maxRetries) {
          this.requeueSync(row.task_id, interruptedMessage(row.attempts, maxRetries));
          recovered.requeued.push(row.task_id);
        } else {
          this.failSync(row.task_id, interruptedError(row.attempts, maxRetries));
          recovered.failed.push(row.task_id);
        }
      }
    })();
    return recovered;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private require(taskId: string): TaskRecord {
    const task = this.getSync(taskId);
    if (!task) throw new Error(`task ${taskId} vanished`);
    return task;
  }
}
