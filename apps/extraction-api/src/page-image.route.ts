// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, CommonErrorCodes, PageImageQuerySchema } from '@lectern/contracts';
import { renderPagePng } from '@lectern/conversion';
import { evidenceEntry } from '@lectern/extraction';
import type { TaskRecord } from '@lectern/task-store';
import { describeZodError } from '@lectern/transport';
import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { pageImageSchemas } from './tasks.openapi.js';

export interface PageImageRoutesDeps {
  /** The task `id` names, or a typed 404 (the task routes' own lookup). */
  find(id: string): Promise<TaskRecord>;
  /** Where the task's upload is on this replica (fetched from the blob store in distributed mode). */
  localUpload(task: TaskRecord): Promise<string | undefined>;
}

const parseDpi = (query: unknown): number => {
  const parsed = PageImageQuerySchema.safeParse(query ?? {});
  if (!parsed.success)
    throw new AppError(CommonErrorCodes.invalidArguments, `Invalid query: ${describeZodError(parsed.error)}`, {
      httpStatus: 400,
    });
  return parsed.data.dpi;
};

const readUpload = async (deps: PageImageRoutesDeps, task: TaskRecord): Promise<Uint8Array> => {
  const gone = () =>
    new AppError('document_not_found', `The document of task ${task.task_id} is no longer stored.`, {
      httpStatus: 404,
    });
  const path = await deps.localUpload(task);
  if (!path) throw gone();
  try {
    return await readFile(path);
  } catch (cause) {
    throw new AppError('document_not_found', `The document of task ${task.task_id} is no longer stored.`, {
      httpStatus: 404,
      cause,
    });
  }
};

/**
 * Evidence a person can see (issue 26): a page of a task's PDF as PNG, plain or with one evidence entry's quads
 * highlighted. Same auth as the task routes (registered in their scope).
 */
export const registerPageImageRoutes = (app: FastifyInstance, deps: PageImageRoutesDeps): void => {
  const read = (task: TaskRecord) => readUpload(deps, task);
  const png = (body: Buffer) => ({ body, type: 'image/png' });

  app.get<{ Params: { id: string; page: string } }>(
    '/tasks/:id/pages/:page(^\\d{1,6}).png',
    { schema: pageImageSchemas.page },
    async (request, reply) => {
      const task = await deps.find(request.params.id);
      const dpi = parseDpi(request.query);
      const image = png(await renderPagePng(await read(task), { page: Number(request.params.page), dpi }));
      return reply.type(image.type).header('cache-control', 'private, max-age=300').send(image.body);
    },
  );

  app.get<{ Params: { id: string; n: string } }>(
    '/tasks/:id/evidence/:n/page.png',
    { schema: pageImageSchemas.evidence },
    async (request, reply) => {
      const task = await deps.find(request.params.id);
      const dpi = parseDpi(request.query);
      const entry = task.result ? evidenceEntry(task.result['evidence'], request.params.n) : undefined;
      if (!entry)
        throw new AppError(
          'evidence_not_found',
          task.result
            ? `Task ${task.task_id} has no evidence entry ${request.params.n.slice(0, 200)}.`
            : `Task ${task.task_id} is ${task.status}; it has no evidence yet.`,
          { httpStatus: 404 },
        );
      const { page, quads } = entry.leaf;
      if (page === undefined)
        throw new AppError(
          'evidence_not_located',
          `Evidence ${entry.path.join('.')} was not located on a page of the document.`,
          { httpStatus: 404 },
        );
      const image = png(await renderPagePng(await read(task), { page, dpi, highlights: quads ?? [] }));
      return reply.type(image.type).header('cache-control', 'private, max-age=300').send(image.body);
    },
  );
};
