import {
  AppError,
  conversionJobId,
  type ConversionJobPayload,
  type ConversionJobResult,
  type ConversionTaskCreated,
  type ConversionTaskFailed,
  type ConversionTaskStatus,
} from '@lectern/contracts';
import { loadConversionResult, type ConversionLimits, type JobQueue, type JobSnapshot } from '@lectern/queue';
import type { FastifyInstance } from 'fastify';
import { receiveDocument, wantsMarkdown } from './upload.js';

export interface TasksRouteDeps {
  dataDir: string;
  maxBytes: number;
  /** The operator's limits: a task's options may lower them, never raise them. */
  defaults: Partial<ConversionLimits>;
  queue: JobQueue<ConversionJobPayload, ConversionJobResult>;
}

type Snapshot = JobSnapshot<ConversionJobPayload, ConversionJobResult>;

const toStatus = (job: Snapshot): ConversionTaskStatus => {
  const { stage, page, pages } = job.progress.detail ?? {};
  return {
    task_id: job.id,
    status: job.status,
    progress: {
      percent: job.progress.percent,
      ...(typeof stage === 'string' ? { stage } : {}),
      ...(typeof page === 'number' ? { page } : {}),
      ...(typeof pages === 'number' ? { pages } : {}),
    },
    filename: job.payload.filename,
    fingerprint: job.payload.sha256,
    attempts: job.attempts,
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
    error: job.error ? { code: job.error.code, message: job.error.message } : null,
  };
};

/**
 * The asynchronous form (spec 003's task API): a task is a job on the `conversion` queue whose id comes
 * from the document's fingerprint, so the same file submitted twice is one task and converts once.
 */
export const registerTaskRoutes = (app: FastifyInstance, deps: TasksRouteDeps): void => {
  const find = async (id: string): Promise<Snapshot> => {
    const job = await deps.queue.getJob(id);
    if (!job) throw new AppError('task_not_found', `No task ${id}.`, { httpStatus: 404 });
    return job;
  };

  app.post('/tasks', async (request, reply) => {
    const { staged, options } = await receiveDocument(request, deps);
    const payload: ConversionJobPayload = {
      version: 1,
      file: staged.file,
      filename: staged.filename,
      sha256: staged.sha256,
      byte_size: staged.byteSize,
      options,
    };
    const handle = await deps.queue.add(payload, { jobId: conversionJobId(staged.sha256, options) });
    const job = await find(handle.id);
    const body: ConversionTaskCreated = { task_id: handle.id, status: job.status, deduplicated: handle.deduplicated };
    return reply.code(202).send(body);
  });

  app.get<{ Params: { id: string } }>('/tasks/:id', async (request) => toStatus(await find(request.params.id)));

  app.get<{ Params: { id: string } }>('/tasks/:id/result', async (request, reply) => {
    const job = await find(request.params.id);
    if (job.status === 'failed' && job.error) {
      const body: ConversionTaskFailed = { task_id: job.id, status: 'failed', error: { code: job.error.code, message: job.error.message } };
      return reply.code(job.error.http_status).send(body);
    }
    if (job.status !== 'succeeded' || !job.result) {
      throw new AppError('task_not_finished', `Task ${job.id} is ${job.status}; poll GET /tasks/${job.id}.`, { httpStatus: 409 });
    }
    const result = await loadConversionResult(deps.dataDir, job.result);
    if (wantsMarkdown(request)) return reply.type('text/markdown; charset=utf-8').send(result.markdown);
    return result;
  });
};
