// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { defineTool } from '../tool-definition.js';

export const ListCollectionsInput = z.object({});
export const ListCollectionsOutput = z.object({ result: z.array(z.string()) });

export const listCollectionsTool = defineTool({
  name: 'list_collections',
  title: 'List collections',
  description: 'List all document collections in the vector store (an empty list when there are none).',
  input: ListCollectionsInput,
  output: ListCollectionsOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: [],
  textShape: 'result',
});
