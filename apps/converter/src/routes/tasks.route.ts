// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  type ConversionTaskCreated,
  type ConversionTaskFailed,
  type ConversionTaskStatus,
} from '@lectern/contracts';
import { type ConversionSnapshot, type ConversionSubmitter } from '@lectern/conversion-job';
import type { FastifyInstance } from 'fastify';
import { taskSchemas } from './openapi.schemas.js';
import { receiveDocument, wantsMarkdown, type UploadLimits } from './upload.js';

/** `defaults`: the operator's limits; a task's options may lower them, never raise them. */
export interface TasksRouteDeps extends UploadLimits {
  submitter: ConversionSubmitter;
}

type Snapshot = ConversionSnapshot;

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
 * from the document's fingerprint (`conversionJobId`), so the same file submitted twice — here, or by a
 * service ingesting it — is one task and converts once.
 */
export const registerTaskRoutes = (app: FastifyInstance, deps: TasksRouteDeps): void => {
  const find = async (id: string): Promise<Snapshot> => {
    const job = await deps.submitter.getJob(id);
    if (!job) throw new AppError('task_not_found', `No task ${id}.`, { httpStatus: 404 });
    return job;
  };

  app.post('/tasks', { schema: taskSchemas.create }, async (request, reply) => {
    const { received, options } = await receiveDocument(request, deps);
    // staged where the workers read it (DATA_DIR embedded, the blob store distributed); the job's processor
    // deletes the upload when the job ends
    const handle = await deps.submitter.submit({ kind: 'received', received }, options);
    const job = await find(handle.id);
    const body: ConversionTaskCreated = { task_id: handle.id, status: job.status, deduplicated: handle.deduplicated };
    return reply.code(202).header('location', `/tasks/${handle.id}`).send(body);
  });

  app.get<{ Params: { id: string } }>('/tasks/:id', { schema: taskSchemas.status }, async (request) =>
    toStatus(await find(request.params.id)),
  );

  app.get<{ Params: { id: string } }>('/tasks/:id/result', { schema: taskSchemas.result }, async (request, reply) => {
    const job = await find(request.params.id);
    if (job.status === 'failed' && job.error) {
      const body: ConversionTaskFailed = {
        task_id: job.id,
        status: 'failed',
        error: { code: job.error.code, message: job.error.message },
      };
      return reply.code(job.error.http_status).send(body);
    }
    if (job.status !== 'succeeded' || !job.result) {
      throw new AppError('task_not_finished', `Task ${job.id} is ${job.status}; poll GET /tasks/${job.id}.`, {
        httpStatus: 409,
      });
    }
    const result = await deps.submitter.loadResult(job.result);
    if (wantsMarkdown(request)) return reply.type('text/markdown; charset=utf-8').send(result.markdown);
    return result;
  });
};
