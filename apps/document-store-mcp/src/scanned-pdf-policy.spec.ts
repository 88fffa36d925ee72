// SPDX-License-Identifier: AGPL-3.0-or-later
import { renderGrayPages } from '@lectern/conversion';
import { fixtureFile, makePdf, pdfString } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

// Issue 31, spec 000 item: the scanned-PDF rule is a setting. SCANNED_PDF_POLICY=ocr (default) keeps a pure scan
// whose OCR reads as prose — and a scanned letter is not a drawing; SCANNED_PDF_POLICY=skip is spec 000 FR-001
// step 3 as written: every image-based document is skipped. The scan is made here: a letter set in Helvetica,
// rendered at 200 DPI and drawn as the only content of an image-only page.

const LETTER = [
  'Dear Planning Officer,',
  'I am writing about the application for the new library',
  'building on the corner of Station Road and Market Street.',
  'The proposed design respects the height of the houses',
  'nearby, and the materials match the older buildings in',
  'the conservation area. My only concern is the delivery',
  'entrance, which would bring lorries past the primary',
  'school every morning. Please consider moving it to the',
  'service lane behind the market, where traffic is lighter.',
  'Yours faithfully, Margaret Holloway',
];

const scannedLetter = async (): Promise<string> => {
  const content = LETTER.map((s, i) => `BT /F1 14 Tf 60 ${700 - i * 24} Td (${pdfString(s)}) Tj ET`).join('\n');
  const [scan] = await renderGrayPages(makePdf([{ content }]), 200);
  if (!scan) throw new Error('no page rendered');
  return fixtureFile(
    'scanned-letter.pdf',
    makePdf([{ content: 'q 612 0 0 792 0 0 cm /Im1 Do Q', image: scan }], { title: 'Scanned letter' }),
  );
};

describe('tool ingest_document: scanned PDFs (SCANNED_PDF_POLICY)', () => {
  let letter: string;
  const servers: RunningDocumentStore[] = [];
  beforeAll(async () => {
    letter = await scannedLetter();
  });
  afterAll(() => Promise.all(servers.map((s) => s.stop())));

  it('document-store:FR-001 SCANNED_PDF_POLICY=ocr (default) keeps a scanned letter, reporting contains_drawings: false', async () => {
    const ds = await startDocumentStore();
    servers.push(ds);
    const out = await ds.call('ingest_document', { file_path: letter, application_ref: 'SCAN/OCR' });
    expect(out.body).toMatchObject({ status: 'success', extraction_method: 'ocr', contains_drawings: false });
    const listed = (await ds.call('list_ingested_documents', { application_ref: 'SCAN/OCR' })).body as {
      documents: Array<{ contains_drawings: boolean }>;
    };
    expect(listed.documents).toEqual([expect.objectContaining({ contains_drawings: false })]);
    const found = (await ds.call('search_application_docs', { query: 'delivery entrance lorries school' })).body as {
      results: Array<{ text: string }>;
    };
    expect(found.results[0]?.text.toLowerCase()).toContain('lorries');
  }, 300_000);

  it('document-store:FR-001 SCANNED_PDF_POLICY=skip skips the scanned letter as image_based', async () => {
    const ds = await startDocumentStore({ SCANNED_PDF_POLICY: 'skip' });
    servers.push(ds);
    const out = await ds.call('ingest_document', { file_path: letter, application_ref: 'SCAN/SKIP' });
    expect(out.body).toMatchObject({ status: 'skipped', reason: 'image_based', total_pages: 1 });
    expect((out.body as { image_ratio: number }).image_ratio).toBeGreaterThan(0.7);
    expect((await ds.call('list_ingested_documents', { application_ref: 'SCAN/SKIP' })).body).toMatchObject({
      document_count: 0,
    });
  }, 300_000);

  it('document-store:FR-001 refuses a SCANNED_PDF_POLICY other than ocr or skip at start-up', async () => {
    await expect(startDocumentStore({ SCANNED_PDF_POLICY: 'maybe' })).rejects.toThrow(/SCANNED_PDF_POLICY/);
  });
});
