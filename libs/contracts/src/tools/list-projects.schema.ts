// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { defineTool } from '../tool-definition.js';

export const ListProjectsInput = z.object({});

export const ProjectSummarySchema = z.object({
  project: z.string(),
  collection: z.string(),
  embedding_model: z.string(),
  hybrid_enabled: z.boolean(),
  points_count: z.number().int().nonnegative(),
});

export const ListProjectsOutput = z.object({
  status: z.literal('success'),
  project_count: z.number().int().nonnegative(),
  projects: z.array(ProjectSummarySchema),
});

export const listProjectsTool = defineTool({
  name: 'list_projects',
  title: 'List projects',
  description: 'List every project with its collection name, embedding model and hybrid-search flag.',
  input: ListProjectsInput,
  output: ListProjectsOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorCodes: ['INDEX_UNAVAILABLE'],
});
