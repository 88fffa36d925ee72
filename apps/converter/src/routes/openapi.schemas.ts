// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  ConversionJobOptionsSchema,
  ConversionResultSchema,
  ConversionTaskCreatedSchema,
  ConversionTaskFailedSchema,
  ConversionTaskStatusSchema,
} from '@lectern/contracts';
import { errorResponse, jsonSchemaOf, multipartBody } from '@lectern/transport';

/** The converter's routes as the OpenAPI document describes them, generated from the zod contracts. */
const body = multipartBody({
  options: {
    type: 'string',
    description: `JSON object of conversion options (may lower this server's limits, never raise them): ${JSON.stringify(jsonSchemaOf(ConversionJobOptionsSchema, 'input'))}`,
  },
});
const result = {
  description: 'The ConversionResult (or its Markdown with `Accept: text/markdown`)',
  ...jsonSchemaOf(ConversionResultSchema),
};
const idParam = {
  type: 'object',
  properties: { id: { type: 'string', description: 'The task id (`convert-<sha256>...`)' } },
  required: ['id'],
};

export const convertSchema = {
  summary: 'Convert a document now (multipart `file`) to a ConversionResult',
  consumes: ['multipart/form-data'],
  body,
  response: {
    200: result,
    400: errorResponse('Invalid options or a malformed request'),
    413: errorResponse('Larger than MAX_DOCUMENT_BYTES'),
    415: errorResponse('Not multipart, or an unsupported file type'),
    503: errorResponse('Busy: retry after Retry-After seconds'),
  },
};

export const taskSchemas = {
  create: {
    summary: 'Submit a document for conversion as a task (the same file twice is one task)',
    consumes: ['multipart/form-data'],
    body,
    response: {
      202: {
        description: 'Accepted; `Location` names the task (`/tasks/<id>`)',
        headers: { Location: { type: 'string', description: 'The task: GET it for status and progress' } },
        ...jsonSchemaOf(ConversionTaskCreatedSchema),
      },
      400: errorResponse('Invalid options or a malformed request'),
      413: errorResponse('Larger than MAX_DOCUMENT_BYTES'),
      415: errorResponse('Not multipart, or an unsupported file type'),
    },
  },
  status: {
    summary: 'Status and progress of a task',
    params: idParam,
    response: {
      200: { description: 'The task', ...jsonSchemaOf(ConversionTaskStatusSchema) },
      404: errorResponse('No such task'),
    },
  },
  result: {
    summary: 'The result of a finished task',
    params: idParam,
    response: {
      200: result,
      404: errorResponse('No such task'),
      409: errorResponse('Not finished yet: poll GET /tasks/{id}'),
      422: { description: 'The conversion failed', ...jsonSchemaOf(ConversionTaskFailedSchema) },
    },
  },
};
