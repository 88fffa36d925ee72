import { z } from 'zod';

/**
 * Shapes shared by every queue (`libs/queue`'s port and its two adapters): a job's status as clients see
 * it, its progress and its failure. Each queue has its own file beside this one (name, payload, result).
 */

export const JobStatusSchema = z.enum(['queued', 'running', 'succeeded', 'failed']);
export type JobStatus = z.infer<typeof JobStatusSchema>;

export const JobProgressSchema = z.object({
  percent: z.number().min(0).max(100),
  detail: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .optional()
    .describe('What the job is doing, e.g. {stage:"ocr", page:3, pages:12}.'),
});
export type JobProgress = z.infer<typeof JobProgressSchema>;

/** A failed job's error: `code` is the spec's error_type; `message` is safe to show a client. */
export const JobErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  http_status: z.number().int().min(400).max(599),
});
export type JobError = z.infer<typeof JobErrorSchema>;

/**
 * A queue's contract: its name (never renamed once shipped: workers and producers of different versions
 * meet on it), the job name, and the payload and result schemas that producers and workers parse.
 */
export interface QueueDefinition<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly jobName: string;
  readonly payload: P;
  readonly result: R;
}

export const defineQueue = <P extends z.ZodType, R extends z.ZodType>(definition: QueueDefinition<P, R>): QueueDefinition<P, R> =>
  definition;
