// SPDX-License-Identifier: AGPL-3.0-or-later
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Embedder } from '@lectern/embedding';
import { makeTextPdf } from '@lectern/testing';
import type { DocumentStoreDeps } from './deps.js';
import { findChunks } from './project-chunks.js';
import { openProjectFixture, type ProjectFixture } from './project-fixture.testkit.js';
import { runProjectIngest } from './project-runs.js';

/*
 * Spec 004 FR-019/SC-008 (issue 25, "fresh, never stale"): re-indexing a changed file replaces that source's chunks
 * (new written, then old removed), leaves one copy, and a failed re-index leaves the old version searchable.
 * Real platform (SQLite store, in-process conversion, the configured embedder: the generated test model, as nothing
 * here depends on what the embeddings mean), generated PDFs.
 */
const version = (word: string): Buffer =>
  makeTextPdf([
    ['# Maintenance manual', `The ${word} valve is inspected every six months by a qualified engineer.`],
    ['# Parts', ...Array.from({ length: 6 }, (_, i) => `Part ${i + 1} of the ${word} assembly is listed here.`)],
  ]);

describe('spec 004 reindex of a changed file', () => {
  let fx: ProjectFixture;
  let docs: string;
  let deps: DocumentStoreDeps;
  let embedder: Embedder;

  const storedDocIds = async (): Promise<string[]> => {
    const collection = (await deps.store.getCollection('manuals'))!.name;
    const page = await deps.store.scroll(collection, { limit: 1000 });
    return page.points.map((p) => String(p.payload['document_id']));
  };
  const run = (kind: 'ingest' | 'reindex', with_: Embedder = embedder) =>
    runProjectIngest(deps, {
      project: 'manuals',
      root: docs,
      files: [join(docs, 'manual.pdf')],
      kind,
      embedder: with_,
    });

  beforeAll(async () => {
    fx = await openProjectFixture({ prefix: 'lectern-reindex-', project: 'manuals', maxTokens: 64 });
    ({ docs, deps, embedder } = fx);
  }, 120_000);

  afterAll(async () => {
    await fx?.close();
  });

  it('replaces the earlier version: one copy, the new text found, the old gone', async () => {
    writeFileSync(join(docs, 'manual.pdf'), version('brass'));
    const first = await run('ingest');
    expect(first.errors).toEqual([]);
    const oldId = first.documents[0]!.doc_id;
    expect(first.documents[0]!.chunks).toBeGreaterThan(1);
    expect(new Set(await storedDocIds())).toEqual(new Set([oldId]));

    writeFileSync(join(docs, 'manual.pdf'), version('copper'));
    const second = await run('reindex');
    expect(second.errors).toEqual([]);
    const newId = second.documents[0]!.doc_id;
    expect(newId).not.toBe(oldId); // spec 000's rule stays: another content hash is another document
    expect(second.documents[0]!.replaced).toEqual([oldId]);
    expect(second.totals.removed).toBe(first.documents[0]!.chunks);
    const ids = await storedDocIds();
    expect(new Set(ids)).toEqual(new Set([newId]));
    expect(ids).toHaveLength(second.documents[0]!.chunks);

    const found = await findChunks(deps, { project: 'manuals', query: 'valve inspected every six months', top_k: 10 });
    expect(found.results.map((r) => r.doc_id)).not.toContain(oldId);
    expect(found.results[0]!.text).toMatch(/copper/);

    // Reindexing the same content again writes and removes nothing.
    const again = await run('reindex');
    expect(again.totals).toMatchObject({ written: 0, removed: 0 });
    expect(await storedDocIds()).toHaveLength(ids.length);
  }, 120_000);

  it('a re-index that fails leaves the earlier version as it was', async () => {
    const before = await storedDocIds();
    writeFileSync(join(docs, 'manual.pdf'), version('steel'));
    const failing: Embedder = Object.assign(Object.create(embedder) as Embedder, {
      embedBatch: () => Promise.reject(new Error('embedding backend down')),
    });
    const failed = await run('reindex', failing);
    expect(failed.errors).toHaveLength(1);
    expect((await storedDocIds()).sort()).toEqual([...before].sort());
  }, 120_000);
});
