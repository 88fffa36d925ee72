// SPDX-License-Identifier: AGPL-3.0-or-later
import { Validator } from '@seriousme/openapi-schema-validator';

/** Validate an OpenAPI document against the published OpenAPI 3.x JSON Schemas; returns the errors (none: []). */
export const openApiErrors = async (document: unknown): Promise<unknown[]> => {
  const result = await new Validator().validate(document as Record<string, unknown>);
  return result.valid ? [] : [result.errors ?? 'invalid'].flat();
};
