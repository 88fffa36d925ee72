import {
  AppError,
  CommonErrorCodes,
  ExtractionSchemaSkeleton,
  ExtractionTaskListQuerySchema,
  EXTRACTION_SCHEMA_LIMITS,
  type ExtractionResult,
  type ExtractionTaskCreated,
  type ExtractionTaskFailed,
  type ExtractionTaskList,
  type ExtractionTaskStatus,
} from '@lectern/contracts';
import { discardReceivedFile, receiveConversionFile, type ReceivedFile } from '@lectern/conversion-job';
import type { ExtractionRunner } from '@lectern/extraction';
import { keepTaskUpload, newTaskId, removeTaskUpload, type TaskRecord, type TaskStore } from '@lectern/task-store';
import { describeZodError, readMultipartUpload } from '@lectern/transport';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerPageImageRoutes } from './page-image.route.js';
import { extractionTaskSchemas } from './tasks.openapi.js';

export interface TaskRoutesDeps {
  store: TaskStore;
  runner: ExtractionRunner;
  dataDir: string;
  maxUploadBytes: number;
}

const invalid = (message: string, httpStatus = 400) =>
  new AppError(CommonErrorCodes.invalidArguments, message, { httpStatus });
const TASK_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

const toStatus = (task: TaskRecord): ExtractionTaskStatus => ({
  task_id: task.task_id,
  status: task.status,
  created_at: task.created_at,
  updated_at: task.updated_at,
  started_at: task.started_at,
  finished_at: task.finished_at,
  original_filename: task.original_filename,
  extractor: task.extractor,
  attempts: task.attempts,
  progress: task.progress,
  error: task.error,
});

const parseSchema = (raw: string | undefined): Record<string, unknown> => {
  if (raw === undefined) throw invalid('The multipart field "schema" (a JSON object skeleton) is missing.');
  if (Buffer.byteLength(raw) > EXTRACTION_SCHEMA_LIMITS.maxBytes)
    throw invalid(`The schema is larger than ${EXTRACTION_SCHEMA_LIMITS.maxBytes} bytes.`, 413);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw invalid(
      'The "schema" field is not valid JSON; send a JSON object skeleton such as {"max_dc_voltage": "", "models": []}.',
    );
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw invalid('The "schema" field must be a JSON object skeleton (not an array or a scalar).');
  const parsed = ExtractionSchemaSkeleton.safeParse(json);
  if (!parsed.success) throw invalid(`Invalid "schema": ${describeZodError(parsed.error)}`);
  return parsed.data;
};

/** Read `file` (streamed to DATA_DIR/uploads, at most `maxBytes`) and `schema`; a refused request leaves nothing behind. */
const receiveTask = async (
  request: FastifyRequest,
  deps: TaskRoutesDeps,
): Promise<{ received: ReceivedFile; schema: Record<string, unknown> }> => {
  const { file: received, fields } = await readMultipartUpload(request, {
    expected: 'the document in "file" and the schema in "schema"',
    field: (name, _value, truncated) => {
      if (name === 'schema' && truncated)
        throw invalid(`The schema is larger than ${EXTRACTION_SCHEMA_LIMITS.maxBytes} bytes.`, 413);
    },
    file: (part) =>
      receiveConversionFile(deps.dataDir, part.file, part.filename || 'document', { maxBytes: deps.maxUploadBytes }),
    discard: discardReceivedFile,
    tooLarge: () =>
      new AppError('too_large', `The document is larger than ${deps.maxUploadBytes} bytes.`, { httpStatus: 413 }),
  });
  try {
    return { received, schema: parseSchema(fields['schema']) };
  } catch (error) {
    await discardReceivedFile(received);
    throw error;
  }
};

/** Spec 003 section 4's task API, plus `GET /tasks` (newest first) and `DELETE /tasks/{id}`. */
export const registerTaskRoutes = (app: FastifyInstance, deps: TaskRoutesDeps): void => {
  const find = (id: string): TaskRecord => {
    const task = TASK_ID.test(id) ? deps.store.get(id) : undefined;
    if (!task) throw new AppError('task_not_found', `No task ${id.slice(0, 64)}.`, { httpStatus: 404 });
    return task;
  };

  registerPageImageRoutes(app, { find });

  app.post('/tasks', { schema: extractionTaskSchemas.create }, async (request, reply) => {
    const { received, schema } = await receiveTask(request, deps);
    const taskId = newTaskId();
    let uploadPath: string;
    try {
      uploadPath = await keepTaskUpload(deps.dataDir, taskId, received.absolutePath, received.filename);
    } finally {
      await discardReceivedFile(received);
    }
    // persisted (queued) before it is acknowledged
    deps.store.create({
      task_id: taskId,
      original_filename: received.filename,
      upload_path: uploadPath,
      schema,
      extractor: deps.runner.extractor,
    });
    deps.runner.enqueue(taskId);
    const body: ExtractionTaskCreated = { task_id: taskId };
    return reply.code(202).header('location', `/tasks/${taskId}`).send(body);
  });

  app.get('/tasks', { schema: extractionTaskSchemas.list }, async (request) => {
    const parsed = ExtractionTaskListQuerySchema.safeParse(request.query ?? {});
    if (!parsed.success) throw invalid(`Invalid query: ${describeZodError(parsed.error)}`);
    const page = deps.store.list(parsed.data);
    const body: ExtractionTaskList = {
      tasks: page.tasks.map(toStatus),
      ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}),
    };
    return body;
  });

  app.get<{ Params: { id: string } }>('/tasks/:id', { schema: extractionTaskSchemas.status }, async (request) =>
    toStatus(find(request.params.id)),
  );

  app.get<{ Params: { id: string } }>(
    '/tasks/:id/result',
    { schema: extractionTaskSchemas.result },
    async (request, reply) => {
      const task = find(request.params.id);
      if (task.status === 'failed' && task.error) {
        const body: ExtractionTaskFailed = { task_id: task.task_id, status: 'failed', error: task.error };
        return reply.code(422).send(body);
      }
      if (task.status !== 'succeeded' || !task.result) {
        throw new AppError(
          'task_not_finished',
          `Task ${task.task_id} is ${task.status}; poll GET /tasks/${task.task_id}.`,
          { httpStatus: 409 },
        );
      }
      return task.result as ExtractionResult;
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/tasks/:id',
    { schema: extractionTaskSchemas.remove },
    async (request, reply) => {
      const task = find(request.params.id);
      deps.runner.cancel(task.task_id);
      deps.store.delete(task.task_id);
      await removeTaskUpload(deps.dataDir, task.task_id);
      return reply.code(204).send();
    },
  );
};
