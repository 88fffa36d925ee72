// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '@lectern/embedding';
import { createPlatform, type Platform } from '@lectern/platform';
import { makeTextPdf, silentLogger, TEST_MODEL_ID, testModelDir } from '@lectern/testing';
import { documentStoreDeps } from './document-store.module.js';
import type { DocumentStoreDeps } from './deps.js';
import { findChunks } from './project-chunks.js';
import { runProjectIngest } from './project-runs.js';
import { createProject } from './projects.js';

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
  let dataDir: string;
  let docs: string;
  let platform: Platform;
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
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-reindex-'));
    docs = join(dataDir, 'library');
    mkdirSync(docs);
    platform = createPlatform({ dataDir, log: silentLogger() });
    deps = documentStoreDeps(platform, {
      embedding: { model: TEST_MODEL_ID, modelDir: testModelDir() },
      roots: [dataDir],
      defaultProject: 'application_docs',
      enableOcr: false,
      imageRatioThreshold: 0.7,
      ingestTimeoutMs: 60_000,
      maxDocumentBytes: 1e8,
    });
    embedder = await deps.embedders.configured();
    await createProject(deps, {
      project: 'manuals',
      chunking: { kind: 'heading', max_tokens: 64, overlap_tokens: 0, heading_context: false },
      fingerprint: embedder.fingerprint,
    });
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
    rmSync(dataDir, { recursive: true, force: true });
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
