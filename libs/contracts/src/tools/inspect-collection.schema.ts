// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { defineTool } from '../tool-definition.js';
import { ProjectErrorCodes, ProjectIdField } from './project-chunks.schema.js';

export const EmbeddingFingerprintSchema = z.object({
  model_id: z.string(),
  revision: z.string(),
  dimension: z.number().int().positive(),
  normalized: z.boolean(),
});
export type EmbeddingFingerprint = z.infer<typeof EmbeddingFingerprintSchema>;

export const InspectCollectionInput = z.object({
  project: ProjectIdField,
  sample_size: z.number().int().min(0).max(10).default(1).describe('How many sample payloads to include.'),
});

export const InspectCollectionOutput = z.object({
  status: z.literal('success'),
  project: z.string(),
  collection: z.string(),
  points_count: z.number().int().nonnegative(),
  documents_count: z.number().int().nonnegative(),
  embedding_model: EmbeddingFingerprintSchema,
  hybrid_enabled: z.boolean(),
  indexes: z.array(z.object({ field: z.string(), type: z.string() })),
  sample_payloads: z.array(z.record(z.string(), z.unknown())),
});

export const inspectCollectionTool = defineTool({
  name: 'inspect_collection',
  title: 'Inspect project collection',
  description:
    "Report a project collection's size, embedding model fingerprint, hybrid flag, payload indexes and sample payloads.",
  input: InspectCollectionInput,
  output: InspectCollectionOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: [...ProjectErrorCodes, 'invalid_arguments'],
});
