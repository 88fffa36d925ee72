// SPDX-License-Identifier: AGPL-3.0-or-later
import { describeBlindSet } from './blind-set.testkit.js';
import { FRESH_19_DOCS, fresh19Name, htmlDigest } from './fresh-docs-19.html.js';
import { freshVariant19Docs } from './fresh-docs-19.js';

// Fresh variant 19, a blind held-out extraction set of scans (image-only PDFs), checked as test material
// (blind-set.testkit.ts says what): every expected value is read back by the converter's OCR.
describeBlindSet(19, freshVariant19Docs(), {
  contracts: 3,
  receipts: 4,
  datasheets: 3,
  minFields: 80,
  absentShare: [0.12, 0.2],
  ocr: true,
});

describe('fresh variant 19 committed PDFs', () => {
  it.each(FRESH_19_DOCS.map((d) => [fresh19Name(d), d] as const))(
    '%s is an image-only scan made from the HTML and scan settings in fresh-docs-19.html.ts (its title is their digest)',
    (name, doc) => {
      const pdf = freshVariant19Docs().find((d) => d.name === name)!.pdf;
      const text = pdf.toString('latin1');
      expect(/\/Producer \(fresh-docs-19\.generate\.ts[^)]*\)/.test(text)).toBe(true);
      // a stale PDF (the HTML or the scan settings changed, the generator not run again) carries another digest
      expect(/\/Title \(([^)]*)\)/.exec(text)?.[1]).toBe(htmlDigest(doc));
      // one page, one picture, nothing else to read: no font, no text operator in the page's content
      expect(text.match(/\/Subtype \/Image/g)?.length).toBe(1);
      expect(text).not.toMatch(/\/Font\b/);
      expect(/stream\nq [\d.]+ 0 0 [\d.]+ 0 0 cm \/Im1 Do Q\nendstream/.test(text)).toBe(true);
      expect(pdf.length).toBeLessThanOrEqual(400 * 1024);
    },
  );
});
