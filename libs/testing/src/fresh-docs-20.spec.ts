// SPDX-License-Identifier: AGPL-3.0-or-later
import { describeBlindSet } from './blind-set.testkit.js';
import { drawDigest, FRESH_20_DOCS, fresh20Name } from './fresh-docs-20.draw.js';
import { freshVariant20Docs } from './fresh-docs-20.js';

// Fresh variant 20, a blind held-out extraction set of scans from another pipeline (PyMuPDF drawings, image-only
// PDFs), checked as test material (blind-set.testkit.ts says what): every expected value is read back by the
// converter's OCR.
describeBlindSet(20, freshVariant20Docs(), {
  contracts: 3,
  receipts: 2,
  datasheets: 3,
  minFields: 64,
  absentShare: [0.1, 0.2],
  ocr: true,
});

describe('fresh variant 20 committed PDFs', () => {
  it.each(FRESH_20_DOCS.map((d) => [fresh20Name(d), d] as const))(
    '%s is an image-only scan made from the drawing and scan settings in fresh-docs-20.draw.ts (its title is their digest)',
    (name, doc) => {
      const pdf = freshVariant20Docs().find((d) => d.name === name)!.pdf;
      const text = pdf.toString('latin1');
      expect(/\/Producer \(fresh-docs-20\.generate\.ts[^)]*\)/.test(text)).toBe(true);
      // a stale PDF (the drawing or the scan settings changed, the generator not run again) carries another digest
      expect(/\/Title \(([^)]*)\)/.exec(text)?.[1]).toBe(drawDigest(doc));
      // one page, one picture, nothing else to read: no font, no text operator in the page's content
      expect(text.match(/\/Subtype \/Image/g)?.length).toBe(1);
      expect(text).not.toMatch(/\/Font\b/);
      expect(/stream\nq [\d.]+ 0 0 [\d.]+ 0 0 cm \/Im1 Do Q\nendstream/.test(text)).toBe(true);
      expect(pdf.length).toBeLessThanOrEqual(400 * 1024);
    },
  );
});
