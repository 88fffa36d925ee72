// SPDX-License-Identifier: AGPL-3.0-or-later
import { PROJECT_ID_MAX_LENGTH, ProjectIdSchema, ingestDocumentTool, storeChunksTool } from '@lectern/contracts';
import { CollectionNameSchema } from './vector-store.port.js';

/** One project id for tools and store: what a tool accepts, the store can hold, internal suffix included. */
describe('ProjectIdSchema (tools) against the store collection names', () => {
  const longest = 'p'.repeat(PROJECT_ID_MAX_LENGTH);

  it.each(['application_docs', 'policy_docs', 'A1', 'research-papers', longest])(
    '%s is a project id and, with an internal suffix, a collection name',
    (id) => {
      expect(ProjectIdSchema.safeParse(id).success).toBe(true);
      expect(CollectionNameSchema.safeParse(id).success).toBe(true);
      expect(CollectionNameSchema.safeParse(`${id}__registry`).success).toBe(true);
    },
  );

  it.each(['', 'a.b', '_x', '-x', 'a b', 'ünï', 'a__registry', 'x__v2', `${longest}q`])(
    '%j is refused by the tools before it reaches the store',
    (id) => {
      expect(ProjectIdSchema.safeParse(id).success).toBe(false);
      const projectIssue = (r: { error?: { issues: Array<{ path: PropertyKey[] }> } }) =>
        r.error?.issues.some((i) => i.path[0] === 'project');
      expect(
        projectIssue(ingestDocumentTool.input.safeParse({ file_path: '/x.pdf', application_ref: 'A', project: id })),
      ).toBe(true);
      expect(projectIssue(storeChunksTool.input.safeParse({ project: id, chunks: [] }))).toBe(true);
    },
  );
});
