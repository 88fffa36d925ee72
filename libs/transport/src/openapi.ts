// SPDX-License-Identifier: AGPL-3.0-or-later
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { z } from 'zod';

/** The OpenAPI JSON and its browsable page: open without a token, like `/health` (they describe, never serve data). */
export const OPENAPI_PATHS = { json: '/openapi.json', page: '/docs' } as const;

/** A zod contract as the JSON Schema (2020-12, i.e. OpenAPI 3.1's dialect) of a REST body. */
export const jsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> => {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return json;
};

/** A multipart body for the OpenAPI document: `file` (binary) plus text fields. */
export const multipartBody = (
  fields: Record<string, Record<string, unknown>>,
  required: readonly string[] = ['file'],
) => ({
  type: 'object',
  properties: { file: { type: 'string', format: 'binary', description: 'The document.' }, ...fields },
  required: [...required],
});

/** A multipart body whose text fields are a zod object's (as the client sends them), plus the required `file`. */
export const multipartBodyOf = (fields: z.ZodObject) => {
  const json = jsonSchemaOf(fields, 'input') as {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return multipartBody(json.properties, ['file', ...(json.required ?? [])]);
};

/** The REST error shape, for the error responses of a route's OpenAPI description. */
export const errorResponse = (description: string) => ({
  description,
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: { type: 'array', items: { type: 'string' } },
      },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
});

/**
 * OpenAPI for a service: `@fastify/swagger` collects the routes registered after it (the schemas on routes are
 * generated from the zod contracts); `GET /openapi.json` serves the document and `/docs` the Swagger UI page,
 * whose assets come from the npm package (nothing loaded from elsewhere). Route schemas here are documentation:
 * fastify neither validates nor serialises with them (the zod contracts do the parsing), see createHttpApp.
 */
export const registerOpenApi = (
  app: FastifyInstance,
  info: { title: string; version: string; description?: string; paths?: { json: string; page: string } },
): void => {
  const paths = info.paths ?? OPENAPI_PATHS;
  app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: info.title,
        version: info.version,
        ...(info.description ? { description: info.description } : {}),
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  app.register(swaggerUi, { routePrefix: paths.page, uiConfig: { docExpansion: 'list' } });
  app.register(async (scope) => {
    scope.get(paths.json, { schema: { hide: true } as FastifySchema }, async () => app.swagger());
  });
};

declare module 'fastify' {
  interface FastifySchema {
    hide?: boolean;
    tags?: readonly string[];
    summary?: string;
    description?: string;
    consumes?: readonly string[];
    security?: ReadonlyArray<Record<string, readonly string[]>>;
  }
}
