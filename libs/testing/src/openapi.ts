// SPDX-License-Identifier: AGPL-3.0-or-later

/** Validate an OpenAPI document against the published OpenAPI 3.x JSON Schemas; returns the errors (none: []). */
export const openApiErrors = async (document: unknown): Promise<unknown[]> => {
  // imported when used: every test file imports this package, a few validate an OpenAPI document
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const result = await new Validator().validate(document as Record<string, unknown>);
  return result.valid ? [] : [result.errors ?? 'invalid'].flat();
};
