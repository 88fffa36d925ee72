// SPDX-License-Identifier: AGPL-3.0-or-later
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversionResult } from '@lectern/contracts';
import { readPdfOutline, repeatPdfPages } from '@lectern/conversion';
import { createProject, findChunks, runProjectIngest, type DocumentStoreDeps } from '@lectern/document-store';
import { documentStoreDeps } from '@lectern/document-store';
import { createPlatform, type Platform } from '@lectern/platform';
import { corpusFile, sharedModelDir, silentLogger } from '@lectern/testing';
import type { StoredPoint } from '@lectern/vector-store';

const squash = (s: string): string =>
  s
    .replace(/[#*_`|>\\-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** Every stored chunk of a project's collection. */
const allChunks = async (deps: DocumentStoreDeps, collection: string): Promise<StoredPoint[]> => {
  const out: StoredPoint[] = [];
  let cursor: string | null = null;
  do {
    const page: { points: StoredPoint[]; next: string | null } = await deps.store.scroll(collection, {
      limit: 1000,
      cursor,
    });
    out.push(...page.points);
    cursor = page.next;
  } while (cursor);
  return out;
};

/**
 * Spec 004 US1 / SC-001 on two long real documents: the 113-page R manual (long-manuals) and a 54-page scan
 * assembled from the real scans of scanned-ocr (OCR'd). Page spans and section paths of a sample of chunks are
 * checked against each PDF's own text (the converter's per-page text and its heading list).
 */
describe('spec 004 ingest of two long real PDFs (corpus)', () => {
  let dataDir: string;
  let platform: Platform;
  let deps: DocumentStoreDeps;
  let docs: string;
  const conversions = new Map<string, ConversionResult>();
  let chunks: StoredPoint[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-long-'));
    docs = join(dataDir, 'docs');
    mkdirSync(docs);
    copyFileSync(corpusFile('long-manuals', 'R-intro.pdf'), join(docs, 'R-intro.pdf'));
    writeFileSync(
      join(docs, 'scanned-54.pdf'),
      await repeatPdfPages(readFileSync(corpusFile('scanned-ocr', 'ocrmypdf-resources', 'multipage.pdf')), 54),
    );
    platform = createPlatform({ dataDir, log: silentLogger() });
    deps = documentStoreDeps(platform, {
      embedding: { model: 'potion-base-2M', modelDir: sharedModelDir('potion-base-2M') },
      roots: [docs],
      defaultProject: 'application_docs',
      enableOcr: true,
      imageRatioThreshold: 0.7,
      ingestTimeoutMs: 900_000,
      maxDocumentBytes: 200 * 1024 * 1024,
    });
    const embedder = await deps.embedders.configured();
    await createProject(deps, { project: 'long', chunking: { kind: 'heading', max_tokens: embedder.maxTokens } });
    const summary = await runProjectIngest(deps, {
      project: 'long',
      root: docs,
      files: [join(docs, 'R-intro.pdf'), join(docs, 'scanned-54.pdf')],
      kind: 'ingest',
      embedder,
    });
    expect(summary.errors).toEqual([]);
    // SC-001 (2 minutes for both) is measured, not asserted: see docs/benchmarks/spec004-retrieval.md.
    process.stdout.write(
      `spec 004 ingest of ${summary.documents.map((d) => `${d.file} (${d.page_count} pages, ${d.chunks} chunks)`).join(' and ')}: ${(summary.duration_ms / 1000).toFixed(1)} s\n`,
    );
    // The converter's own reading of each PDF (the same conversion job: already converted, answered from it).
    for (const name of ['R-intro.pdf', 'scanned-54.pdf']) {
      const path = join(docs, name);
      const bytes = readFileSync(path);
      const { createHash } = await import('node:crypto');
      conversions.set(
        name,
        await deps.conversion.convert(
          { kind: 'read', path, filename: name, bytes, sha256: createHash('sha256').update(bytes).digest('hex') },
          { ocrImageBased: true },
        ),
      );
    }
    const info = await deps.store.getCollection('long');
    chunks = await allChunks(deps, info?.name ?? 'long');
  }, 900_000);
  afterAll(async () => {
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const ofFile = (name: string) =>
    chunks
      .filter((c) => c.payload['source_file'] === name)
      .sort((a, b) => Number(a.payload['chunk_index']) - Number(b.payload['chunk_index']));

  it.each(['R-intro.pdf', 'scanned-54.pdf'])(
    "%s: every sampled chunk's text is on the pages its span names",
    (name) => {
      const conv = conversions.get(name) as ConversionResult;
      expect(conv.page_count).toBeGreaterThanOrEqual(50);
      const mine = ofFile(name);
      expect(mine.length).toBeGreaterThan(name === 'R-intro.pdf' ? 100 : 20);
      // Words hyphenated over a line end read joined in the Markdown (the converter mends them): join them here too.
      const pageText = new Map(
        conv.pages.map((p) => [p.page_number, squash(p.text.replace(/(\w)-\s*\n\s*(\w)/g, '$1$2'))]),
      );
      const sample = mine.filter((_, i) => i % (name === 'R-intro.pdf' ? 7 : 3) === 0);
      let checked = 0;
      const misplaced: unknown[] = [];
      for (const c of sample) {
        const start = c.payload['page_start'] as number;
        const end = c.payload['page_end'] as number;
        expect(start).toBeGreaterThanOrEqual(1);
        expect(end).toBeGreaterThanOrEqual(start);
        expect(end).toBeLessThanOrEqual(conv.page_count);
        // The chunk's first three words are printed on its first page, its last three on its last page.
        const words = squash(c.text)
          .split(' ')
          .filter((w) => /^[a-z]{3,}$/.test(w));
        if (words.length < 12) continue;
        const head = words.slice(0, 3);
        const tail = words.slice(-3);
        const onPage = (page: number, run: string[]) => run.every((w) => (pageText.get(page) ?? '').includes(w));
        if (!onPage(start, head) || !onPage(end, tail)) {
          misplaced.push({
            chunk: c.payload['chunk_index'],
            start,
            end,
            head: head.join(' '),
            tail: tail.join(' '),
            where: [...pageText]
              .filter(([, t]) => head.every((w) => t.includes(w)))
              .map(([p]) => p)
              .slice(0, 5),
          });
        }
        checked++;
      }
      if (name === 'R-intro.pdf') expect(misplaced).toEqual([]);
      else {
        // The scan's page text comes from OCR: a word read differently by the verification's conversion makes a
        // run of words found on no page at all (never on a wrong one); at most one sampled chunk in five may miss.
        for (const m of misplaced as Array<{ where: number[] }>) expect(m.where).toEqual([]);
        expect(misplaced.length).toBeLessThanOrEqual(checked / 5);
      }
      expect(checked).toBeGreaterThan(name === 'R-intro.pdf' ? 15 : 5);
    },
  );

  it("R-intro.pdf: section paths follow the manual's own headings and outline", async () => {
    const conv = conversions.get('R-intro.pdf') as ConversionResult;
    // A PDF with an outline has its chunks' section paths from it (issue 25), else from the heading tree: either
    // way every element is one of the manual's own titles.
    const outline = await readPdfOutline(readFileSync(join(docs, 'R-intro.pdf')));
    expect(outline.length).toBeGreaterThan(10);
    const titles = new Set([...conv.headings.map((h) => h.title), ...outline.map((e) => e.title)]);
    for (const c of ofFile('R-intro.pdf')) {
      const path = c.payload['section_path'] as string[];
      expect(path.filter((t) => !titles.has(t))).toEqual([]);
      if (path.length > 0) expect(path[path.length - 1]).toBe(c.payload['section_heading']);
    }
    // which outline entry each chunk gets is checked against the outline itself in
    // libs/document-store/src/project-sections.corpus.spec.ts (at least 95% of chunks right)
    expect(
      ofFile('R-intro.pdf').filter((c) => (c.payload['section_path'] as string[]).length > 0).length,
    ).toBeGreaterThan(ofFile('R-intro.pdf').length / 2);
  });

  it('finds the manual section on vectors with a citation string of its pages', async () => {
    const found = await findChunks(deps, { project: 'long', query: 'assign a vector with the c() function', top_k: 6 });
    const hit = found.results.find((r) => r.section_path[0] === '2 Simple manipulations; numbers and vectors');
    expect(hit).toBeDefined();
    expect(hit?.citation_text).toMatch(/^\(R-intro\.pdf, pp?\. \d+(\u2013\d+)?\)$/);
  });
});
