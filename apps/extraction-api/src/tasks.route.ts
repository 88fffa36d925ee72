// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  CommonErrorCodes,
  ExtractionSchemaSkeleton,
  ExtractionTaskListQuerySchema,
  EXTRACTION_SCHEMA_LIMITS,
  jsonNestingExceeds,
  RESERVED_SCHEMA_KEYS,
  reservedKeyPath,
  type ExtractionResult,
  type ExtractionTaskCreated,
  type ExtractionTaskFailed,
  type ExtractionTaskList,
  type ExtractionTaskStatus,
} from '@lectern/contracts';
import { discardReceivedFile, receiveConversionFile, type ReceivedFile } from '@lectern/conversion-job';
import type { ExtractionRunner } from '@lectern/extraction';
import { newTaskId, type TaskRecord, type TaskStore, type TaskUploads } from '@lectern/task-store';
import { describeZodError, readMultipartUpload } from '@lectern/transport';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import { registerPageImageRoutes } from './page-image.route.js';
import { extractionTaskSchemas } from './tasks.openapi.js';

export interface TaskRoutesDeps {
  store: TaskStore;
  runner: ExtractionRunner;
  dataDir: string;
  /** Where task uploads are kept (distributed: in the blob store too, for the replica that runs the task). */
  uploads: TaskUploads;
  maxUploadBytes: number;
  /** An upload sending nothing this long is answered 408 `upload_timeout` (default 30 s); the whole upload may take 20 times this. */
  uploadIdleTimeoutMs?: number;
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
  // bounded before parsing: JSON.parse and the validator recurse, so a 10,000-level document would overflow them
  if (jsonNestingExceeds(raw, EXTRACTION_SCHEMA_LIMITS.maxDepth + 2))
    throw invalid(`The schema is nested deeper than ${EXTRACTION_SCHEMA_LIMITS.maxDepth} levels.`);
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
  // before the validator: a `__proto__` key would not survive its copy of the object
  const reserved = reservedKeyPath(json);
  if (reserved)
    throw invalid(
      `Invalid "schema": ${reserved}: "${reserved.split('.').pop()}" is reserved (${RESERVED_SCHEMA_KEYS.join(', ')} name JavaScript's object machinery); rename the field.`,
    );
  const parsed = ExtractionSchemaSkeleton.safeParse(json);
  if (!parsed.success) throw invalid(`Invalid "schema": ${describeZodError(parsed.error)}`);
  return parsed.data;
};

/** Read `file` (streamed to DATA_DIR/uploads, at most `maxBytes`) and `schema`; a refused request leaves nothing behind. */
const readTask = async (
  request: FastifyRequest,
  deps: TaskRoutesDeps,
  track: (source: PassThrough, received?: ReceivedFile) => void,
): Promise<{ received: ReceivedFile; schema: Record<string, unknown> }> => {
  let upload: Awaited<ReturnType<typeof readMultipartUpload<ReceivedFile>>>;
  try {
    upload = await readMultipartUpload(request, {
      expected: 'the document in "file" and the schema in "schema"',
      field: (name, _value, truncated) => {
        if (name === 'schema' && truncated)
          throw invalid(`The schema is larger than ${EXTRACTION_SCHEMA_LIMITS.maxBytes} bytes.`, 413);
      },
      file: async (part) => {
        // a stream of our own between the parser and the file: destroying it always ends the write (and its cleanup)
        const source = new PassThrough();
        source.on('error', () => undefined); // the write's pipeline reports it (it attaches after a mkdir)
        part.file.on('error', (error) => source.destroy(error));
        part.file.pipe(source);
        track(source);
        const received = await receiveConversionFile(deps.dataDir, source, part.filename || 'document', {
          maxBytes: deps.maxUploadBytes,
        });
        track(source, received);
        return received;
      },
      discard: discardReceivedFile,
      tooLarge: () =>
        new AppError('too_large', `The document is larger than ${deps.maxUploadBytes} bytes.`, { httpStatus: 413 }),
    });
  } catch (error) {
    if (error instanceof AppError && error.code !== CommonErrorCodes.invalidArguments) throw error;
    if (error instanceof AppError && !/^Malformed multipart/.test(error.message)) throw error;
    // busboy's own errors (no boundary, a part cut off, a header it cannot read): the client's body, not our fault
    throw new AppError(
      'invalid_multipart',
      'The multipart/form-data body is malformed (no boundary in Content-Type, or a part cut off or unreadable).',
      { httpStatus: 400, cause: error },
    );
  }
  const { file: received, fields } = upload;
  try {
    return { received, schema: parseSchema(fields['schema']) };
  } catch (error) {
    await discardReceivedFile(received);
    throw error;
  }
};

/** After the body has ended, how long the parser may take to finish before the body is called malformed. */
const ENDED_GRACE_MS = 5000;

/**
 * `readTask` bounded in time: an upload that sends nothing for `uploadIdleTimeoutMs` (or takes 20 times that in
 * all) is answered 408 `upload_timeout` with `Connection: close`; closing the connection ends the parser, whose
 * error removes the partly written file from `uploads/.incoming` (what a crash leaves there is swept at start).
 */
