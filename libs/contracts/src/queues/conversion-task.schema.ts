// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { JobStatusSchema } from './job.schema.js';

/**
 * REST bodies of the converter's asynchronous form (spec 003 section 4's task API, served on :8002):
 * `POST /tasks` -> 202 {task_id}; `GET /tasks/:id`; `GET /tasks/:id/result` (a ConversionResult, or
 * Markdown with `Accept: text/markdown`). A task is a job on the `conversion` queue: its id is the
 * job id, so the same file submitted twice is one task.
 */

export const ConversionTaskCreatedSchema = z.object({
  task_id: z.string(),
  status: JobStatusSchema,
  deduplicated: z.boolean().describe('True when the same document (and options) was already submitted.'),
});
export type ConversionTaskCreated = z.infer<typeof ConversionTaskCreatedSchema>;

export const ConversionTaskProgressSchema = z.object({
  percent: z.number().min(0).max(100),
  stage: z.string().optional(),
  page: z.number().int().optional(),
  pages: z.number().int().optional(),
});
export type ConversionTaskProgress = z.infer<typeof ConversionTaskProgressSchema>;

export const ConversionTaskErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.array(z.string()).optional(),
});

export const ConversionTaskStatusSchema = z.object({
  task_id: z.string(),
  status: JobStatusSchema,
  progress: ConversionTaskProgressSchema,
  filename: z.string(),
  fingerprint: z.string(),
  attempts: z.number().int().nonnegative(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  error: ConversionTaskErrorSchema.nullable(),
});
export type ConversionTaskStatus = z.infer<typeof ConversionTaskStatusSchema>;

/** `GET /tasks/:id/result` of a failed task (spec 003's failed shape, which is also the REST error shape). */
export const ConversionTaskFailedSchema = z.object({
  task_id: z.string(),
  status: z.literal('failed'),
  error: ConversionTaskErrorSchema,
});
export type ConversionTaskFailed = z.infer<typeof ConversionTaskFailedSchema>;
