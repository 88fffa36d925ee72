// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  ingestDocument,
  recoverHalfWrittenDocuments,
  registryCollection,
  resolveProject,
} from '@lectern/document-store';
import { numberedPdfFile, silentLogger, testModelEnv } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

/**
 * Recovery at start of the document store (issue 24) on a real store, with the states an interrupted ingest leaves
 * planted: a document's chunks without its registry entry; a project whose first ingest died before its registry
 * existed; beside them complete data it must not touch — a registered document, spec 004 chunks (no registry by
 * design), and a registry entry whose chunks are gone (reported, never deleted).
 */
describe('document store recovery at start', () => {
  let ds: RunningDocumentStore;
  beforeAll(async () => {
    ds = await startDocumentStore(testModelEnv());
  }, 60_000);
  afterAll(async () => ds?.stop());

  it('reports half-written documents when shared, removes them when owned, touches nothing complete; idempotent', async () => {
    const { deps } = ds;
    const log = silentLogger();
    const ingest = (file: string, ref: string, project?: string) =>
      ingestDocument(deps, { file_path: file, application_ref: ref, ...(project ? { project } : {}) });
    const kept = await ingest(numberedPdfFile(2, 'recovery-kept.pdf'), 'REC/1');
    const gone = await ingest(numberedPdfFile(3, 'recovery-gone.pdf'), 'REC/2');
    await ingest(numberedPdfFile(2, 'recovery-first.pdf'), 'REC/3', 'first_ingest');
    const project = (await resolveProject(deps, deps.defaultProject))!.info;
    const dim = project.fingerprint.dimension;
    const vector = new Float32Array(dim).fill(1 / Math.sqrt(dim));
    const plant = (ids: string[], payload: (i: number) => Record<string, unknown>) =>
      deps.store.upsert(
        project.name,
        ids.map((id, i) => ({ id, vector, text: `planted chunk ${i}`, payload: payload(i) })),
        { fingerprint: project.fingerprint },
      );
    // a document killed between its chunk write and its registry write
    await plant(['half_chunk_0', 'half_chunk_1'], (i) => ({ document_id: 'half', application_ref: 'REC/9', i }));
    // spec 004 chunks: no registry entry by design
    await plant(['s4_chunk_0'], () => ({ document_id: 'paper-1', origin: 'store_chunks' }));
    // a registered document whose chunks are gone (complete registry data: reported, never deleted)
    await deps.store.deleteByFilter(project.name, { document_id: (gone as { document_id: string }).document_id });
    // the first ingest of a project killed before its registry collection existed
    await deps.store.dropCollection(registryCollection('first_ingest'));

    const reported = await recoverHalfWrittenDocuments({ ...deps, log }, { repair: false });
    const byProject = Object.fromEntries(reported.projects.map((p) => [p.project, p]));
    expect(byProject[deps.defaultProject]).toMatchObject({
      orphan_chunks: 2,
      orphan_document_ids: ['half'],
      removed_chunks: 0,
      count_mismatches: [{ document_id: (gone as { document_id: string }).document_id, stored: 0 }],
    });
    expect(byProject['first_ingest']).toMatchObject({ removed_chunks: 0 });
    expect(byProject['first_ingest']?.orphan_chunks).toBeGreaterThan(0);
    expect(await deps.store.count(project.name, { document_id: 'half' })).toBe(2); // only reported

    const repaired = await recoverHalfWrittenDocuments({ ...deps, log }, { repair: true });
    expect(Object.fromEntries(repaired.projects.map((p) => [p.project, p.removed_chunks]))).toEqual({
      [deps.defaultProject]: 2,
      first_ingest: byProject['first_ingest']?.orphan_chunks,
    });
    expect(await deps.store.count(project.name, { document_id: 'half' })).toBe(0);
    const keptId = (kept as { document_id: string; chunks_created: number }).document_id;
    expect(await deps.store.count(project.name, { document_id: keptId })).toBe(
      (kept as { chunks_created: number }).chunks_created,
    );
    expect(await deps.store.count(project.name, { document_id: 'paper-1' })).toBe(1);

    // Again: nothing left to remove; the entry without chunks is still reported (and still there).
    const again = await recoverHalfWrittenDocuments({ ...deps, log }, { repair: true });
    expect(again.projects).toEqual([
      expect.objectContaining({ project: deps.defaultProject, orphan_chunks: 0, removed_chunks: 0 }),
    ]);
    expect(again.projects[0]?.count_mismatches).toHaveLength(1);
  }, 120_000);
});
