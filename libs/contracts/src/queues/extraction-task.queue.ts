// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { defineQueue } from './job.schema.js';

/**
 * The `extraction-task` queue (spec 003 section 8's work queue): extraction-api's `POST /tasks` enqueues a task
 * already written to its SQLite task store, which stays the durable record (status, result, attempts); the job
 * only says which task to run. Its worker (`MAX_CONCURRENT_TASKS` at once) claims the task in the store, so a task
 * runs once however often it is enqueued. Attempts are `AGENT_MAX_RETRIES + 1` (set by the app).
 */
export const EXTRACTION_TASK_QUEUE_NAME = 'extraction-task';

export const ExtractionTaskJobPayloadSchema = z.object({
  version: z.literal(1),
  /** A ULID (the task store's id). */
  task_id: z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/),
});
export type ExtractionTaskJobPayload = z.infer<typeof ExtractionTaskJobPayloadSchema>;

export const ExtractionTaskJobResultSchema = z.object({
  version: z.literal(1),
  /** What the run did to the task: its final status, or `skipped` (deleted, or already taken by another run). */
  outcome: z.enum(['succeeded', 'failed', 'skipped']),
});
export type ExtractionTaskJobResult = z.infer<typeof ExtractionTaskJobResultSchema>;

/** One job per task and enqueue: `<task_id>-<attempts so far>`, so a re-queued task is never deduplicated away. */
export const extractionTaskJobId = (taskId: string, attempts: number): string => `task-${taskId}-${attempts}`;

export const extractionTaskQueue = defineQueue({
  name: EXTRACTION_TASK_QUEUE_NAME,
  jobName: 'extract',
  payload: ExtractionTaskJobPayloadSchema,
  result: ExtractionTaskJobResultSchema,
  // spec 003 section 7: one retry (AGENT_MAX_RETRIES=1), soon after the failure
  retry: { attempts: 2, backoffMs: 1000 },
});
