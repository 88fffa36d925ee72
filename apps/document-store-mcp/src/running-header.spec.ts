// SPDX-License-Identifier: AGPL-3.0-or-later
import { resolveProject } from '@lectern/document-store';
import { fixtureFile, makePdf, pdfString } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

/*
 * Issue 25, round 3: a document's running header (left out of the text by the converter) still counts for search.
 * Two PDFs with the same pages; only one carries a running header naming it ("Local Plan Inspector's Report").
 * Spec 000's ingest keeps the header in each chunk's payload, and the keyword side credits a query that names it, so
 * that document's copy of the text comes first although the other was ingested first (and wins a tie).
 */
const show = (x: number, y: number, text: string, size = 11): string =>
  `BT /F1 ${size} Tf ${x} ${y} Td (${pdfString(text)}) Tj ET`;
const pages = (header: string | null) =>
  [1, 2, 3, 4].map((n) => ({
    content: [
      ...(header ? [show(72, 770, header, 8)] : []),
      show(290, 30, `Page ${n} of 4`, 8),
      show(72, 680, `The examination considered matter ${n} of the agenda over two hearing days.`),
      show(72, 665, 'The council answered every question the hearing raised on housing land supply.'),
    ].join('\n'),
  }));

let ds: RunningDocumentStore;
afterAll(() => ds?.stop());

describe('search_application_docs: the running header of a document', () => {
  it('is kept in its chunks (not their text) and lifts them for a query that names it', async () => {
    ds = await startDocumentStore();
    const plain = fixtureFile('papers-1.pdf', makePdf(pages(null)));
    const report = fixtureFile('papers-2.pdf', makePdf(pages("Coventry Local Plan Inspector's Report")));
    for (const [file, ref] of [
      [plain, 'RH/1'],
      [report, 'RH/2'],
    ] as const) {
      const out = await ds.call('ingest_document', { file_path: file, application_ref: ref });
      expect(out.body).toMatchObject({ status: 'success' });
    }
    const collection = (await resolveProject(ds.deps, ds.deps.defaultProject))!.info.name;
    const { points } = await ds.deps.store.scroll(collection, { limit: 100 });
    const byFile = (f: string) => points.filter((p) => p.payload['source_file'] === f);
    expect(byFile('papers-2.pdf').length).toBeGreaterThan(0);
    for (const p of byFile('papers-2.pdf'))
      expect(p.payload['running_header']).toBe("Coventry Local Plan Inspector's Report");
    for (const p of byFile('papers-1.pdf')) expect(p.payload['running_header']).toBeUndefined();
    for (const p of points) expect(p.text).not.toMatch(/Inspector|Page \d of 4/);

    const search = async (query: string) =>
      (
        (await ds.call('search_application_docs', { query, search_mode: 'keyword', max_results: 5 })).structured as {
          results: Array<{ metadata: { source_file: string } }>;
        }
      ).results.map((r) => r.metadata.source_file);
    // Without a header word the copies tie and the first ingested leads; naming the report puts its copy first.
    expect((await search('hearing days housing land supply'))[0]).toBe('papers-1.pdf');
    expect((await search("inspector's report hearing days housing land supply"))[0]).toBe('papers-2.pdf');
  }, 180_000);
});