const receiveTask = async (
  request: FastifyRequest,
  reply: FastifyReply,
  deps: TaskRoutesDeps,
): Promise<{ received: ReceivedFile; schema: Record<string, unknown> }> => {
  const idleMs = deps.uploadIdleTimeoutMs ?? 30_000;
  let filePart: PassThrough | undefined;
  let receivedFile: ReceivedFile | undefined;
  let idle: NodeJS.Timeout | undefined;
  let fire: (error: AppError) => void = () => undefined;
  const stalled = new Promise<never>((_, reject) => (fire = reject));
  const timeout = (why: string) =>
    fire(new AppError('upload_timeout', `The upload ${why}; send the whole request at once.`, { httpStatus: 408 }));
  const rearm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => timeout(`sent nothing for ${Math.round(idleMs / 1000)} s`), idleMs);
  };
  // The body has ended but the parser still waits (a part cut off without its closing boundary: busboy ends
  // the parts without an error and the file stream never finishes): malformed, answered at once.
  const ended = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () =>
        fire(
          new AppError('invalid_multipart', 'The multipart/form-data body ended inside a part (no closing boundary).', {
            httpStatus: 400,
          }),
        ),
      ENDED_GRACE_MS,
    );
  };
  const total = setTimeout(() => timeout(`took longer than ${Math.round((idleMs * 20) / 1000)} s`), idleMs * 20);
  request.raw.on('data', rearm);
  request.raw.once('end', ended);
  rearm();
  let abandoned = false;
  const reading = readTask(request, deps, (part, received) => {
    filePart = part;
    receivedFile = received;
    // received after the request was answered: nobody will read it
    if (abandoned && received) void discardReceivedFile(received).catch(() => undefined);
  });
  try {
    return await Promise.race([reading, stalled]);
  } catch (error) {
    if (error instanceof AppError && (error.code === 'upload_timeout' || error.code === 'invalid_multipart')) {
      abandoned = true;
      reply.header('connection', 'close');
      filePart?.destroy(error);
      // a file already received while the parser waits for more: removed now (the parser may never finish)
      if (receivedFile) await discardReceivedFile(receivedFile);
      // what the abandoned read still produces is removed when it ends
      void reading.then(({ received }) => discardReceivedFile(received)).catch(() => undefined);
    }
    throw error;
  } finally {
    clearTimeout(idle);
    clearTimeout(total);
    request.raw.off('data', rearm);
    request.raw.off('end', ended);
  }
};

/** Spec 003 section 4's task API, plus `GET /tasks` (newest first) and `DELETE /tasks/{id}`. */
export const registerTaskRoutes = (app: FastifyInstance, deps: TaskRoutesDeps): void => {
  const find = async (id: string): Promise<TaskRecord> => {
    const task = TASK_ID.test(id) ? await deps.store.get(id) : undefined;
    if (!task) throw new AppError('task_not_found', `No task ${id.slice(0, 64)}.`, { httpStatus: 404 });
    return task;
  };

  registerPageImageRoutes(app, { find, localUpload: (task) => deps.uploads.localPath(task) });

  app.post('/tasks', { schema: extractionTaskSchemas.create }, async (request, reply) => {
    const { received, schema } = await receiveTask(request, reply, deps);
    const taskId = newTaskId();
    let uploadPath: string;
    try {
      uploadPath = await deps.uploads.keep(taskId, received.absolutePath, received.filename);
    } finally {
      await discardReceivedFile(received);
    }
    // persisted (queued) before it is acknowledged
    await deps.store.create({
      task_id: taskId,
      original_filename: received.filename,
      upload_path: uploadPath,
      schema,
      extractor: deps.runner.extractor,
    });
    await deps.runner.enqueue(taskId);
    const body: ExtractionTaskCreated = { task_id: taskId };
    return reply.code(202).header('location', `/tasks/${taskId}`).send(body);
  });

  app.get('/tasks', { schema: extractionTaskSchemas.list }, async (request) => {
    const parsed = ExtractionTaskListQuerySchema.safeParse(request.query ?? {});
    if (!parsed.success) throw invalid(`Invalid query: ${describeZodError(parsed.error)}`);
    const page = await deps.store.list(parsed.data);
    const body: ExtractionTaskList = {
      tasks: page.tasks.map(toStatus),
      ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}),
    };
    return body;
  });

  app.get<{ Params: { id: string } }>('/tasks/:id', { schema: extractionTaskSchemas.status }, async (request) =>
    toStatus(await find(request.params.id)),
  );

  app.get<{ Params: { id: string } }>(
    '/tasks/:id/result',
    { schema: extractionTaskSchemas.result },
    async (request, reply) => {
      const task = await find(request.params.id);
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
      const task = await find(request.params.id);
      deps.runner.cancel(task.task_id);
      await deps.store.delete(task.task_id);
      await deps.uploads.remove(task.task_id, task.upload_path);
      return reply.code(204).send();
    },
  );
};
