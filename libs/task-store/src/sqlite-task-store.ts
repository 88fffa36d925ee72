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
  type ExtractorKind,
} from '@lectern/contracts';

export interface TaskStoreOptions {
  /** The database file (`DB_PATH`, default `<DATA_DIR>/tasks.db`), created with its directory if missing. */
  path: string;
}

/** A task as stored: spec 003's columns (section 8) plus the upload, attempts, extractor and progress. */
export interface TaskRecord {
  task_id: string;
  status: ExtractionTaskState;
  original_filename: string;
  /** The uploaded file (`<DATA_DIR>/uploads/<task_id>/original.<ext>`). */
  upload_path: string;
  schema: Record<string, unknown>;
  extractor: ExtractorKind;
  attempts: number;
  progress: ExtractionTaskProgress;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  result: Record<string, unknown> | null;
  error: ExtractionTaskError | null;
}

export interface NewTask {
  task_id: string;
  original_filename: string;
  upload_path: string;
  schema: Record<string, unknown>;
  extractor: ExtractorKind;
}

export interface TaskPage {
  tasks: TaskRecord[];
  /** The last task id of this page: pass it back for the next (older) page; absent on the last page. */
  next_cursor?: string;
}

export interface RecoveredTasks {
  requeued: string[];
  failed: string[];
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
  progress_json TEXT NOT NULL
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
export class SqliteTaskStore {
  private readonly db: Db;

  constructor(options: TaskStoreOptions) {
    mkdirSync(dirname(options.path), { recursive: true });
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
  }

  create(task: NewTask): TaskRecord {
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

  get(taskId: string): TaskRecord | undefined {
    const row = this.db.prepare('SELECT * FROM tasks WHERE task_id = ?').get(taskId) as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** Newest first (task ids are ULIDs: they sort by creation time), `limit` per page. */
  list(options: { limit: number; cursor?: string | undefined; status?: ExtractionTaskState | undefined }): TaskPage {
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
  queuedIds(): string[] {
    return (
      this.db.prepare("SELECT task_id FROM tasks WHERE status = 'queued' ORDER BY task_id").all() as {
        task_id: string;
      }[]
    ).map((r) => r.task_id);
  }

  /** queued → running (one more attempt); undefined when the task is no longer queued (deleted, or taken). */
  claim(taskId: string, progress: ExtractionTaskProgress): TaskRecord | undefined {
    const at = now();
    const changed = this.db
      .prepare(
        "UPDATE tasks SET status = 'running', attempts = attempts + 1, started_at = ?, updated_at = ?, progress_json = ? WHERE task_id = ? AND status = 'queued'",
      )
      .run(at, at, JSON.stringify(progress), taskId).changes;
    return changed === 1 ? this.get(taskId) : undefined;
  }

  setProgress(taskId: string, progress: ExtractionTaskProgress): void {
    this.db
      .prepare("UPDATE tasks SET progress_json = ?, updated_at = ? WHERE task_id = ? AND status = 'running'")
      .run(JSON.stringify(progress), now(), taskId);
  }

  /** running → succeeded with its result; false when the task is no longer running (deleted meanwhile). */
  succeed(taskId: string, result: Record<string, unknown>): boolean {
    const at = now();
    return (
      this.db
        .prepare(
          "UPDATE tasks SET status = 'succeeded', result_json = ?, error_json = NULL, finished_at = ?, updated_at = ?, progress_json = ? WHERE task_id = ? AND status = 'running'",
        )
        .run(JSON.stringify(result), at, at, JSON.stringify({ stage: 'done' }), taskId).changes === 1
    );
  }

  /** queued or running → failed with its error. */
  fail(taskId: string, error: ExtractionTaskError): boolean {
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

  /** running → queued (a retry), keeping its attempt count. */
  requeue(taskId: string, message?: string): boolean {
    return (
      this.db
        .prepare(
          "UPDATE tasks SET status = 'queued', updated_at = ?, progress_json = ? WHERE task_id = ? AND status = 'running'",
        )
        .run(now(), JSON.stringify({ stage: 'queued', ...(message ? { message } : {}) }), taskId).changes === 1
    );
  }

  delete(taskId: string): boolean {
    return this.db.prepare('DELETE FROM tasks WHERE task_id = ?').run(taskId).changes === 1;
  }

  /**
   * At start-up: tasks left `running` by a process that died are queued again while they have attempts left
   * (`attempts <= maxRetries`), else failed with an error saying so. One transaction.
   */
  recoverInterrupted(maxRetries: number): RecoveredTasks {
    const recovered: RecoveredTasks = { requeued: [], failed: [] };
    this.db.transaction(() => {
      const rows = this.db
        .prepare("SELECT task_id, attempts FROM tasks WHERE status = 'running' ORDER BY task_id")
        .all() as { task_id: string; attempts: number }[];
      for (const row of rows) {
        if (row.attempts <= maxRetries) {
          this.requeue(
            row.task_id,
            `Interrupted by a restart; retrying (attempt ${row.attempts + 1} of ${maxRetries + 1}).`,
          );
          recovered.requeued.push(row.task_id);
        } else {
          this.fail(row.task_id, {
            code: 'task_interrupted',
            message: `The task was interrupted by a restart of the service ${row.attempts} time(s); no retries left (AGENT_MAX_RETRIES=${maxRetries}).`,
            details: ['Submit the document again to retry.'],
          });
          recovered.failed.push(row.task_id);
        }
      }
    })();
    return recovered;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private require(taskId: string): TaskRecord {
    const task = this.get(taskId);
    if (!task) throw new Error(`task ${taskId} vanished`);
    return task;
  }
}

/** The task store as its users see it (the SQLite adapter is the one implementation). */
export type TaskStore = Pick<
  SqliteTaskStore,
  | 'create'
  | 'get'
  | 'list'
  | 'queuedIds'
  | 'claim'
  | 'setProgress'
  | 'succeed'
  | 'fail'
  | 'requeue'
  | 'delete'
  | 'recoverInterrupted'
  | 'close'
>;
