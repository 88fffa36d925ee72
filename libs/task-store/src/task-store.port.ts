// SPDX-License-Identifier: AGPL-3.0-or-later
import type {
  ExtractionTaskError,
  ExtractionTaskProgress,
  ExtractionTaskState,
  ExtractorKind,
} from '@lectern/contracts';

/** A task as stored: spec 003's columns (section 8) plus the upload, attempts, extractor and progress. */
export interface TaskRecord {
  task_id: string;
  status: ExtractionTaskState;
  original_filename: string;
  /**
   * The uploaded file where the replica that received it kept it (`<DATA_DIR>/uploads/<task_id>/original.<ext>`);
   * in distributed mode another replica fetches it from the blob store into its own DATA_DIR.
   */
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

/**
 * extraction-api's durable record of its tasks (spec 003 section 8). Every change is stored before the call returns
 * and guarded by the current status in one atomic step, so a task is claimed by one worker however many replicas
 * and queue deliveries there are. Two adapters, one contract suite (`task-store.contract.ts`): SQLite (embedded,
 * one process owns the file) and Redis (distributed, any number of API replicas).
 */
export interface TaskStore {
  /**
   * True when other processes use the same store (Redis): a task `running` at start-up may be another replica's,
   * so start-up recovery leaves it to the queue (a killed worker's job is delivered again and re-claims its task).
   */
  readonly shared: boolean;
  create(task: NewTask): Promise<TaskRecord>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Newest first (task ids are ULIDs: they sort by creation time), `limit` per page. */
  list(options: {
    limit: number;
    cursor?: string | undefined;
    status?: ExtractionTaskState | undefined;
  }): Promise<TaskPage>;
  /** Queued task ids, oldest first (the order workers take them). */
  queuedIds(): Promise<string[]>;
  /**
   * queued → running (one more attempt), remembering `jobId`; also running → running for the same `jobId` (the queue
   * delivered that job again because the worker running it died, so its attempt is over). Undefined when the task
   * cannot be claimed (deleted, finished, or running under another job).
   */
  claim(taskId: string, progress: ExtractionTaskProgress, jobId?: string): Promise<TaskRecord | undefined>;
  /** Progress of a running task (ignored otherwise). */
  setProgress(taskId: string, progress: ExtractionTaskProgress): Promise<void>;
  /** running → succeeded with its result; false when the task is no longer running (deleted meanwhile). */
  succeed(taskId: string, result: Record<string, unknown>): Promise<boolean>;
  /** queued or running → failed with its error. */
  fail(taskId: string, error: ExtractionTaskError): Promise<boolean>;
  /** running → queued (a retry), keeping its attempt count. */
  requeue(taskId: string, message?: string): Promise<boolean>;
  delete(taskId: string): Promise<boolean>;
  /**
   * At start-up, for a store this process owns (`shared` false): tasks left `running` are queued again while
   * `attempts <= maxRetries`, else failed with `task_interrupted`. A shared store returns nothing changed.
   */
  recoverInterrupted(maxRetries: number): Promise<RecoveredTasks>;
  close(): Promise<void>;
}

export const interruptedMessage = (attempts: number, maxRetries: number): string =>
  `Interrupted by a restart; retrying (attempt ${attempts + 1} of ${maxRetries + 1}).`;

/** The error of a task whose attempts were all interrupted (restarts, killed workers). */
export const interruptedError = (attempts: number, maxRetries: number): ExtractionTaskError => ({
  code: 'task_interrupted',
  message: `The task was interrupted by a restart of the service ${attempts} time(s); no retries left (AGENT_MAX_RETRIES=${maxRetries}).`,
  details: ['Submit the document again to retry.'],
});
