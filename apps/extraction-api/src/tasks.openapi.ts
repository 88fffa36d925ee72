// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  ExtractionResultSchema,
  ExtractionTaskCreatedSchema,
  ExtractionTaskFailedSchema,
  ExtractionTaskListSchema,
  ExtractionTaskStatusSchema,
} from '@lectern/contracts';
import { errorResponse, jsonSchemaOf, multipartBody } from '@lectern/transport';

/** extraction-api's task routes as the OpenAPI document describes them, generated from the zod contracts. */
const idParam = {
  type: 'object',
  properties: { id: { type: 'string', description: 'The task id (a ULID)' } },
  required: ['id'],
};

export const extractionTaskSchemas = {
  create: {
    summary: 'Submit a document and a target schema for extraction (spec 003 POST /tasks)',
    consumes: ['multipart/form-data'],
    body: multipartBody(
      {
        schema: {
          type: 'string',
          description:
            'JSON string: the target schema skeleton (a non-empty object; nested objects are groups, arrays lists, `{}` or a `_per_model` key a per-model dict, anything else a value).',
        },
      },
      ['file', 'schema'],
    ),
    response: {
      202: {
        description:
          'Accepted; `Location` names the task (`/tasks/<id>`). An unsupported format is accepted and the task fails.',
        headers: { Location: { type: 'string', description: 'The task: GET it for status and progress' } },
        ...jsonSchemaOf(ExtractionTaskCreatedSchema),
      },
      400: errorResponse('The schema is not a JSON object skeleton, or the request is malformed'),
      413: errorResponse('The file is larger than MAX_UPLOAD_BYTES'),
      415: errorResponse('Not multipart/form-data'),
    },
  },
  list: {
    summary: 'Tasks, newest first (paged by `cursor`)',
    querystring: {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
        cursor: { type: 'string', description: '`next_cursor` of the previous page' },
        status: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed'] },
      },
    },
    response: {
      200: { description: 'A page of tasks', ...jsonSchemaOf(ExtractionTaskListSchema) },
      400: errorResponse('Invalid paging'),
    },
  },
  status: {
    summary: 'Status, progress and error of a task',
    params: idParam,
    response: {
      200: { description: 'The task', ...jsonSchemaOf(ExtractionTaskStatusSchema) },
      404: errorResponse('No such task'),
    },
  },
  result: {
    summary: 'The result of a finished task: data, verified evidence, warnings, timing',
    params: idParam,
    response: {
      200: { description: 'The extraction result (spec 003 section 12)', ...jsonSchemaOf(ExtractionResultSchema) },
      404: errorResponse('No such task'),
      409: errorResponse('Not finished yet: poll GET /tasks/{id}'),
      422: { description: 'The task failed', ...jsonSchemaOf(ExtractionTaskFailedSchema) },
    },
  },
  remove: {
    summary: 'Delete a task, its upload and its result (a running task is stopped)',
    params: idParam,
    response: { 204: { description: 'Deleted', type: 'null' }, 404: errorResponse('No such task') },
  },
};

const dpiQuery = {
  type: 'object',
  properties: {
    dpi: {
      type: 'integer',
      minimum: 20,
      maximum: 200,
      default: 110,
      description: 'Resolution (a large page is drawn smaller to stay within 6 million pixels)',
    },
  },
};
const pngResponse = (description: string) => ({
  description,
  content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
});

/** The page images of issue 26 (evidence a person can see). */
export const pageImageSchemas = {
  page: {
    summary: "A page of the task's PDF as PNG",
    params: {
      type: 'object',
      properties: {
        id: idParam.properties.id,
        page: { type: 'string', pattern: '^\\d{1,6}$', description: '1-based page number' },
      },
      required: ['id', 'page'],
    },
    querystring: dpiQuery,
    response: {
      200: pngResponse('The page as PNG'),
      400: errorResponse('dpi outside 20-200'),
      404: errorResponse('No such task, page, or stored document'),
      415: errorResponse('The document is not a PDF'),
    },
  },
  evidence: {
    summary: 'The page of one evidence entry as PNG, its quads highlighted',
    description:
      "n addresses the result's evidence list: every evidence leaf depth first in the schema's key order (a per-model field's leaves in model order), 0-based; or an entry's dotted path (`group.field`, `field.Model`, URL-encoded).",
    params: {
      type: 'object',
      properties: {
        id: idParam.properties.id,
        n: { type: 'string', description: '0-based index into the evidence list, or a dotted path' },
      },
      required: ['id', 'n'],
    },
    querystring: dpiQuery,
    response: {
      200: pngResponse('The page as PNG with the evidence highlighted'),
      400: errorResponse('dpi outside 20-200'),
      404: errorResponse('No such task, evidence entry (or it was not located on a page), or stored document'),
      415: errorResponse('The document is not a PDF'),
    },
  },
};
