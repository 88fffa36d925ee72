// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readPdfOutline } from '@lectern/conversion';
import { createPlatform, type Platform } from '@lectern/platform';
import { corpusFile, sharedModelDir, silentLogger } from '@lectern/testing';
import { documentStoreDeps } from './document-store.module.js';
import { runProjectIngest } from './project-runs.js';
import { createProject } from './projects.js';

/*
 * Issue 25 "right sections" on a corpus book: a spec 004 ingest of "An Introduction to R" (113 pages, an outline of
 * 145 entries), then every chunk's section path checked against the book's outline read on its own: its top title is
 * the chapter (level-1 entry) whose pages hold the chunk's first page, and its last title an outline entry whose
 * pages [its page, the next entry's page] meet the chunk's. >= 95% of chunks must be right on both.
 */
const BOOK = corpusFile('long-manuals', 'R-intro.pdf');

describe('spec 004 section paths against the PDF outline (corpus book)', () => {
  let dataDir: string;
  let platform: Platform;

  afterAll(async () => {
    await platform?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives >= 95% of the chunks of An Introduction to R the chapter and section the outline says', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-sections-'));
    platform = createPlatform({ dataDir, log: silentLogger() });
    const deps = documentStoreDeps(platform, {
      // The small static model: this test is about section paths, not embeddings.
      embedding: { model: 'potion-base-2M', modelDir: sharedModelDir('potion-base-2M') },
      roots: [dirname(BOOK)],
      defaultProject: 'application_docs',
      enableOcr: false,
      imageRatioThreshold: 0.7,
      ingestTimeoutMs: 600_000,
      maxDocumentBytes: 1e9,
    });
    const embedder = await deps.embedders.configured();
    await createProject(deps, {
      project: 'rbook',
      chunking: { kind: 'heading', max_tokens: embedder.maxTokens, overlap_tokens: 0 },
      fingerprint: embedder.fingerprint,
    });
    const run = await runProjectIngest(deps, {
      project: 'rbook',
      root: dirname(BOOK),
      files: [BOOK],
      kind: 'ingest',
      embedder,
    });
    expect(run.errors).toEqual([]);

    const outline = (await readPdfOutline(new Uint8Array(readFileSync(BOOK)))).filter((e) => e.page !== null);
    const chapters = outline.filter((e) => e.level === 1);
    const chapterAt = (page: number): string | undefined => chapters.filter((c) => (c.page ?? 0) <= page).pop()?.title;
    const spans = outline.map((e, i) => ({
      title: e.title,
      from: e.page ?? 0,
      to: outline.slice(i + 1).find((n) => (n.page ?? 0) > (e.page ?? 0))?.page ?? Number.MAX_SAFE_INTEGER,
    }));

    const collection = (await deps.store.getCollection('rbook'))!.name;
    const chunks: Array<{ page_start: number; page_end: number; section_path: string[] }> = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof deps.store.scroll>> = await deps.store.scroll(collection, {
        limit: 1000,
        cursor,
      });
      for (const p of page.points) chunks.push(p.payload as (typeof chunks)[number]);
      cursor = page.next;
    } while (cursor);
    const judged = chunks.filter((c) => chapterAt(c.page_start) !== undefined);
    expect(judged.length).toBeGreaterThan(100);
    const right = judged.filter((c) => {
      const last = c.section_path[c.section_path.length - 1];
      return (
        c.section_path[0] === chapterAt(c.page_start) &&
        spans.some((s) => s.title === last && s.from <= c.page_end && s.to >= c.page_start)
      );
    });
    expect(right.length / judged.length).toBeGreaterThanOrEqual(0.95);
  }, 600_000);
});
