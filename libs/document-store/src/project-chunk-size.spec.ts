// SPDX-License-Identifier: AGPL-3.0-or-later
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTextPdf } from '@lectern/testing';
import type { DocumentStoreDeps } from './deps.js';
import { queryHybrid } from './project-chunks.js';
import { openProjectFixture, type ProjectFixture } from './project-fixture.testkit.js';
import { runProjectIngest } from './project-runs.js';

/*
 * Issue 25, round 8: spec 004 chunks are never longer than a search result may show (FR-010's retrieval trim). A
 * heading section of several pages used to be cut into chunks of the model's token limit (~2,000 characters with
 * potion-base-2M against a 1,500-character trim), so a chunk holding the answer in its tail came back first with the
 * answer cut off. Real platform (SQLite store, in-process conversion, the generated test model), a generated PDF; the
 * server's retrieval policy set low (400 characters) so the test model's token limit alone would make longer chunks.
 */
const LIMIT = 400;
const filler = (page: number, i: number) =>
  `Paragraph ${page}.${i} of the drainage strategy describes routine inspection of culverts and outfalls.`;

describe('spec 004 chunks fit the retrieval trim', () => {
  let fx: ProjectFixture;
  let deps: DocumentStoreDeps;

  beforeAll(async () => {
    fx = await openProjectFixture({ prefix: 'lectern-chunk-size-', project: 'drainage', retrievalMaxChars: LIMIT });
    deps = fx.deps;
    writeFileSync(
      join(fx.docs, 'strategy.pdf'),
      makeTextPdf([
        ['# Drainage strategy', ...Array.from({ length: 10 }, (_, i) => filler(1, i))],
        [
          ...Array.from({ length: 9 }, (_, i) => filler(2, i)),
          'The attenuation pond at Marsh Lane holds 4,200 cubic metres of storm water.',
        ],
      ]),
    );
    const run = await runProjectIngest(deps, {
      project: 'drainage',
      root: fx.docs,
      files: [join(fx.docs, 'strategy.pdf')],
      kind: 'ingest',
      embedder: fx.embedder,
    });
    expect(run.errors).toEqual([]);
  }, 120_000);

  afterAll(async () => {
    await fx?.close();
  });

  it('stores no chunk longer than the retrieval policy lets a result show', async () => {
    const collection = (await deps.store.getCollection('drainage'))!.name;
    const { points } = await deps.store.scroll(collection, { limit: 1000 });
    expect(points.length).toBeGreaterThan(1);
    for (const p of points) expect(p.text.length).toBeLessThanOrEqual(LIMIT);
    // one section of two pages: its chunks keep their page spans and section
    expect(new Set(points.map((p) => p.payload['section_heading']))).toEqual(new Set(['Drainage strategy']));
    expect(Math.max(...points.map((p) => Number(p.payload['page_end'])))).toBe(2);
  });

  it('returns the answer at the end of a long section whole, not cut off by the trim', async () => {
    const out = await queryHybrid(deps, { project: 'drainage', query: 'attenuation pond Marsh Lane cubic metres' });
    expect(out.results[0]!.text).toContain('4,200 cubic metres of storm water');
    expect(out.results[0]!.text.endsWith('...')).toBe(false);
    expect(out.results[0]).toMatchObject({ page_end: 2 });
  });
});
