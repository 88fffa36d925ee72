// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { defineTool } from '../tool-definition.js';
import { ChunkMetaSchema, IndexIdField, LocatorSchema, ReadKindSchema } from './doc-common.schema.js';

export const DocReadInput = z.object({
  index_id: IndexIdField,
  locator: LocatorSchema.describe('A locator from doc_search or the toc (h3, h3-c2, h3-t1).'),
  max_chars: z.number().int().min(1).max(20_000).default(3000).describe('Truncate the content (default 3000).'),
});

export const DocReadOutput = z.object({
  locator: z.string(),
  kind: ReadKindSchema,
  content: z.string(),
  truncated: z.boolean(),
  total_chars: z.number().int().nonnegative(),
  meta: ChunkMetaSchema,
});

export const docReadTool = defineTool({
  name: 'doc_read',
  title: 'Read a chunk',
  description:
    'Read one chunk of an indexed document by its locator (exact match), truncated to max_chars, with its heading ' +
    "ancestry. An h{n} locator reads the heading's whole section.",
  input: DocReadInput,
  output: DocReadOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  errorCodes: ['invalid_arguments', 'index_not_found', 'locator_not_found'],
});
