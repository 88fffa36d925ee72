// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { InputBounds } from './input-bounds.schema.js';
import { defineTool } from '../tool-definition.js';
import { ProjectChunkInputSchema, ProjectErrorCodes, ProjectIdField } from './project-chunks.schema.js';

export const StoreChunksInput = z.object({
  project: ProjectIdField,
  chunks: z.array(ProjectChunkInputSchema).min(1).max(InputBounds.chunksPerCall),
  migrate: z
    .boolean()
    .default(false)
    .describe(
      "Allow a change of embedding model: the chunks go into a new collection built with this server's model and the " +
        'project switches to it; the old collection is kept, never emptied (re-ingest or `lectern rebuild` brings the rest over).',
    ),
});

export const StoreChunksOutput = z.object({
  status: z.literal('success'),
  project: z.string(),
  chunks_stored: z.number().int().nonnegative(),
  chunk_ids: z.array(z.string()),
  embedding_model: z.string(),
});

export const storeChunksTool = defineTool({
  name: 'store_chunks',
  title: 'Store project chunks',
  description:
    'Embed and store citable chunks in an existing project (deterministic chunk ids: storing the same chunk twice ' +
    'overwrites it). Refuses a project built with another embedding model unless migrate is true.',
  input: StoreChunksInput,
  output: StoreChunksOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  errorCodes: [...ProjectErrorCodes, 'invalid_arguments'],
});
