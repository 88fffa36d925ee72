// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { defineTool } from '../tool-definition.js';
import { BoundedJsonObject } from './doc-common.schema.js';

export const JsonValidateAndNormalizeInput = z.object({
  data: BoundedJsonObject.describe('The extracted data.'),
  schema: BoundedJsonObject.describe(
    'The target schema skeleton: its keys are the fields; a nested object is a group, a list a list, any other ' +
      'leaf a value. A key ending in "_per_model" (or an object skeleton) expects a dict.',
  ),
});

export const JsonValidateAndNormalizeOutput = z.object({
  ok: z.boolean().describe('No errors (warnings allowed).'),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
  normalized: z.record(z.string(), z.unknown()),
});

export const jsonValidateAndNormalizeTool = defineTool({
  name: 'json_validate_and_normalize',
  title: 'Validate and normalize extracted JSON',
  description:
    'Walk the schema skeleton: every schema key missing from data is added as null (with a warning), strings are ' +
    'normalized (whitespace, ranges "1000~1500V" → "1000-1500V"), per-model values must be dicts, type mismatches ' +
    'are errors. Returns {ok, errors, warnings, normalized}.',
  input: JsonValidateAndNormalizeInput,
  output: JsonValidateAndNormalizeOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  errorCodes: ['invalid_arguments'],
});
